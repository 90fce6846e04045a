/**
 * Every area of the sandbox, the read side and the stateful side alike, which together handle every
 * operation: people, companies, suggest and account read the generated graph; saved queries, Lists,
 * Targets/jobs/members, events, preferences and the /__sandbox control endpoints keep per-organization state.
 */
import { everyOperationHandled, type Area } from "../contract/context.js";
import { accountArea } from "./account.js";
import { companiesArea } from "./companies.js";
import { controlArea } from "./control.js";
import { eventsArea } from "./events.js";
import { listsArea } from "./lists.js";
import { membersArea } from "./members.js";
import { peopleArea } from "./people.js";
import { preferencesArea } from "./preferences.js";
import { queriesArea } from "./queries.js";
import { suggestArea } from "./suggest.js";
import { targetsArea } from "./targets.js";

// An operation of the spec that no area handles fails tsc here, named (`noHandlerFor: "getAccount"`).
export const areas: Area[] = everyOperationHandled([
  peopleArea,
  companiesArea,
  suggestArea,
  accountArea,
  queriesArea,
  listsArea,
  targetsArea,
  membersArea,
  eventsArea,
  preferencesArea,
  controlArea,
]);
