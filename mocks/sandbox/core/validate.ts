/**
 * The validate step: path parameters, query and body checked against the operation's validators (compiled
 * from the spec by validation.ts) and coerced to the schema types the handler is typed with; the first
 * problem is a 400 invalid_request.
 */
import type { RequestValidator } from "./validation.js";

export interface ValidatedInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

export function validateRequest(
  validator: RequestValidator,
  params: Record<string, string>,
  rawQuery: URLSearchParams,
  body: unknown,
): ValidatedInput {
  return { params: validator.params(params), query: validator.query(rawQuery), body: validator.body(body) };
}
