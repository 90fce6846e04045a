/**
 * operationError takes only what the operation documents: a status or an error type its spec entry does not
 * list fails tsc where the error is produced.
 */
import { everyOperationError, everyOperationStatus, operationError, paymentRequired } from "./errors.js";

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

// Code that serves any operation takes only what every operation documents.
export const requestCheck = everyOperationError("400", "invalid_request", "m");
export const keyCheck = everyOperationError("401", "unauthorized", "m");
// @ts-expect-error searchPeople (and others) document no 404: message must be { notDocumentedBy: ... }.
export const everyNotFound = everyOperationError("404", "not_found", "m");
// @ts-expect-error getAccount documents no 402 (the locked organization still reads its account).
export const everyPaymentRequired = everyOperationError("402", "payment_required", "m");
export const lockedSearch = paymentRequired({ operationId: "searchPeople" });
// @ts-expect-error getAccount answers a locked organization (no 402 in its spec entry).
export const lockedAccount = paymentRequired({ operationId: "getAccount" });

// The rate limit's 429 answers any operation: every one documents it; not every one documents 404.
export const rateLimited: number = everyOperationStatus("429");
// @ts-expect-error the result is { notDocumentedBy: ... } (searchPeople and others have no 404), not a number.
export const everyStatus404: number = everyOperationStatus("404");
