/**
 * Every API error of the sandbox is made where its type says what the operation documents: no `new ApiError(`
 * outside contract/errors.ts, no untyped helper in areas/ or domain/, operationError given the request's own
 * operation (the type tests: contract/errors.test-d.ts, areas/errors.test-d.ts).
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { errorSiteProblems, sandboxSources, staleAllowEntries, type SourceFile } from "./error-sites.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("the sandbox's error sites", () => {
  it("keep the rules in every source file, and the allow-list has no stale entry", () => {
    const files = sandboxSources(ROOT);
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining(["areas/targets.ts", "domain/people.ts"]));
    expect(files.some((f) => f.path.startsWith("testing/") || f.path.endsWith(".test.ts"))).toBe(false);
    expect(errorSiteProblems(files)).toEqual([]);
    expect(staleAllowEntries(files)).toEqual([]);
  });

  it("fires on each way around the typed errors, and not on its near misses", () => {
    const files: SourceFile[] = [
      {
        path: "areas/a.ts",
        text: 'import { ApiError } from "../contract/errors.js";\nthrow new ApiError(404, "not_found", "m");',
      },
      { path: "areas/b.ts", text: 'import { invalidRequest, operationError } from "../contract/errors.js";' },
      { path: "domain/c.ts", text: 'throw operationError("getTarget", "404", "not_found", "m");' },
      { path: "areas/d.ts", text: "const x = outsideOperations.notFound('m');" },
      { path: "core/e.ts", text: "class Mine extends ApiError {}" },
      { path: "domain/f.ts", text: 'import * as errors from "../contract/errors.js";' },
      { path: "areas/g.ts", text: "throw operationError(op, '400', 'invalid_request', 'm');" },
    ];
    expect(errorSiteProblems(files)).toEqual([
      "areas/a.ts:1 imports ApiError from contract/errors.js: use operationError",
      "areas/a.ts:2 new ApiError( outside contract/errors.ts: use operationError",
      "areas/b.ts:1 imports invalidRequest from contract/errors.js: use operationError",
      'domain/c.ts:1 operationError("getTarget", ...): pass the request\'s req.operationId',
      "areas/d.ts:1 outsideOperations outside core/ and areas/control.ts",
      "core/e.ts:1 a class extends ApiError outside contract/errors.ts",
      "domain/f.ts:1 imports * from contract/errors.js: use operationError",
      "areas/g.ts:1 operationError(op, ...): pass the request's req.operationId",
    ]);
    const nearMisses: SourceFile[] = [
      { path: "contract/errors.ts", text: 'export const e = () => new ApiError(400, "invalid_request", "m");' },
      {
        path: "areas/ok.ts",
        text: 'import { operationError, type Answering } from "../contract/errors.js";\nthrow operationError(req.operationId, "404", "not_found", "m");',
      },
      { path: "core/pipeline.ts", text: 'throw outsideOperations.notFound("m");' },
      { path: "areas/control.ts", text: 'import { outsideOperations } from "../contract/errors.js";' },
      { path: "domain/terms.ts", text: 'import { invalidRequest } from "../contract/errors.js";' },
      // core/ answers before any handler: its 400 is everyOperationError's, typed for every operation.
      { path: "core/body.ts", text: 'import { invalidRequest } from "../contract/errors.js";' },
    ];
    expect(errorSiteProblems(nearMisses)).toEqual([]);
    expect(staleAllowEntries([{ path: "areas/control.ts", text: "" }])).toEqual([
      "areas/control.ts outsideOperations",
      "domain/terms.ts invalidRequest",
    ]);
  });
});
