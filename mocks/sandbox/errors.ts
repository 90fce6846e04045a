/** Errors in the reference's application shape `{ error: { type, message } }`. */

export type ErrorType =
  | "invalid_request"
  | "certification_target_unsupported"
  | "unauthorized"
  | "payment_required"
  | "not_found"
  | "conflict"
  | "server_error";

export interface ErrorBody {
  error: { type: string; message: string };
}

/** Throw from anywhere in a handler; the server's error handler turns it into the response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  get body(): ErrorBody {
    return { error: { type: this.type, message: this.message } };
  }
}

export const invalidRequest = (message: string) => new ApiError(400, "invalid_request", message);
export const notFound = (message: string) => new ApiError(404, "not_found", message);
export const conflict = (message: string) => new ApiError(409, "conflict", message);
export const unauthorized = () => new ApiError(401, "unauthorized", UNAUTHORIZED_MESSAGE);
export const paymentRequired = () =>
  new ApiError(402, "payment_required", "Organization access is locked after its trial; GET /me reports access.allowed");

/** The reference: the 401 message asks for a valid key in the Authorization header. */
export const UNAUTHORIZED_MESSAGE = "A valid API key is required in the Authorization header";
