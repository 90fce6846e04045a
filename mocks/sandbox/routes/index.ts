/** Every area of the sandbox: the read side and the stateful side, which together handle every operation. */
import { everyOperationHandled, type Area } from "../context.js";
import { statefulAreas } from "../stateful/index.js";
import { accountArea } from "./account.js";
import { companiesArea } from "./companies.js";
import { peopleArea } from "./people.js";
import { suggestArea } from "./suggest.js";

// An operation of the spec that no area handles fails tsc here, named (`noHandlerFor: "getAccount"`).
export const areas: Area[] = everyOperationHandled([
  peopleArea,
  companiesArea,
  suggestArea,
  accountArea,
  ...statefulAreas,
]);
