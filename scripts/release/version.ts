/**
 * The next version from the changes since the last release, by the breaking-change policy's own classification:
 * a breaking change (or one the differ cannot classify) makes a major, an addition or any other change a client
 * can see makes a minor, description-only changes make a patch. One version for the spec's info.version and the
 * package: the URL's `/v1` is the service's and never follows it.
 */
import type { Change } from "../breaking/breaking.js";

export type Level = "major" | "minor" | "patch";

/** A change the differ could not classify counts as breaking: failing closed. */
export const isMajorChange = (c: Change): boolean => c.breaking || (c.rule as string) === "unclassified-change";
const isPatchChange = (c: Change): boolean => c.rule === "description-changed";

export interface Decision {
  level: Level;
  /** The changes that decide the level (the breaking ones for a major, the additions for a minor). */
  because: Change[];
}

/**
 * The level a set of changes needs. `bundleChanged` says the bundled contract differs where the policy classifies
 * nothing (examples, extensions): a patch. Undefined when nothing changed at all.
 */
export function levelOf(changes: Change[], bundleChanged = false): Decision | undefined {
  const major = changes.filter(isMajorChange);
  if (major.length > 0) return { level: "major", because: major };
  const minor = changes.filter((c) => !isPatchChange(c));
  if (minor.length > 0) return { level: "minor", because: minor };
  if (changes.length > 0 || bundleChanged) return { level: "patch", because: changes };
  return undefined;
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

/** `1.2.3` as numbers; undefined for anything else (pre-releases and build metadata are not used here). */
export function parseVersion(version: unknown): [number, number, number] | undefined {
  const m = typeof version === "string" ? SEMVER.exec(version) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

export function bump(version: string, level: Level): string {
  const v = parseVersion(version);
  if (!v) throw new Error(`${JSON.stringify(version)} is not a version MAJOR.MINOR.PATCH`);
  const [major, minor, patch] = v;
  if (level === "major") return `${major + 1}.0.0`;
  if (level === "minor") return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/** `response-property-removed` on getList, … (at most `max`, the rest counted). */
export function becauseText(changes: Change[], max = 3): string {
  const items = [...new Set(changes.map((c) => `\`${c.rule}\` on ${c.operationId ?? c.operation}`))];
  const shown = items.slice(0, max).join(", ");
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

export interface NextRelease {
  /** The last release's version, or undefined before the first release. */
  last?: string;
  version: string;
  /** Undefined for the first release (it is the version the spec states) or when nothing changed. */
  level?: Level;
  because: Change[];
  /** "2.0.0: `response-property-removed` on getList" */
  sentence: string;
}

/**
 * The next release after `last` (undefined: none yet, the first release is `stated`, the spec's version) given
 * the changes since `last`.
 */
export function nextRelease(
  last: string | undefined,
  stated: string,
  changes: Change[],
  bundleChanged = false,
): NextRelease {
  if (last === undefined) {
    if (!parseVersion(stated)) throw new Error(`info.version ${JSON.stringify(stated)} is not MAJOR.MINOR.PATCH`);
    return { version: stated, because: [], sentence: `${stated}: the first release (the version the spec states)` };
  }
  const decision = levelOf(changes, bundleChanged);
  if (!decision) return { last, version: last, because: [], sentence: `${last}: no change since ${last}` };
  const version = bump(last, decision.level);
  const why =
    decision.level === "patch"
      ? decision.because.length > 0
        ? "description-only changes"
        : "no change the policy classifies (examples, extensions)"
      : becauseText(decision.because);
  return { last, version, level: decision.level, because: decision.because, sentence: `${version}: ${why}` };
}

/** The line a consumer runs to install a release: the notes, the reference and the registry test use it. */
export const installLine = (name: string, version: string): string => `npm install ${name}@${version}`;
