/**
 * A handler answers only the errors its operation documents (OPERATION_ERRORS, from the spec): a status or type
 * its spec entry lacks fails tsc where it is thrown, at a direct site (`operationError(req.operationId, ...)`)
 * and through a shared helper that takes the request (`requireTarget`, `requirePerson`, `requiredName`).
 */
import type { Handler } from "../contract/context.js";
import { operationError } from "../contract/errors.js";
import { requirePerson } from "../domain/people.js";
import { requiredName } from "./area-helpers.js";
import { requireTarget } from "./targets.js";

declare const answer: never;

// Documented: getTarget's 404 through the shared helper and directly; createTarget's own 400 type.
export const getTarget: Handler<"getTarget"> = (req) => {
  requireTarget(req, req.params.id);
  throw operationError(req.operationId, "404", "not_found", "m");
};
export const createTarget: Handler<"createTarget"> = (req) => {
  requiredName(req, req.body.input);
  throw operationError(req.operationId, "400", "certification_target_unsupported", "m");
};

// A direct site: listTargets documents no 404.
export const listTargets: Handler<"listTargets"> = (req) => {
  // @ts-expect-error listTargets' spec entry has no 404 not_found.
  throw operationError(req.operationId, "404", "not_found", "m");
};

// A direct site: a type another operation documents (only createTarget answers certification_target_unsupported).
export const updateTarget: Handler<"updateTarget"> = (req) => {
  // @ts-expect-error updateTarget documents no certification_target_unsupported.
  throw operationError(req.operationId, "400", "certification_target_unsupported", "m");
};

// A direct site: a new error type the spec's vocabulary lacks.
export const retryTarget: Handler<"retryTarget"> = (req) => {
  // @ts-expect-error target_quota_exceeded is in no operation's spec entry.
  throw operationError(req.operationId, "409", "target_quota_exceeded", "m");
};

// A direct site: a status the operation does not document (getTarget has no 409).
export const getTargetConflict: Handler<"getTarget"> = (req) => {
  // @ts-expect-error getTarget documents no 409 conflict.
  throw operationError(req.operationId, "409", "conflict", "m");
};

// A shared helper: requireTarget throws a 404 not_found, which listTargets does not document.
export const listTargetsViaHelper: Handler<"listTargets"> = (req) => {
  // @ts-expect-error listTargets is not among OperationsWith<"404", "not_found">.
  requireTarget(req, "id");
  return answer;
};

// A shared helper in domain/: requirePerson's 404 from searchPeople, which documents none.
export const searchPeopleViaHelper: Handler<"searchPeople"> = (req, ctx) => {
  // @ts-expect-error searchPeople is not among OperationsWith<"404", "not_found">.
  requirePerson(req, ctx.graph, "slug");
  return answer;
};
