/**
 * The gate's "changelog entries this pull request adds": the entries of the branch's first-parent commits since
 * the base, and of uncommitted spec changes, rendered by the changelog itself, so the summary shows them exactly
 * as the published changelog will.
 */
import { type Entry, entriesBetween, entryOf, renderEntry } from "../changelog/changelog.js";
import { workingRevision } from "../changelog/history.js";
import { markdownHtmlBlock, markdownText } from "../escape/markdown.js";
import type { ResolvedBase } from "./breaking-check.js";

/** The entries (oldest first) that `base..HEAD` and the working tree add to the changelog. */
export async function pendingEntries(cwd: string, baseSha: string): Promise<Entry[]> {
  const history = await entriesBetween(cwd, baseSha);
  const working = await workingRevision(cwd);
  const reviewed = working.files.get("spec/BREAKING.md") ?? "";
  const uncommitted = entryOf(history.latest, working, "Uncommitted changes", new Date().toISOString(), reviewed);
  return uncommitted ? [...history.entries, uncommitted] : history.entries;
}

/** The summary's section, or undefined when there is no base to compare with. */
export async function changelogSection(cwd: string, base: ResolvedBase): Promise<string | undefined> {
  if (!("sha" in base)) return undefined;
  let entries: Entry[];
  try {
    entries = await pendingEntries(cwd, base.sha);
  } catch (e) {
    return `### Changelog entries this pull request adds\n\nNot built: ${markdownText((e as Error).message.split("\n")[0]!)}`;
  }
  if (entries.length === 0)
    return "### Changelog entries this pull request adds\n\nNone: the bundled contract is the same as at the base.";
  // Each entry is one HTML block (its renderer escapes every text and leaves no blank line), mentions defused.
  const fragments = [...entries].reverse().map((e) => `<div>\n\n${markdownHtmlBlock(renderEntry(e))}\n\n</div>`);
  return [
    `### Changelog entries this pull request adds (${entries.length})`,
    "",
    "As the published changelog will show them, newest first:",
    "",
    ...fragments,
  ].join("\n");
}
