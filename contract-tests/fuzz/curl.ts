/** A curl command that replays one fuzzed request; the key is always `$TALENT_GRAPH_API_KEY`, never its value. */
import type { FuzzRequest } from "./requests.js";

export const KEY_VARIABLE = "TALENT_GRAPH_API_KEY";
export const REVOKED_KEY_VARIABLE = "TALENT_GRAPH_REVOKED_KEY";

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlCommand(baseUrl: string, request: FuzzRequest): string {
  // -g: no globbing of [] {}; --path-as-is: send dot segments and bad escapes unchanged.
  const parts = ["curl -sS -i -g --path-as-is", `-X ${request.method}`, quote(`${baseUrl.replace(/\/+$/, "")}${request.path}`)];
  if (request.auth === "bearer") parts.push(`-H "Authorization: Bearer $${KEY_VARIABLE}"`);
  if (request.auth === "x-api-key") parts.push(`-H "X-Api-Key: $${KEY_VARIABLE}"`);
  if (request.auth === "revoked") parts.push(`-H "Authorization: Bearer $${REVOKED_KEY_VARIABLE}"`);
  for (const [name, value] of Object.entries(request.headers)) parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (request.body !== undefined) parts.push(`--data-binary ${quote(request.body)}`);
  return parts.join(" ");
}
