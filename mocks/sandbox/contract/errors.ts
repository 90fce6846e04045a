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

export const invalidRequest = (message: string) => new ApiError(400, "invalid_request", message);
/** A failure of the sandbox itself: 500 with the vocabulary's one 5xx type. */
export const serverError = (message: string) => new ApiError(500, SERVER_ERROR_TYPE, message);
export const notFound = (message: string) => new ApiError(404, "not_found", message);
export const unauthorized = () => new ApiError(401, "unauthorized", UNAUTHORIZED_MESSAGE);
export const paymentRequired = () =>
  new ApiError(
    402,
    "payment_required",
    "Organization access is locked after its trial; GET /me reports access.allowed",
  );

type Documented = typeof OPERATION_ERRORS;
/** The error statuses an operation documents with a typed body (`"404"`), from the spec (OPERATION_ERRORS). */
export type DocumentedStatus<Id extends keyof Documented> = {
  [S in keyof Documented[Id]]: Documented[Id][S] extends readonly [] ? never : S;
}[keyof Documented[Id]] &
  string;
/** The error types an operation documents for one status. */
export type DocumentedType<
  Id extends keyof Documented,
  S extends DocumentedStatus<Id>,
> = Documented[Id][S] extends readonly (infer T)[] ? T : never;

/**
 * An error one operation documents: the status and type must be among its spec entry's 4xx examples, so a type or
 * status the operation does not document fails tsc where it is produced (errors.test-d.ts).
 */
export function operationError<Id extends keyof Documented, S extends DocumentedStatus<Id>>(
  operationId: Id,
  status: S,
  type: DocumentedType<Id, S> & AnswerErrorType,
  message: string,
): ApiError {
  void operationId;
  return new ApiError(Number(status), type, message);
}
