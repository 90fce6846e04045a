/**
 * operationError takes only what the operation documents: a status or an error type its spec entry does not
 * list fails tsc where the error is produced.
 */
import { operationError } from "./errors.js";

export const documented = operationError("createTarget", "400", "certification_target_unsupported", "m");
export const notFound = operationError("getTarget", "404", "not_found", "m");

// @ts-expect-error searchPeople documents no certification_target_unsupported (only createTarget does).
export const undocumentedType = operationError("searchPeople", "400", "certification_target_unsupported", "m");
// @ts-expect-error getTarget documents no 409.
export const undocumentedStatus = operationError("getTarget", "409", "conflict", "m");
// @ts-expect-error a type the spec's vocabulary lacks.
export const newType = operationError("createTarget", "400", "target_quota_exceeded", "m");
// @ts-expect-error 429 is documented with the framework shape, not an error type.
export const frameworkShaped = operationError("getTarget", "429", "invalid_request", "m");
