/** Type tests: a search match's keys cannot be changed (a row cache keeps its bytes with the match). */
import { expectTypeOf, test } from "vitest";
import type { Match } from "../data/resources.js";
import { SearchMatch } from "./search-match.js";

test("a search match is a Match whose keys are read-only", () => {
  const match = new SearchMatch({ company: "Acme Labs", company_months: 3 }, {}, 1);
  expectTypeOf(match).toExtend<Match>();
  // @ts-expect-error: read-only
  match.score = 2;
  // @ts-expect-error: read-only
  match.company = null;
  // @ts-expect-error: read-only
  match.roles = [];
});
