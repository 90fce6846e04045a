/**
 * Validation of answers for development and tests (`<package>/client/validate`): an openapi-fetch middleware that
 * checks every answer's status, required headers and body against the operation's documented answers (the
 * spec, bundled here with only what the checks read) and warns or throws naming the operation, status, JSON
 * pointer and the first violation. Its own entry point: an app that never imports it carries no spec and no checker.
 *
 *   if (import.meta.env.DEV) client.use((await import("talent-graph-api-contract/client/validate")).validateAnswers());
 */
import type { Middleware } from "openapi-fetch";
import bundledSpec from "../../generated/openapi.runtime.json" with { type: "json" };
import { createAnswerChecker, type AnswerMismatch } from "../../contract-core/answer-check.js";

export type { AnswerMismatch } from "../../contract-core/answer-check.js";

export interface ValidateAnswersOptions {
  /** `"throw"` (default): the call rejects with a ContractMismatchError; `"warn"`: console.warn, the call goes on. */
  mode?: "throw" | "warn";
  /** Called with every mismatch before it is thrown or warned about (count them, collect them, report them). */
  onMismatch?: (mismatch: AnswerMismatch) => void;
  /** The bundled spec document (default: the one this package ships). */
  spec?: unknown;
}

/** An answer that is not one of its operation's documented answers. */
export class ContractMismatchError extends Error {
  override name = "ContractMismatchError";
  readonly mismatch: AnswerMismatch;
  constructor(mismatch: AnswerMismatch) {
    super(mismatchMessage(mismatch));
    this.mismatch = mismatch;
  }
}

/** `getPerson (GET /people/{slug}) answered 200 that breaks the contract at /data: body/data must have ...`. */
export function mismatchMessage(m: AnswerMismatch): string {
  const where = m.part === "status" ? "" : m.part === "header" ? ` at header ${m.pointer}` : ` at ${m.pointer || "/"}`;
  const name = m.operationId ? `${m.operationId} (${m.operation})` : m.operation;
  return `${name} answered ${m.status}, which breaks the contract${where}: ${m.message}`;
}

/**
 * The validation middleware: `client.use(validateAnswers({ mode: "warn", onMismatch }))`. It reads a copy of
 * each answer, so the call's own result is unchanged; an answer that matches says nothing.
 */
export function validateAnswers(options: ValidateAnswersOptions = {}): Middleware {
  const mode = options.mode ?? "throw";
  if (mode !== "throw" && mode !== "warn") throw new TypeError(`mode must be "throw" or "warn", got ${String(mode)}`);
  const checker = createAnswerChecker(options.spec ?? bundledSpec);
  return {
    async onResponse({ request, response, schemaPath }) {
      const body = request.method === "HEAD" ? "" : await response.clone().text();
      const mismatch = checker.check({
        method: request.method,
        path: schemaPath,
        status: response.status,
        headers: response.headers,
        body,
      });
      if (!mismatch) return undefined;
      options.onMismatch?.(mismatch);
      if (mode === "throw") throw new ContractMismatchError(mismatch);
      console.warn(mismatchMessage(mismatch));
      return undefined;
    },
  };
}
