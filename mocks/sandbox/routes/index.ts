/** Every area of the sandbox: the read side and the stateful side, which together handle every operation. */
import type { Area, EveryOperation, HandlersOf } from "../context.js";
import { statefulAreas } from "../stateful/index.js";
import { accountArea } from "./account.js";
import { companiesArea } from "./companies.js";
import { peopleArea } from "./people.js";
import { suggestArea } from "./suggest.js";

const served = [peopleArea, companiesArea, suggestArea, accountArea, ...statefulAreas] as const;

export const areas: Area[] = [...served];

/** The areas' handlers together: an operation of the spec without a handler fails tsc here, named. */
export type ServedHandlers = EveryOperation<HandlersOf<typeof served>>;
