/**
 * Reviewed markers for intended breaking changes: entries under "## Entries" in spec/BREAKING.md (see that
 * file's header) and a major bump of info.version. A breaking change passes the gate only through one of them.
 */
import { type Change, operationKey } from "../breaking/breaking.js";

export interface MarkerEntry {
  line: number;
  rule: string;
  operation: string;
  location: string;
  reason: string;
  /** What a client must do, the text after `Migration:` in the reason (required for a major release). */
  migration?: string;
}

const PLACEHOLDER = "<why this is intended";
const ENTRY_FORMAT = "- `<rule>` `<operationId | METHOD /path | *>` `<location | #/components/... pointer>` <reason>";

/**
 * Parses the list items under the "## Entries" heading of spec/BREAKING.md. Each item holds three
 * code spans (rule, operation, location) followed by a non-empty reason. Malformed items are errors,
 * so that a typo never silently fails to mark (or silently marks) a change.
 */
export function parseMarkers(text: string): { entries: MarkerEntry[]; errors: string[] } {
  const entries: MarkerEntry[] = [];
  const errors: string[] = [];
  let inEntries = false;
  let inFence = false;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trimEnd();
    if (/^\s*```/.test(line)) inFence = !inFence;
    if (inFence) return;
    if (/^##\s/.test(line)) inEntries = /^##\s+Entries\s*$/i.test(line);
    if (!inEntries || !/^\s*[-*]\s/.test(line)) return;
    const spans = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
    const last = line.lastIndexOf("`");
    const reason = line
      .slice(last + 1)
      .replace(/^[\s—–:-]+/, "")
      .trim();
    const [rule, operation, location] = spans;
    if (
      spans.length !== 3 ||
      !rule ||
      !operation ||
      location === undefined ||
      !(location.startsWith("/") || location.startsWith("#/") || location === "(operation)")
    ) {
      errors.push(`line ${i + 1}: expected ${ENTRY_FORMAT}`);
    } else if (reason === "" || reason.startsWith(PLACEHOLDER)) {
      errors.push(`line ${i + 1}: the entry needs a reason after the location (replace the placeholder)`);
    } else {
      const at = /\s*\bMigration:\s*/i.exec(reason);
      const migration = at ? reason.slice(at.index + at[0].length).trim() : "";
      const why = at ? reason.slice(0, at.index).trim() : reason;
      const where = location === "(operation)" ? "" : location;
      entries.push({
        line: i + 1,
        rule,
        operation,
        location: where,
        reason: why || reason,
        ...(migration ? { migration } : {}),
      });
    }
  });
  return { entries, errors };
}

/** The precise matching rule: same rule id, same operation, same location (or same component pointer). */
export function markerMatches(entry: MarkerEntry, change: Change): boolean {
  const operation =
    entry.operation === "*" ||
    entry.operation === change.operationId ||
    operationKey(entry.operation) === operationKey(change.operation);
  const location = entry.location.startsWith("#/")
    ? entry.location === change.component
    : entry.location === change.location;
  return entry.rule === change.rule && operation && location;
}

export function markerLine(change: Change): string {
  const operation = change.operationId ?? change.operation;
  // A change outside any operation (a server, an unused component) is named by its document pointer.
  const location = change.location || (change.operation === "(document)" && change.component) || "(operation)";
  return `- \`${change.rule}\` \`${operation}\` \`${location}\` — ${PLACEHOLDER}, PR link>`;
}

/** Ready-to-paste entries: one per change, or one `*` component entry when a component change shows up in several places. */
export function markerLines(changes: Change[]): string[] {
  const byComponent = new Map<string, Change[]>();
  for (const c of changes)
    if (c.component)
      byComponent.set(`${c.rule} ${c.component}`, [...(byComponent.get(`${c.rule} ${c.component}`) ?? []), c]);
  const lines: string[] = [];
  for (const c of changes) {
    const group = c.component ? (byComponent.get(`${c.rule} ${c.component}`) ?? []) : [];
    if (group.length < 2) lines.push(markerLine(c));
    else if (group[0] === c) lines.push(`- \`${c.rule}\` \`*\` \`${c.component}\` — ${PLACEHOLDER}, PR link>`);
  }
  return lines;
}

/**
 * Splits breaking changes into those a marker accepts (a BREAKING.md entry first, else a major bump) and the
 * blocking rest. An entry that matches no change is not reported: it is harmless, and is removed once released.
 */
export function applyMarkers(
  breaking: Change[],
  entries: MarkerEntry[],
  majorBump: boolean,
): { accepted: { change: Change; by: string }[]; blocking: Change[] } {
  const accepted: { change: Change; by: string }[] = [];
  const blocking: Change[] = [];
  for (const change of breaking) {
    const entry = entries.find((e) => markerMatches(e, change));
    if (entry) accepted.push({ change, by: `spec/BREAKING.md line ${entry.line}` });
    else if (majorBump) accepted.push({ change, by: "major version bump" });
    else blocking.push(change);
  }
  return { accepted, blocking };
}

const major = (version: unknown): number | undefined => {
  const m = typeof version === "string" ? /^v?(\d+)(\.|$)/.exec(version.trim()) : null;
  return m ? Number(m[1]) : undefined;
};

export function isMajorBump(baseVersion: unknown, headVersion: unknown): boolean {
  const b = major(baseVersion);
  const h = major(headVersion);
  return b !== undefined && h !== undefined && h > b;
}
