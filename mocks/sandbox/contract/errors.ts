/**
 * Errors in the reference's application shape `{ error: { type, message } }`, thrown anywhere in the
 * sandbox and answered by the core. The types, shapes and wording are contract-core's error vocabulary.
 */
import {
  errorBody,
  UNAUTHORIZED_MESSAGE,
  SERVER_ERROR_TYPE,
  type AnswerErrorType,
  type ErrorBody,
} from "../../../contract-core/portable.js";
import type { OPERATION_ERRORS } from "../../../generated/spec-constants.js";

export class ApiError extends Error {
  declare readonly status: number;
  declare readonly type: AnswerErrorType;
  declare readonly headers: Record<string, string>;

  constructor(status: number, type: AnswerErrorType, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.type = type;
    this.headers = headers;
    this.name = "ApiError";
  }

  get body(): ErrorBody {
    return errorBody(this.type, this.message);
  }
}

type Documented = typeof OPERATION_ERRORS;
/** Every operation of the spec (OPERATION_ERRORS holds one entry per operation). */
export type DocumentedOperation = keyof Documented;

/**
 * The operations whose spec entry documents `type` for `status` (from its 4xx examples, OPERATION_ERRORS):
 * `OperationsWith<"404", "not_found">` is every operation with a documented 404 not_found.
 */
export type OperationsWith<S extends string, T extends string> = {
  [Id in DocumentedOperation]: S extends keyof Documented[Id]
    ? Documented[Id][S] extends readonly (infer D)[]
      ? T extends D
        ? Id
        : never
      : never
    : never;
}[DocumentedOperation];

/**
 * What a shared helper needs to answer for its caller: the operation of the request it serves (pass the
 * handler's `req`). The helper's parameter names the status and type it throws, so a handler whose operation
 * does not document them fails tsc at the call (errors.test-d.ts).
 */
export interface Answering<Op extends DocumentedOperation> {
  readonly operationId: Op;
}

/**
 * An error one operation documents: the status and type must be among its spec entry's 4xx examples, so a type or
 * status the operation does not document fails tsc where it is produced (errors.test-d.ts). In areas/ and
 * domain/ the operation is the request's own (`req.operationId`), never a literal (error-sites.test.ts).
 */
export function operationError<const S extends string, const T extends AnswerErrorType>(
  operationId: NoInfer<OperationsWith<S, T>>,
  status: S,
  type: T,
  message: string,
): ApiError {
  void operationId;
  return new ApiError(Number(status), type, message);
}

/** The operations that do not document `type` for `status`: never when every operation does. */
type NotDocumenting<S extends string, T extends string> = Exclude<DocumentedOperation, OperationsWith<S, T>>;

/**
 * An error every operation documents, for code that serves any operation before or beside its handler (the
 * request check, the body reader, the key check, the term lists). It compiles only while every operation's
 * spec entry lists `status` with `type`: otherwise `message` must be `{ notDocumentedBy: ... }`, and tsc names
 * the operations that do not document it where the error is produced.
 */
export function everyOperationError<const S extends string, const T extends AnswerErrorType>(
  status: S,
  type: T,
  message: [NotDocumenting<S, T>] extends [never] ? string : { notDocumentedBy: NotDocumenting<S, T> },
  headers: Record<string, string> = {},
): ApiError {
  return new ApiError(Number(status), type, message as string, headers);
}

/** The operations whose spec entry documents no `status` response. */
type NotDocumentingStatus<S extends string> = {
  [Id in DocumentedOperation]: S extends keyof Documented[Id] ? never : Id;
}[DocumentedOperation];

/**
 * A status every operation documents, as a number, for an answer of any operation that has no error type (the
 * rate limit's framework-shaped 429). Otherwise the result is `{ notDocumentedBy: ... }`, and tsc names the
 * operations where the number is used.
 */
export function everyOperationStatus<const S extends `${number}`>(
  status: S,
): [NotDocumentingStatus<S>] extends [never] ? number : { notDocumentedBy: NotDocumentingStatus<S> } {
  return Number(status) as never;
}

/** The request check's 400 (every operation documents 400 invalid_request: a tsc error otherwise). */
export const invalidRequest = (message: string) => everyOperationError("400", "invalid_request", message);
/** A failure of the sandbox itself: 500 with the vocabulary's one 5xx type. */
export const serverError = (message: string) => new ApiError(500, SERVER_ERROR_TYPE, message);
/** The key check's 401 (every operation documents 401 unauthorized: a tsc error otherwise). */
export const unauthorized = () => everyOperationError("401", "unauthorized", UNAUTHORIZED_MESSAGE);
/** A locked organization's 402, for an operation that documents it (every one but getAccount). */
export const paymentRequired = (req: Answering<OperationsWith<"402", "payment_required">>) =>
  operationError(
    req.operationId,
    "402",
    "payment_required",
    "Organization access is locked after its trial; GET /me reports access.allowed",
  );

/**
 * Answers outside every operation, so no spec entry documents them: a path no operation serves (404), a path
 * that does not normalize (400, before routing), a Host or control write refused (403), and the control
 * endpoints' own 400 and 404 (/__sandbox/..., not in the spec). Only core/ and areas/control.ts use them
 * (error-sites.test.ts).
 */
export const outsideOperations = {
  invalid: (message: string) => new ApiError(400, "invalid_request", message),
  notFound: (message: string) => new ApiError(404, "not_found", message),
  forbidden: (message: string) => new ApiError(403, "invalid_request", message),
};
