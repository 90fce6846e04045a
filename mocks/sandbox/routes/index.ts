/** Every area of the sandbox: the read side and the stateful side. */
import type { Area } from "../context.js";
import { statefulAreas } from "../stateful/index.js";
import { accountArea } from "./account.js";
import { companiesArea } from "./companies.js";
import { peopleArea } from "./people.js";
import { suggestArea } from "./suggest.js";

export const areas: Area[] = [peopleArea, companiesArea, suggestArea, accountArea, ...statefulAreas];
