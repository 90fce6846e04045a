/**
 * The changelog's renderings: one HTML fragment per entry (the page, the Atom feed and the gate's summary all show
 * this same fragment), the self-contained page `changelog.html` with its index by operation, and the Atom feed.
 */
import { type Obj, isObj, listOperations } from "../../contract-core/index.js";
import { needsReview, operationKey } from "../breaking/breaking.js";
import { cspMeta, staticPagePolicy } from "../escape/csp.js";
import { escapeHtml, fragmentHref } from "../escape/html.js";
import { xmlCharacters } from "../escape/xml.js";
import type { Entry, EntryChange, Kind } from "./entries.js";
import { type ReleaseGroup, releaseAnchor, releaseHeading } from "./releases.js";
import { changeTitle, operationSummaries } from "./titles.js";

export const PAGE_FILE = "changelog.html";
export const FEED_FILE = "changelog.xml";
export const REFERENCE_FILE = "index.html";

/** Text and attribute values (control characters shown as `\xNN`): scripts/escape/html.ts. */
const esc = escapeHtml;
const code = (s: string): string => `<code>${esc(s)}</code>`;

/** The anchor of an entry on the page: `entry-<short sha>`, `entry-working-tree` for uncommitted changes. */
export const entryAnchor = (e: Entry): string => `entry-${e.sha ? e.sha.slice(0, 7) : "working-tree"}`;
/** The anchor of an operation's changes on the page; the reference's operation sections link to it. */
export const operationAnchor = (operationId: string): string => `op-${operationId}`;
/** Redoc's section id of an operation (`/<tag slug>/<operationid>`), the reference's deep link. */
export const referenceSection = (tag: string, operationId: string): string =>
  `/${tag.toLowerCase().replace(/\s+/g, "-")}/${operationId.toLowerCase()}`;

const HEADINGS: Record<Kind, string> = {
  breaking: "Breaking",
  "non-breaking": "Non-breaking additions and changes",
  deprecation: "Deprecations",
  description: "Description-only",
};

const plural = (n: number, word: string) => `${n} ${word}`;

function counts(entry: Entry, changes = entry.changes): string {
  const by = (k: Kind) => changes.filter((c) => c.kind === k).length;
  const parts = [
    by("breaking") && plural(by("breaking"), "breaking"),
    by("non-breaking") && plural(by("non-breaking"), "non-breaking"),
    by("deprecation") && plural(by("deprecation"), by("deprecation") === 1 ? "deprecation" : "deprecations"),
    by("description") && plural(by("description"), "description-only"),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "no classified change";
}

function list(label: string, items: string[], max = 8): string {
  if (items.length === 0) return "";
  const shown = items.slice(0, max).map(code).join(", ");
  return `${label} ${shown}${items.length > max ? ` and ${items.length - max} more` : ""}`;
}

const operationLink = ({ operation, operationId }: EntryChange["operations"][number]): string =>
  operationId
    ? `<a href="${fragmentHref(operationAnchor(operationId))}">${code(operation)}</a> (${code(operationId)})`
    : code(operation);

function changeItem(c: EntryChange): string {
  const [first, ...more] = c.operations.map(operationLink);
  const also = more.length > 0 ? ` (and in ${more.join(", ")})` : "";
  const lines = [`<p>${first} at ${code(c.location || "(operation)")}: ${esc(c.message)}${also}</p>`];
  if (c.component) lines.push(`<p>via ${code(c.component)}</p>`);
  if (c.kind === "breaking") {
    lines.push(`<p>Rule ${code(c.rule)}${needsReview(c) ? " (needs review)" : ""}: ${esc(c.why ?? "")}.</p>`);
    lines.push(
      c.accepted
        ? `<p>Reviewed: ${esc(c.accepted)}</p>`
        : "<p>Reviewed: no entry in spec/BREAKING.md and no major version bump accepted it.</p>",
    );
    if (c.migration) lines.push(`<p class="migration"><strong>Migration:</strong> ${esc(c.migration)}</p>`);
  } else lines.push(`<p>Rule ${code(c.rule)}</p>`);
  if (c.before !== undefined || c.after !== undefined)
    lines.push(`<p>Before ${code(c.before ?? "(absent)")} → after ${code(c.after ?? "(absent)")}</p>`);
  if (c.kind !== "description") {
    const t = c.touches;
    const parts = [
      list("examples", t.examples),
      list("workflow steps", t.steps),
      list("recordings", t.recordings, 4),
      list("typed client", t.client),
      list("consumers", t.consumers ?? []),
    ].filter(Boolean);
    lines.push(`<p>Touches: ${parts.join("; ")}</p>`);
  }
  return `<li>${lines.join("")}</li>`;
}

/** One entry as an HTML fragment: the same markup on the page, in the feed and in the gate's summary. */
export function renderEntry(entry: Entry): string {
  const when = entry.date.slice(0, 10);
  const version =
    entry.versionBefore === undefined
      ? `<strong>info.version</strong> ${code(entry.versionAfter ?? "?")} (the contract's first version)`
      : `<strong>info.version</strong> ${code(entry.versionBefore)} → ${code(entry.versionAfter ?? "?")}`;
  const commit = `${esc(when)} · ${entry.sha ? `commit ${code(entry.sha.slice(0, 7))}` : "uncommitted changes"}`;
  const out = [
    `<h3 id="${esc(entryAnchor(entry))}">${esc(entry.title)}</h3>`,
    `<p>${version} · ${commit} · ${esc(counts(entry))}</p>`,
  ];
  for (const kind of ["breaking", "non-breaking", "deprecation"] as const) {
    const changes = entry.changes.filter((c) => c.kind === kind);
    if (changes.length === 0) continue;
    out.push(`<h4>${HEADINGS[kind]} (${changes.length})</h4>`, `<ul>${changes.map(changeItem).join("")}</ul>`);
  }
  const descriptions = entry.changes.filter((c) => c.kind === "description");
  if (descriptions.length > 0)
    out.push(
      `<details><summary>${HEADINGS.description} (${descriptions.length})</summary>`,
      `<ul>${descriptions.map(changeItem).join("")}</ul></details>`,
    );
  return out.join("\n");
}

interface OperationInfo {
  operationId: string;
  operation: string;
  tag?: string;
}

const touchesOperation = (c: EntryChange, op: OperationInfo): boolean =>
  c.operations.some(
    (o) => o.operationId === op.operationId || operationKey(o.operation) === operationKey(op.operation),
  );

/**
 * Every operation of the newest contract (the reference links each one here), then the removed ones with
 * changes, each with its entries.
 */
function operationsIndex(entries: Entry[], latest: Obj | undefined): { op: OperationInfo; entries: Entry[] }[] {
  const ops = new Map<string, OperationInfo>();
  for (const { method, path, operation } of listOperations(latest ?? {})) {
    if (typeof operation.operationId !== "string") continue;
    const tag = Array.isArray(operation.tags) && typeof operation.tags[0] === "string" ? operation.tags[0] : undefined;
    const display = `${method.toUpperCase()} ${path}`;
    ops.set(operation.operationId, { operationId: operation.operationId, operation: display, ...(tag ? { tag } : {}) });
  }
  for (const e of entries)
    for (const o of e.changes.flatMap((c) => c.operations))
      if (o.operationId && !ops.has(o.operationId))
        ops.set(o.operationId, { operationId: o.operationId, operation: o.operation });
  return [...ops.values()]
    .map((op) => ({
      op,
      entries: entries.filter((e) => e.changes.some((c) => touchesOperation(c, op))),
    }))
    .filter((o) => o.op.tag !== undefined || o.entries.length > 0);
}

const PAGE_STYLES = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; color: #1f2328; background: #fff; line-height: 1.5; }
  header, main { max-width: 1080px; margin: 0 auto; padding: 0 24px; box-sizing: border-box; }
  header { padding-top: 24px; border-bottom: 1px solid #d0d7de; }
  h1 { font-size: 28px; margin: 0 0 8px; }
  h2 { font-size: 20px; margin: 32px 0 4px; }
  h3 { font-size: 16px; margin: 16px 0 4px; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; background: #f6f8fa;
    padding: 1px 4px; border-radius: 4px; overflow-wrap: anywhere; word-break: break-word; }
  p, li, summary { overflow-wrap: anywhere; }
  ul { padding-left: 20px; }
  li { margin: 8px 0; }
  li p { margin: 2px 0; }
  .operations { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 12px; }
  .operation { border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 12px; min-width: 0; }
  .operation h3 { margin: 0; font-size: 14px; }
  .operation ul { margin: 4px 0 0; }
  .operation li { margin: 2px 0; }
  .operation:target, .entry:target { outline: 3px solid #0969da; outline-offset: 4px; }
  .entry { border-top: 1px solid #d0d7de; margin-top: 24px; }
  details { margin: 8px 0; }
  summary { cursor: pointer; font-weight: 600; }
`;

/** At most this many of an operation's changes per release in its index card; the rest are counted. */
const MAX_OPERATION_CHANGES = 6;

/** One operation's changes, release by release (newest first), each linked to its entry. */
function operationChanges(op: OperationInfo, groups: ReleaseGroup[], summaries: Map<string, string>): string {
  const parts: string[] = [];
  for (const group of groups) {
    const items: string[] = [];
    for (const e of group.entries) {
      const here = e.changes.filter((c) => touchesOperation(c, op));
      if (here.length === 0) continue;
      if (e.first) {
        items.push(`<li><a href="${fragmentHref(entryAnchor(e))}">added in the contract's first version</a></li>`);
        continue;
      }
      for (const c of here) {
        const title = esc(c.kind === "breaking" ? `Breaking: ${c.message}` : c.message);
        items.push(
          `<li><a href="${fragmentHref(entryAnchor(e))}" title="${esc(changeTitle(c, summaries))}">${title}</a></li>`,
        );
      }
    }
    if (items.length === 0) continue;
    const shown = items.slice(0, MAX_OPERATION_CHANGES).join("");
    const more =
      items.length > MAX_OPERATION_CHANGES ? `<li>and ${items.length - MAX_OPERATION_CHANGES} more</li>` : "";
    const label = group.version ?? "Unreleased";
    parts.push(`<h4><a href="${fragmentHref(releaseAnchor(group))}">${esc(label)}</a></h4><ul>${shown}${more}</ul>`);
  }
  return parts.join("");
}

/** Everything unreleased in one group, when the history is not grouped by release. */
const ungrouped = (entries: Entry[]): ReleaseGroup[] => [{ first: false, entries: [...entries].reverse() }];

/**
 * The self-contained page: an index of every operation's changes by release, then the releases, newest first
 * ("Unreleased" on top), each with its entries.
 */
export function renderPage(
  entries: Entry[],
  latest: Obj | undefined,
  note?: string,
  groups: ReleaseGroup[] = ungrouped(entries),
): string {
  const newestFirst = [...entries].reverse();
  const summaries = operationSummaries(latest);
  const title = `${isObj(latest?.info) && typeof latest.info.title === "string" ? latest.info.title : "API"} changelog`;
  const index = operationsIndex(newestFirst, latest).map(({ op, entries: opEntries }) => {
    const back = op.tag
      ? `<a class="reference-link" href="${REFERENCE_FILE}${fragmentHref(referenceSection(op.tag, op.operationId))}">In the reference</a>`
      : "removed from the contract";
    const changes = opEntries.length > 0 ? operationChanges(op, groups, summaries) : "";
    const list = changes || "<p>No change in the history this changelog covers.</p>";
    return (
      `<section class="operation" id="${esc(operationAnchor(op.operationId))}">` +
      `<h3>${code(op.operation)} ${code(op.operationId)}</h3><p>${back}</p>${list}</section>`
    );
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
${cspMeta(staticPagePolicy([PAGE_STYLES]))}
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${esc(title)}</title>
<link rel="icon" href="data:," />
<link rel="alternate" type="application/atom+xml" href="${FEED_FILE}" title="${esc(title)}" />
<style>${PAGE_STYLES}</style>
</head>
<body>
<header>
<h1>${esc(title)}</h1>
<p>Every change of the contract by release, newest first, classified by the breaking-change policy. The version is the contract's and its package's; the URL's <code>/v1</code> is the service's and does not change with it. <a href="${REFERENCE_FILE}">API reference</a> · <a href="${FEED_FILE}">Atom feed</a></p>
${note ? `<p class="note">${esc(note)}</p>\n` : ""}</header>
<main>
<h2 id="operations">Changes by operation</h2>
<div class="operations">
${index.join("\n")}
</div>
${groups.map(renderRelease).join("\n")}
</main>
</body>
</html>
`;
}

/** A release's section: its heading, then its entries (newest first). */
function renderRelease(group: ReleaseGroup): string {
  const body =
    group.entries.length > 0
      ? group.entries.map((e) => `<article class="entry">\n${renderEntry(e)}\n</article>`).join("\n")
      : "<p>No change to the contract yet.</p>";
  return `<section class="release" id="${esc(releaseAnchor(group))}">\n<h2>${esc(releaseHeading(group))}</h2>\n${body}\n</section>`;
}

const FEED_ID = "urn:talent-graph-api-contract:changelog";

/**
 * The Atom feed (RFC 4287): one entry per change set, newest first, each with the entry's HTML as its content
 * (its `#op-...` links resolve against the page, through xml:base).
 */
export function renderFeed(
  entries: Entry[],
  latest: Obj | undefined,
  pageUrl = PAGE_FILE,
  groups: ReleaseGroup[] = ungrouped(entries),
): string {
  const newestFirst = [...entries].reverse();
  const title = `${isObj(latest?.info) && typeof latest.info.title === "string" ? latest.info.title : "API"} changelog`;
  const updated = newestFirst[0]?.date ?? new Date(0).toISOString();
  // One Atom entry per release ("Unreleased" while it holds changes), its content the release's entries.
  const items = groups
    .filter((g) => g.entries.length > 0)
    .map((g) => {
      const all = { ...g.entries[0]!, changes: g.entries.flatMap((e) => e.changes) };
      return `  <entry>
    <id>${FEED_ID}:release:${esc(g.version ?? "unreleased")}</id>
    <title>${esc(releaseHeading(g))}</title>
    <updated>${esc(g.version && g.date ? g.date : g.entries[0]!.date)}</updated>
    <link rel="alternate" type="text/html" href="${esc(`${pageUrl}#${releaseAnchor(g)}`)}" />
    <summary>${esc(counts(all))}</summary>
    <content type="html" xml:base="${esc(pageUrl)}">${esc(g.entries.map(renderEntry).join("\n"))}</content>
  </entry>`;
    });
  // Every character of the feed is one XML 1.0 allows: a stray one would make the whole feed unreadable.
  return xmlCharacters(`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${FEED_ID}</id>
  <title>${esc(title)}</title>
  <updated>${esc(updated)}</updated>
  <author><name>Talent Graph API contract</name></author>
  <link rel="alternate" type="text/html" href="${esc(pageUrl)}" />
  <link rel="self" type="application/atom+xml" href="${FEED_FILE}" />
${items.join("\n")}
</feed>
`);
}
