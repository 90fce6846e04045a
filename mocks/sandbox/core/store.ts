/**
 * The store step: a write (and a read that created state, such as a default List) is made durable before it
 * is acknowledged; a write that is not acknowledged (its save failed, or it answered a 5xx or threw) changes
 * nothing, because memory goes back to the stored state.
 */
import type { SandboxContext } from "../contract/context.js";
import { ApiError, serverError } from "../contract/errors.js";
import { persistWrite, reloadState } from "../areas/stored-state.js";
import { json } from "./answer.js";
import type { Answered, CoreResponse } from "./exchange.js";

/** Methods whose success is stored before it is answered. */
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const isWrite = (method: string): boolean => WRITES.has(method);

export interface WriteStore {
  /** The answer once stored, or a 500 (and a rollback) when it could not be saved. */
  acknowledge(answered: Answered, method: string): Promise<CoreResponse>;
  /** After a thrown request: a write rolls back unless the error is a client error (4xx changes nothing). */
  failed(error: unknown, method: string): void;
}

export function createWriteStore(ctx: SandboxContext): WriteStore {
  function rollback(): void {
    try {
      if (ctx.storage) reloadState(ctx, ctx.storage);
    } catch (error) {
      ctx.logError("sandbox state could not be restored after a failed write", error);
    }
  }
  return {
    failed(error, method) {
      if (isWrite(method) && !(error instanceof ApiError && error.status < 500)) rollback();
    },
    async acknowledge({ response, org }, method) {
      const write = isWrite(method);
      if (response.status < 400 && (write || org)) {
        try {
          await persistWrite(ctx, org, write);
        } catch (error) {
          ctx.logError("sandbox state could not be saved", error);
          rollback();
          return json(
            500,
            serverError(`The sandbox could not save this write in ${ctx.storage?.location}; it was not acknowledged`)
              .body,
          );
        }
      }
      return response;
    },
  };
}
