/**
 * Entry point of the stateful areas (saved queries, Lists, Targets/jobs/members, events,
 * preferences, /__sandbox control endpoints, state file). The read-side area list imports only `statefulAreas` from here.
 */
import type { Area } from "../context.js";
import { controlArea } from "./control.js";
import { eventsArea } from "./events.js";
import { listsArea } from "./lists.js";
import { membersArea } from "./members.js";
import { preferencesArea } from "./preferences.js";
import { queriesArea } from "./queries.js";
import { targetsArea } from "./targets.js";

export const statefulAreas = [
  queriesArea,
  listsArea,
  targetsArea,
  membersArea,
  eventsArea,
  preferencesArea,
  controlArea,
] as const satisfies readonly Area[];
