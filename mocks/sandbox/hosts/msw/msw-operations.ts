/**
 * The operation a request names, as the core routes it (HEAD as the GET it answers like): what the MSW host's
 * call record, faults and consumer contract key their entries by.
 */
import { Router } from "../../../../contract-core/portable.js";
import type { SpecIndex } from "../../contract/spec.js";

/** The operation a request names, as the core routes it (null: not an operation of the spec). */
export function operationMatcher(
  spec: SpecIndex,
): (method: string, url: string) => { operationId: string; params: Record<string, string>; url: URL } | null {
  const router = new Router(spec.basePath, spec.operations, (op) => op);
  return (method, raw) => {
    const url = new URL(raw, "http://any.invalid");
    const upper = method.toUpperCase();
    const found = router.match(upper === "HEAD" ? "GET" : upper, url.pathname);
    return found.ok ? { operationId: found.route.operationId, params: found.params, url } : null;
  };
}
