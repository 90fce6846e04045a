/** Human-readable rendering of results (test failure messages, CLI output). */
import type { ContractError, ExchangeResult } from "./types.js";

/** One line: `response /body/data/0/slug (#/components/schemas/Person/properties/slug/type): must be string or null, got 42`. */
export function formatError(error: ContractError): string {
  return `${error.side} ${error.pointer || "/"} (${error.schemaPath}): ${error.message}`;
}

/** Headline plus one indented line per error; suitable as a test failure message. */
export function formatErrors(result: ExchangeResult): string {
  const headline = `${result.valid ? "✔" : "✘"} ${result.method} ${result.url} ${result.operationId ?? "(no operation)"} ${result.status}`;
  return [headline, ...result.errors.map((e) => `    ${formatError(e)}`)].join("\n");
}
