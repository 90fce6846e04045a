/**
 * Consumer contracts: what one consumer (a frontend app's test run with the MSW kit) exercised of the API, as
 * one deterministic JSON file: its name and version, and each distinct interaction (operation, the request's
 * parameters and body shape, the status received, the response fields present with their JSON types). The kit
 * writes them (mocks/sandbox/hosts/msw/msw-contract.ts), the gate checks them against a pull request's spec
 * (scripts/consumers/). Node-free: the kit runs in a page.
 *
 * Fields are JSON pointers into the body with `*` for "every item of an array" (`/data/*\/slug`), each with the
 * JSON types seen there, sorted and joined by `|` (`string`, `null|string`; the types are `string`, `integer`,
 * `number`, `boolean`, `null`, `object` and `array`).
 */
import { escapeToken, isObj } from "./pointer.js";

export const CONSUMER_CONTRACT_FORMAT = "talent-graph-consumer-contract/1";

export type JsonType = "string" | "integer" | "number" | "boolean" | "null" | "object" | "array";
const JSON_TYPES: readonly string[] = ["string", "integer", "number", "boolean", "null", "object", "array"];

/** Each field (JSON pointer, `*` for array items) with the JSON types seen there, sorted and joined by `|`. */
export type FieldTypes = Record<string, string>;

/** The types of a field's entry: `null|string` -> ["null", "string"]. */
export const typesOf = (entry: string): JsonType[] => entry.split("|") as JsonType[];

export interface ConsumerInteraction {
  operationId: string;
  /** `GET /people/{slug}`: the method and the spec's path template. */
  operation: string;
  request: {
    /** The names of the path, query and header parameters sent, each list sorted. */
    path: string[];
    query: string[];
    header: string[];
    /** The JSON body's fields and types, null without a JSON body. */
    body: FieldTypes | null;
  };
  status: number;
  /** The JSON response body's fields and types (every answer of this request shape and status merged). */
  response: FieldTypes;
}

export interface ConsumerContract {
  format: typeof CONSUMER_CONTRACT_FORMAT;
  consumer: { name: string; version: string };
  /** Sorted by operationId, status, then request shape. */
  interactions: ConsumerInteraction[];
}

export const jsonType = (value: unknown): JsonType =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : typeof value === "number"
        ? Number.isInteger(value)
          ? "integer"
          : "number"
        : (typeof value as JsonType);

/** The fields of a JSON value with their types, merged into `into`. */
export function fieldTypes(value: unknown, into: FieldTypes = {}, at = ""): FieldTypes {
  const type = jsonType(value);
  const seen = into[at] === undefined ? [] : typesOf(into[at]);
  if (!seen.includes(type)) into[at] = [...seen, type].sort().join("|");
  if (Array.isArray(value)) for (const item of value) fieldTypes(item, into, `${at}/*`);
  else if (isObj(value))
    for (const [key, item] of Object.entries(value)) fieldTypes(item, into, `${at}/${escapeToken(key)}`);
  return into;
}

/** The same fields, sorted by pointer (the file's order). */
export function sortedFields(fields: FieldTypes): FieldTypes {
  return Object.fromEntries(
    Object.keys(fields)
      .sort()
      .map((key) => [key, fields[key]!]),
  );
}

/** What makes two interactions one: the operation, the status and the request's shape. */
export function interactionKey(i: Omit<ConsumerInteraction, "response">): string {
  return JSON.stringify([i.operationId, i.status, i.request.path, i.request.query, i.request.header, i.request.body]);
}

/** Both field maps in one: each field with the types seen in either, sorted. */
export function mergeFields(a: FieldTypes, b: FieldTypes): FieldTypes {
  const out: FieldTypes = { ...a };
  for (const [field, types] of Object.entries(b)) {
    const seen = new Set([...(out[field] === undefined ? [] : typesOf(out[field])), ...typesOf(types)]);
    out[field] = [...seen].sort().join("|");
  }
  return sortedFields(out);
}

/** Interactions in the file's order: by operationId, status, then request shape. */
export function sortedInteractions(interactions: Iterable<ConsumerInteraction>): ConsumerInteraction[] {
  return [...interactions]
    .map((i): [string, ConsumerInteraction] => [interactionKey(i), i])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, i]) => structuredClone(i));
}

/**
 * Several runs' contracts of one consumer as one (Playwright gives each test a page of its own, so a sandbox of
 * its own): each distinct interaction once, the response fields of the same interaction merged. The result is
 * the same whatever the order of `contracts`. They must name the same consumer and version.
 */
export function mergeConsumerContracts(contracts: readonly ConsumerContract[]): ConsumerContract {
  const first = contracts[0];
  if (!first) throw new TypeError("mergeConsumerContracts needs at least one contract");
  const byKey = new Map<string, ConsumerInteraction>();
  for (const contract of contracts) {
    const { name, version } = contract.consumer;
    if (name !== first.consumer.name || version !== first.consumer.version)
      throw new TypeError(
        `contracts of ${JSON.stringify(`${first.consumer.name} ${first.consumer.version}`)} and ` +
          `${JSON.stringify(`${name} ${version}`)} cannot be merged: one consumer and version per file`,
      );
    for (const i of contract.interactions) {
      const key = interactionKey(i);
      const known = byKey.get(key);
      byKey.set(key, known ? { ...known, response: mergeFields(known.response, i.response) } : i);
    }
  }
  return {
    format: CONSUMER_CONTRACT_FORMAT,
    consumer: { ...first.consumer },
    interactions: sortedInteractions(byKey.values()),
  };
}

export class ConsumerContractError extends Error {
  override name = "ConsumerContractError";
}

/**
 * Reads a contract file's text, failing closed: anything not in this format (another format version, a missing
 * name, an interaction without a status) is a ConsumerContractError naming the source and the part.
 */
export function parseConsumerContract(text: string, source: string): ConsumerContract {
  const fail = (what: string): never => {
    throw new ConsumerContractError(`${source}: ${what}`);
  };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return fail("is not JSON");
  }
  if (!isObj(doc)) return fail("is not a consumer contract (a JSON object)");
  if (doc.format !== CONSUMER_CONTRACT_FORMAT)
    fail(`format must be ${JSON.stringify(CONSUMER_CONTRACT_FORMAT)}, got ${JSON.stringify(doc.format)}`);
  const consumer = doc.consumer;
  if (!isObj(consumer) || typeof consumer.name !== "string" || !consumer.name.trim())
    fail("consumer.name must be a non-empty string");
  if (typeof (consumer as { version?: unknown }).version !== "string") fail("consumer.version must be a string");
  if (!Array.isArray(doc.interactions)) fail("interactions must be an array");
  const names = (v: unknown) => Array.isArray(v) && v.every((n) => typeof n === "string");
  const fields = (v: unknown) =>
    isObj(v) &&
    Object.values(v).every((types) => typeof types === "string" && typesOf(types).every((t) => JSON_TYPES.includes(t)));
  (doc.interactions as unknown[]).forEach((raw, index) => {
    const at = `interactions[${index}]`;
    if (!isObj(raw)) return fail(`${at} is not an object`);
    if (typeof raw.operationId !== "string" || !raw.operationId) fail(`${at}.operationId must be a string`);
    if (typeof raw.operation !== "string" || !/^[A-Z]+ \//.test(raw.operation))
      fail(`${at}.operation must read "METHOD /path"`);
    if (!Number.isInteger(raw.status) || (raw.status as number) < 100 || (raw.status as number) > 599)
      fail(`${at}.status must be an HTTP status`);
    const request = raw.request;
    if (!isObj(request) || !names(request.path) || !names(request.query) || !names(request.header))
      fail(`${at}.request must list its path, query and header parameter names`);
    if ((request as { body?: unknown }).body !== null && !fields((request as { body?: unknown }).body))
      fail(`${at}.request.body must be null or fields with JSON types`);
    if (!fields(raw.response)) fail(`${at}.response must be fields with JSON types`);
  });
  return doc as unknown as ConsumerContract;
}
