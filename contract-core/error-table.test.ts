/**
 * The error vocabulary is one: the types and statuses each operation documents (OPERATION_ERRORS, generated
 * from its 4xx examples), the status-to-type table, and the prose tables of the spec (the root description's
 * error table, the Error schema's list of types) must all say the same, and an operation's own prose names only
 * a status and type it documents; a type or status added in one place and not the others fails here, naming it.
 */
import { describe, expect, it } from "vitest";
import { ERROR_TYPES, OPERATION_ERRORS } from "../generated/spec-constants.js";
import { REASON_PHRASES, TYPE_BY_STATUS } from "./error-vocabulary.js";
import { loadSpec } from "./spec.js";

/** `status type` pairs, sorted. */
const pairs = (list: [string, string][]) => [...new Set(list.map(([s, t]) => `${s} ${t}`))].sort();

/** Every (status, type) some operation documents. */
export function documentedPairs(table: Record<string, Record<string, readonly string[]>>): string[] {
  return pairs(
    Object.values(table).flatMap((byStatus) =>
      Object.entries(byStatus).flatMap(([s, types]) => types.map((t): [string, string] => [s, t])),
    ),
  );
}

/** The `| 400 | invalid_request | ... |` rows of a Markdown table in a description. */
export function tableRows(text: string): string[] {
  return pairs(
    [...text.matchAll(/^\|\s*(4\d\d)\s*\|\s*([a-z_]+)\s*\|/gm)].map((m): [string, string] => [m[1]!, m[2]!]),
  );
}

/** The "status `type`" mentions of an operation's prose ("a 400 `invalid_request`"). */
export function statusTypeMentions(text: string): string[] {
  return pairs([...text.matchAll(/\b(4\d\d) `([a-z_]+)`/g)].map((m): [string, string] => [m[1]!, m[2]!]));
}

type Node = Record<string, unknown>;
/**
 * An operation's own prose, $refs followed: its summary and description, its parameters' (path-level ones
 * too) and its responses' descriptions.
 */
export function operationProse(root: Node, pathItem: Node, op: Node): string {
  const resolve = (n: unknown): Node => {
    let node = n as Node;
    for (let i = 0; typeof node?.$ref === "string" && i < 10; i++)
      node = String(node.$ref)
        .slice(2)
        .split("/")
        .reduce<unknown>((at, key) => (at as Node)[key.replace(/~1/g, "/").replace(/~0/g, "~")], root) as Node;
    return node ?? {};
  };
  const params = [...((pathItem.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])];
  const responses = Object.values((op.responses as Node) ?? {});
  return [op.summary, op.description, ...[...params, ...responses].map((n) => resolve(n).description)]
    .filter((t): t is string => typeof t === "string")
    .join("\n");
}

/** Each mention in an operation's prose that its spec entry does not document, as `operationId: status type`. */
export function undocumentedMentions(root: Node, table: Record<string, Record<string, readonly string[]>>): string[] {
  const out: string[] = [];
  for (const pathItem of Object.values(root.paths as Record<string, Node>))
    for (const [method, op] of Object.entries(pathItem)) {
      if (!/^(get|put|post|delete|patch|head|options|trace)$/.test(method)) continue;
      const id = String((op as Node).operationId);
      for (const pair of statusTypeMentions(operationProse(root, pathItem, op as Node))) {
        const [status, type] = pair.split(" ") as [string, string];
        if (!table[id]?.[status]?.includes(type)) out.push(`${id}: ${pair}`);
      }
    }
  return out;
}

/** The "`type` (status)" mentions of a description. */
export function typeMentions(text: string): string[] {
  return pairs([...text.matchAll(/`([a-z_]+)` \((4\d\d)\)/g)].map((m): [string, string] => [m[2]!, m[1]!]));
}

const doc = loadSpec() as unknown as {
  info: { description: string };
  components: { schemas: { Error: { properties: { error: { properties: { type: { description: string } } } } } } };
};
const documented = documentedPairs(OPERATION_ERRORS);

describe("one error vocabulary", () => {
  it("the root description's error table lists exactly the (status, type) pairs the operations document", () => {
    expect(tableRows(doc.info.description)).toEqual(documented);
  });

  it("the Error schema's description names the same pairs, and x-known-values the same types", () => {
    expect(typeMentions(doc.components.schemas.Error.properties.error.properties.type.description)).toEqual(documented);
    expect([...ERROR_TYPES].sort()).toEqual([...new Set(documented.map((p) => p.split(" ")[1]))].sort());
  });

  it("TYPE_BY_STATUS gives each status a type it is documented with, for every status with a typed body", () => {
    const statuses = [...new Set(documented.map((p) => p.split(" ")[0]))].sort();
    expect(Object.keys(TYPE_BY_STATUS).sort()).toEqual(statuses);
    for (const [status, type] of Object.entries(TYPE_BY_STATUS)) expect(documented).toContain(`${status} ${type}`);
  });

  it("REASON_PHRASES agrees with every framework-shaped example of the spec (statusCode and its error text)", () => {
    const examples: string[] = [];
    const walk = (node: unknown): void => {
      if (typeof node !== "object" || node === null) return;
      const value = (node as { value?: { statusCode?: unknown; error?: unknown } }).value;
      if (typeof value?.statusCode === "number" && typeof value.error === "string")
        examples.push(`${value.statusCode} ${value.error}`);
      for (const child of Object.values(node)) walk(child);
    };
    walk((doc as unknown as { components: unknown }).components);
    expect(examples.length).toBeGreaterThan(0);
    for (const pair of new Set(examples)) {
      const [status, ...words] = pair.split(" ");
      expect(REASON_PHRASES[Number(status)], pair).toBe(words.join(" "));
    }
  });

  it("an operation's prose names only a status and type its spec entry documents", () => {
    const root = doc as unknown as Node;
    expect(statusTypeMentions(JSON.stringify(root.paths)).length).toBeGreaterThan(0);
    expect(undocumentedMentions(root, OPERATION_ERRORS)).toEqual([]);
    // Fires: createTarget's prose names 400 certification_target_unsupported, which this table lacks.
    const without = {
      ...OPERATION_ERRORS,
      createTarget: { ...OPERATION_ERRORS.createTarget, "400": ["invalid_request"] },
    };
    expect(undocumentedMentions(root, without)).toEqual(["createTarget: 400 certification_target_unsupported"]);
    expect(statusTypeMentions("a 404 `not_found` or 409 `conflict`; `invalid_request` (400)")).toEqual([
      "404 not_found",
      "409 conflict",
    ]);
  });

  it("the checks fire: a pair missing from a table, or an extra one, is named", () => {
    const extra = { ...OPERATION_ERRORS, getTarget: { ...OPERATION_ERRORS.getTarget, "409": ["target_locked"] } };
    expect(tableRows(doc.info.description)).not.toEqual(documentedPairs(extra));
    expect(documentedPairs(extra)).toContain("409 target_locked");
    expect(tableRows("| 400 | invalid_request | x |\n| 429 | (framework shape) | y |")).toEqual([
      "400 invalid_request",
    ]);
    expect(typeMentions("`not_found` (404), `conflict` (409)")).toEqual(["404 not_found", "409 conflict"]);
  });
});
