/** A curl command that replays one fuzzed request; the key is always `$TALENT_GRAPH_API_KEY`, never its value. */
import type { FuzzRequest } from "./requests.js";

export const KEY_VARIABLE = "TALENT_GRAPH_API_KEY";
export const REVOKED_KEY_VARIABLE = "TALENT_GRAPH_REVOKED_KEY";

const LONG_RUN = /([A-Za-z0-9])\1{63,}/g;

/** Single-quoted for a POSIX shell; runs of 64+ equal letters or digits are written as a printf so the line stays readable. */
function shellQuote(text: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    parts.push(`'${text.slice(last, match.index).replace(/'/g, `'\\''`)}'`);
    parts.push(`"$(printf '%*s' ${match[0].length} '' | tr ' ' ${match[1]})"`);
    last = match.index + match[0].length;
  }
  parts.push(`'${text.slice(last).replace(/'/g, `'\\''`)}'`);
  return parts.filter((part) => part !== "''").join("") || "''";
}

export function curlCommand(baseUrl: string, request: FuzzRequest): string {
  // -g: no globbing of [] {}; --path-as-is: send dot segments and bad escapes unchanged.
  const parts = [
    "curl -sS -i -g --path-as-is",
    `-X ${request.method}`,
    shellQuote(`${baseUrl.replace(/\/+$/, "")}${request.path}`),
  ];
  if (request.auth === "bearer") parts.push(`-H "Authorization: Bearer $${KEY_VARIABLE}"`);
  if (request.auth === "x-api-key") parts.push(`-H "X-Api-Key: $${KEY_VARIABLE}"`);
  if (request.auth === "revoked") parts.push(`-H "Authorization: Bearer $${REVOKED_KEY_VARIABLE}"`);
  for (const [name, value] of Object.entries(request.headers)) parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (request.body !== undefined) parts.push(`--data-binary ${shellQuote(request.body)}`);
  return parts.join(" ");
}
