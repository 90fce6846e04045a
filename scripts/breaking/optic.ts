/** Optic's breaking-changes ruleset as a cross-check of our own rules. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Obj,
  HTTP_METHODS,
  escapeToken,
  isObj,
  listOperations,
  resolvePointer,
  unescapeToken,
} from "../../contract-core/index.js";
import { operationKey } from "./differ.js";
import { type Change, OPTIC_RULE } from "./policy.js";

export interface OpticHit {
  /** operationKey() of the operation, or "" for document-level results. */
  operationKey: string;
  operation: string;
  location: string;
  rule: string;
  message: string;
}

/** Maps an Optic jsonPath (absolute, parameters by index) to our operation key and relative location. */
export function opticLocation(jsonPath: string, doc: unknown): { operation: string; location: string } {
  const segs = jsonPath.split("/").slice(1).map(unescapeToken);
  if (segs[0] !== "paths" || segs.length < 3) return { operation: "", location: jsonPath };
  const [, path = "", method = ""] = segs;
  let rest = segs.slice(3);
  if (rest[0] === "parameters" && /^\d+$/.test(rest[1] ?? "")) {
    const p = resolvePointer(doc, `/paths/${escapeToken(path)}/${method}/parameters/${rest[1]}`) as Obj | undefined;
    rest = ["parameters", String(p?.in ?? ""), String(p?.name ?? ""), ...rest.slice(2)];
  }
  // Our rules merge allOf before comparing, so their locations have no allOf segments.
  const location = rest
    .map((s) => `/${escapeToken(s)}`)
    .join("")
    .replace(/\/allOf\/\d+(?=\/|$)/g, "");
  return { operation: `${method.toUpperCase()} ${path}`, location };
}

const keyOf = (method: string, path: string): string => operationKey(`${method.toUpperCase()} ${path}`);

/** Everything an operation depends on: itself, its path item's parameters and every component it reaches. */
function signature(doc: Obj, pathItem: Obj, op: Obj): string {
  const refs = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    if (!isObj(node)) return;
    if (typeof node.$ref === "string" && node.$ref.startsWith("#") && !refs.has(node.$ref)) {
      refs.add(node.$ref);
      walk(resolvePointer(doc, node.$ref.slice(1)));
    }
    Object.values(node).forEach(walk);
  };
  const own = { parameters: pathItem.parameters, op };
  walk(own);
  const components = [...refs].sort().map((r) => `${r}=${JSON.stringify(resolvePointer(doc, r.slice(1)))}`);
  return [JSON.stringify(own), ...components].join("\n");
}

/** Operation keys whose content (including referenced components) differs, or that exist on one side only. */
function changedOperations(base: Obj, head: Obj): Set<string> {
  const signatures = (doc: Obj) =>
    new Map(listOperations(doc).map((o) => [keyOf(o.method, o.path), signature(doc, o.pathItem, o.operation)]));
  const b = signatures(base);
  const h = signatures(head);
  return new Set([...new Set([...b.keys(), ...h.keys()])].filter((k) => b.get(k) !== h.get(k)));
}

/** A copy of the document keeping only the given operations (components are kept whole). */
function onlyOperations(doc: Obj, keys: Set<string>): Obj {
  const paths: Obj = {};
  for (const { path, pathItem } of listOperations(doc)) {
    const item = { ...pathItem };
    for (const method of HTTP_METHODS) if (!keys.has(keyOf(method, path))) delete item[method];
    if (HTTP_METHODS.some((m) => m in item)) paths[path] = item;
  }
  return { ...doc, paths };
}

/**
 * Runs Optic's breaking-changes ruleset in-process. Optic's rule runner is slow on large documents
 * (about 10 s of CPU for the whole Talent Graph spec), so it only sees the operations that differ.
 */
export async function runOptic(baseDoc: Obj, headDoc: Obj): Promise<OpticHit[]> {
  const changed = changedOperations(baseDoc, headDoc);
  if (changed.size === 0) return [];
  process.env.OPTIC_TELEMETRY_LEVEL ??= "off";
  const [io, utils, { RuleRunner }, { BreakingChangesRuleset }] = await Promise.all([
    import("@useoptic/openapi-io"),
    import("@useoptic/openapi-utilities"),
    import("@useoptic/rulesets-base"),
    import("@useoptic/standard-rulesets"),
  ]);
  // Optic reads files (its sourcemap needs an absolute path).
  const workDir = await mkdtemp(join(tmpdir(), "breaking-optic-"));
  const load = async (doc: Obj, side: string) => {
    const file = join(workDir, `${side}.json`);
    await writeFile(file, JSON.stringify(onlyOperations(doc, changed)));
    const parsed = await io.parseOpenAPIWithSourcemap(file);
    const version = io.checkOpenAPIVersion(parsed.jsonLike);
    const flat = io.denormalize(parsed, version, []);
    type Input = Parameters<typeof utils.compareSpecs>[0];
    return { ...flat, jsonLike: flat.jsonLike as Input["jsonLike"], isEmptySpec: false };
  };
  const [base, head] = await Promise.all([load(baseDoc, "base"), load(headDoc, "head")]).finally(() =>
    rm(workDir, { recursive: true, force: true }),
  );
  const runner = new RuleRunner([new BreakingChangesRuleset()]);
  const { results } = await utils.compareSpecs(base, head, runner, {});
  return results
    .filter((r) => !r.passed && !r.exempted)
    .map((r) => {
      const where = opticLocation(r.location.jsonPath, r.location.spec === "before" ? base.jsonLike : head.jsonLike);
      return {
        operationKey: where.operation && operationKey(where.operation),
        operation: where.operation,
        location: where.location,
        rule: r.name,
        message: r.error ?? r.where,
      };
    });
}

const related = (a: string, b: string): boolean =>
  a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`) || a === "" || b === "";

/**
 * Marks our findings that Optic also flagged, and adds Optic findings our rules did not make.
 * Where our policy explicitly rated the same spot non-breaking, the policy wins (the hit is kept as a note).
 */
export function mergeOptic(changes: Change[], hits: OpticHit[]): { changes: Change[]; notes: string[] } {
  const merged = changes.map((c) => ({ ...c }));
  const notes: string[] = [];
  for (const hit of hits) {
    const near = merged.filter(
      (c) =>
        c.rule !== OPTIC_RULE && operationKey(c.operation) === hit.operationKey && related(c.location, hit.location),
    );
    const breaking = near.filter((c) => c.breaking);
    if (breaking.length > 0) {
      for (const c of breaking) c.optic ??= hit.rule;
    } else if (near.length > 0) {
      notes.push(
        `Optic flagged ${hit.operation} ${hit.location} (${hit.rule}: ${hit.message}); our policy rates it non-breaking (${near.map((c) => c.rule).join(", ")}).`,
      );
    } else {
      merged.push({
        rule: OPTIC_RULE,
        breaking: true,
        operation: hit.operation || "(document)",
        operationId: undefined,
        location: hit.location,
        message: `${hit.rule}: ${hit.message}`,
        why: "flagged by Optic's breaking-changes ruleset",
        optic: hit.rule,
      });
    }
  }
  return { changes: merged, notes };
}
