/**
 * The handle step: the area's handler for the operation, called with the validated input, the caller and
 * the sandbox context. A promise is awaited; a plain reply is not (no turn of the event loop for nothing).
 */
import type { AuthContext } from "../contract/auth.js";
import type { Area, Handler, OperationId, RequestHeaders, SandboxContext, UntypedReply } from "../contract/context.js";
import { ApiError } from "../contract/errors.js";
import type { ValidatedInput } from "./validate.js";

/** Every handler the areas serve, by operationId. */
export function handlersOf(areas: readonly Area[]): Map<string, Handler> {
  const handlers = new Map<string, Handler>();
  for (const area of areas) for (const [id, h] of Object.entries(area.handlers)) if (h) handlers.set(id, h as Handler);
  return handlers;
}

/** The operation's handler; a 500 naming it when the areas given to the core leave it out. */
export function handlerFor(handlers: Map<string, Handler>, operationId: string): Handler {
  const handler = handlers.get(operationId);
  if (!handler) throw new ApiError(500, "server_error", `${operationId} is not implemented in the sandbox yet`);
  return handler;
}

export function runHandler(
  handler: Handler,
  operationId: string,
  input: ValidatedInput,
  request: { rawQuery: URLSearchParams; headers: RequestHeaders; auth: AuthContext },
  ctx: SandboxContext,
): UntypedReply | Promise<UntypedReply> {
  return handler(
    {
      operationId: operationId as OperationId,
      params: input.params as never,
      query: input.query as never,
      rawQuery: request.rawQuery,
      body: input.body as never,
      headers: request.headers,
      org: request.auth.org,
      auth: request.auth,
    },
    ctx,
  ) as UntypedReply | Promise<UntypedReply>;
}
