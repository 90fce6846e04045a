/**
 * The Target filter mapping is typed by the search table's keys: a filter the spec and the search table gain
 * without a mapping decision fails tsc (here: a `seniority` filter the mapping lacks).
 */
import type { FilterKey } from "../domain/filters.js";
import { TARGET_FILTER_MAPPING, type TargetFilterMapping } from "./discovery.js";

// Every key of the search table has its decision.
export const complete: TargetFilterMapping<FilterKey> = TARGET_FILTER_MAPPING;

// @ts-expect-error Property 'seniority' is missing: a new search filter needs its Target mapping.
export const withNewFilter: TargetFilterMapping<FilterKey | "seniority"> = TARGET_FILTER_MAPPING;

// @ts-expect-error an app_query key the spec does not have is named by tsc.
export const badKey: TargetFilterMapping<"school"> = { school: { appQuery: ["schol"], reads: "school" } };
