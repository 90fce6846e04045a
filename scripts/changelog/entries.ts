/**
 * Changelog entries: for each revision that changed the bundled contract, the differ's changes classified
 * (breaking, non-breaking, deprecation, description-only), with the reviewed reason of each breaking one, the
 * values before and after, and what each touches. Revisions whose bundle equals the previous one give no entry.
 */
import { type Obj, deref, isObj, resolvePointer, unescapeToken } from "../../contract-core/index.js";
import { type Change, detectChanges, operationKey } from "../breaking/breaking.js";
import { applyMarkers, isMajorBump, markerMatches, parseMarkers } from "../gate/breaking-markers.js";
import { MARKER_FILE, type Revision, canonical } from "./history.js";
import { entryTitle, operationSummaries } from "./titles.js";
import { type Touches, mergeTouches, touchesOf } from "./touches.js";

export type Kind = "breaking" | "non-breaking" | "deprecation" | "description";
export const KINDS: readonly Kind[] = ["breaking", "non-breaking", "deprecation", "description"];

export interface EntryChange extends Change {
  kind: Kind;
  /** Every operation the change reaches (a change inside a shared component reaches several), this one first. */
  operations: { operation: string; operationId: string | undefined }[];
  /** For a breaking change: what accepted it (the BREAKING.md entry's reason, or the major version bump). */
  accepted?: string;
  /** For a breaking change: what a client must do (the `Migration:` line of its spec/BREAKING.md entry). */
  migration?: string;
  /** The changed element before and after, as compact JSON (absent when it did not exist). */
  before?: string;
  after?: string;
  touches: Touches;
}

export interface Entry {
  /** The commit, or undefined for the working tree's uncommitted change. */
  sha?: string;
  date: string;
  subject: string;
  versionBefore?: string;
  versionAfter?: string;
  /** The contract's first revision: every operation is new. */
  first: boolean;
  /** What changed in the API's words (titles.ts): never the commit subject. */
  title: string;
  changes: EntryChange[];
  /** The release holding the entry (`1.2.0`), undefined while unreleased; set by the changelog's history walk. */
  release?: string;
}

const kindOf = (c: Change): Kind =>
  c.breaking
    ? "breaking"
    : c.rule === "deprecated"
      ? "deprecation"
      : c.rule === "description-changed" || c.rule === "annotation-changed" || c.rule === "example-changed"
        ? "description"
        : "non-breaking";

const versionOf = (doc: Obj | undefined): string | undefined => {
  const info = doc?.info;
  return isObj(info) && typeof info.version === "string" ? info.version : undefined;
};

const MAX_VALUE = 240;
const compact = (value: unknown): string | undefined => {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
};

/** The element at a change's location (relative to its operation, parameters named by place and name). */
function elementAt(doc: Obj | undefined, change: Change): unknown {
  if (!doc) return undefined;
  if (change.component) {
    const target = resolvePointer(doc, change.component.slice(1));
    return target === undefined ? undefined : resolveShallow(doc, target);
  }
  const segs = change.location === "" ? [] : change.location.split("/").slice(1).map(unescapeToken);
  const paths = isObj(doc.paths) ? doc.paths : {};
  const key = operationKey(change.operation);
  let node: unknown;
  let pathItem: Obj | undefined;
  for (const [path, raw] of Object.entries(paths)) {
    const item = deref<Obj>(doc, raw);
    const [method = ""] = change.operation.split(" ");
    if (isObj(item) && operationKey(`${method} ${path}`) === key) {
      node = item[method.toLowerCase()];
      pathItem = item;
    }
  }
  for (let i = 0; i < segs.length && node !== undefined; i += 1) {
    const seg = segs[i] ?? "";
    const current = deref<unknown>(doc, node);
    if (seg === "parameters" && isObj(current)) {
      const [where, name] = [segs[i + 1], segs[i + 2]];
      const all = [...(Array.isArray(pathItem?.parameters) ? pathItem.parameters : [])];
      all.push(...(Array.isArray(current.parameters) ? current.parameters : []));
      node = all.map((p) => deref<Obj>(doc, p)).find((p) => isObj(p) && p.in === where && p.name === name);
      i += 2;
    } else node = isObj(current) || Array.isArray(current) ? (current as Obj)[seg] : undefined;
  }
  return node === undefined ? undefined : resolveShallow(doc, node);
}

/** The node with its own `$ref` followed (nested ones are left as references, which keeps values short). */
const resolveShallow = (doc: Obj, node: unknown): unknown => deref(doc, node, { mergeSiblings: true });

/**
 * The entry a revision adds after `before` (the previous revision with a spec, or undefined before the first),
 * or undefined when it changed nothing the policy classifies (the same bundle, or only examples, extensions or
 * the version: no change a client sees, so no entry). A breaking change is accepted by the revision's own
 * spec/BREAKING.md (or a major bump); its reason is worded as in `reviewed` (the newest BREAKING.md) when that
 * still has the entry, else as the revision's.
 */
export function entryOf(
  before: Revision | undefined,
  after: Revision,
  subject: string,
  date: string,
  reviewed = "",
): Entry | undefined {
  if (!after.doc) return undefined;
  if (before?.doc && (before.doc === after.doc || canonical(before.doc) === canonical(after.doc))) return undefined;
  const empty = { openapi: after.doc.openapi, info: {}, paths: {} };
  const changes = detectChanges(before?.doc ?? empty, after.doc);
  const markers = parseMarkers(after.files.get(MARKER_FILE) ?? "");
  const { accepted } = applyMarkers(
    changes.filter((c) => c.breaking),
    markers.entries,
    isMajorBump(versionOf(before?.doc), versionOf(after.doc)),
  );
  const newest = parseMarkers(reviewed).entries;
  const reasons = new Map(
    accepted.map(({ change }) => {
      // The entry that accepted it (as the gate finds it), worded as the newest BREAKING.md words it.
      const entry =
        newest.find((e) => markerMatches(e, change)) ?? markers.entries.find((e) => markerMatches(e, change));
      const bump = `major version bump ${versionOf(before?.doc) ?? "?"} → ${versionOf(after.doc) ?? "?"}`;
      return [change, entry ? entry.reason : bump] as const;
    }),
  );
  // The migration line: the newest BREAKING.md's wording when it still has one, else the revision's.
  const migrations = new Map(
    changes
      .filter((c) => c.breaking)
      .map((c) => [
        c,
        newest.find((e) => e.migration && markerMatches(e, c))?.migration ??
          markers.entries.find((e) => e.migration && markerMatches(e, c))?.migration,
      ]),
  );
  // One change inside a shared component shows once, with every operation it reaches.
  const groups = new Map<string, Change[]>();
  for (const c of changes) {
    const key = `${c.rule}|${c.component ?? `${c.operation}|${c.location}`}|${c.message}|${reasons.get(c) ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const entryChanges = [...groups.values()].map((group): EntryChange => {
    const c = group[0]!;
    const operations = group.map((g) => ({ operation: g.operation, operationId: g.operationId }));
    const touches = mergeTouches(group.map((g) => touchesOf(g, before, after)));
    const change: EntryChange = { ...c, kind: kindOf(c), operations, touches };
    const reason = reasons.get(c);
    if (reason) change.accepted = reason;
    const migration = migrations.get(c);
    if (migration) change.migration = migration;
    // A keyword absent on both sides (a type implied by a const) is shown through the schema holding it.
    const parent = {
      ...c,
      location: c.location.replace(/\/[^/]*$/, ""),
      component: c.component?.replace(/\/[^/]*$/, ""),
    };
    const on = (doc: Obj | undefined) =>
      elementAt(before?.doc, c) === undefined && elementAt(after.doc, c) === undefined
        ? elementAt(doc, parent)
        : elementAt(doc, c);
    const [b, a] = [compact(on(before?.doc)), compact(on(after.doc))];
    if (b !== undefined) change.before = b;
    if (a !== undefined) change.after = a;
    return change;
  });
  if (entryChanges.length === 0) return undefined;
  const first = !before?.doc;
  return {
    ...(after.commit ? { sha: after.commit.sha } : {}),
    date,
    subject,
    title: entryTitle(entryChanges, operationSummaries(before?.doc, after.doc), first),
    ...(versionOf(before?.doc) !== undefined ? { versionBefore: versionOf(before?.doc) } : {}),
    ...(versionOf(after.doc) !== undefined ? { versionAfter: versionOf(after.doc) } : {}),
    first,
    changes: entryChanges,
  };
}

/** Entries of consecutive revisions (oldest first); the first one is compared with `base` (undefined: no spec). */
export function entriesOf(base: Revision | undefined, revisions: Revision[], reviewed = ""): Entry[] {
  const entries: Entry[] = [];
  let previous = base?.doc ? base : undefined;
  for (const revision of revisions) {
    const commit = revision.commit;
    const entry = entryOf(previous, revision, commit?.subject ?? "", commit?.date ?? "", reviewed);
    if (entry) entries.push(entry);
    if (revision.doc) previous = revision;
  }
  return entries;
}
