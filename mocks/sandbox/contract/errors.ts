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
