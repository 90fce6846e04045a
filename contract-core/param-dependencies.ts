/**
 * Rules that tie query parameters together, declared once in the spec as `x-requires` on a parameter
 * (spec/EXTENSIONS.md): when that parameter is sent, at least one of the parameters it names must be sent
 * too, else the request is a 400 `invalid_request` with the rule's message. The mock and the sandbox (and
 * so the MSW host) read the rules here and apply them to the request as sent, so all answer alike.
 */
import { deref, isObj } from "./pointer.js";

export interface ParamDependency {
  /** The parameter that carries the rule. */
  parameter: string;
  /** At least one of these must be sent with it. */
  anyOf: string[];
  /** The reference's wording of the 400. */
  message: string;
}

/** The `x-requires` rules of an operation's query parameters (path-item and operation lists, `$ref`s followed). */
export function paramDependencies(doc: unknown, parameters: readonly unknown[]): ParamDependency[] {
  const rules: ParamDependency[] = [];
  for (const raw of parameters) {
    const p = deref(doc, raw);
    if (!isObj(p) || p.in !== "query" || !isObj(p["x-requires"])) continue;
    const { anyOf, message } = p["x-requires"];
    if (!Array.isArray(anyOf) || !anyOf.every((n) => typeof n === "string") || typeof message !== "string") {
      throw new Error(`x-requires on query parameter ${String(p.name)} needs anyOf (names) and message`);
    }
    rules.push({ parameter: String(p.name), anyOf, message });
  }
  return rules;
}

/**
 * The message of the first rule the request breaks, else undefined. `sent(name)` says whether the query
 * carries the parameter with a non-empty value (an empty value counts as not sent).
 */
export function brokenDependency(
  rules: readonly ParamDependency[],
  sent: (name: string) => boolean,
): string | undefined {
  return rules.find((r) => sent(r.parameter) && !r.anyOf.some(sent))?.message;
}

/** `sent` over a query as name → values (contract-core's queryValues, or a record of the request's query). */
export function sentIn(query: ReadonlyMap<string, readonly string[]> | Record<string, string | string[] | undefined>) {
  const get = (name: string) => (query instanceof Map ? query.get(name) : (query as Record<string, unknown>)[name]);
  return (name: string): boolean => {
    const value = get(name) as string | readonly string[] | undefined;
    return value !== undefined && (typeof value === "string" ? value !== "" : value.some((v) => v !== ""));
  };
}
