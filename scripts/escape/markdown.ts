/**
 * Text from a pull request (commit subjects, BREAKING.md reasons, spec names, trace quotes) put into the gate's
 * Markdown summary. Each function returns Markdown that shows the text as written and starts nothing: no
 * heading, list, quote, table row, HTML, link or image, no `@mention`, and no line of its own (so no
 * `::command::` line the Actions runner would obey). Our own lines start with our own markup; these keep the
 * text inside them.
 */
import { showControls } from "./controls.js";

/**
 * Characters that open inline structure: HTML and autolinks (`<`), links and images (`[`), code (a backtick),
 * table cells (`|`), entities (`&`, which could spell `&#64;` or `&lt;`) and escapes (a backslash). Emphasis
 * (`*`, `_`, `~`) is left as typed: it starts no block and keeps names like `person_id` readable in the log.
 */
const INLINE = /[\\`<[|&]/g;

/** `@name` would notify `name` on GitHub: a zero-width space after the `@` keeps the text and drops the mention. */
const defuseMentions = (markdown: string): string => markdown.replaceAll("@", "@&#8203;");

/**
 * Plain text for inside one line or one table cell: control characters (line breaks included) shown as `\xNN`,
 * the characters that open inline structure backslash-escaped, mentions defused.
 */
export function markdownText(text: string): string {
  return defuseMentions(showControls(text).replace(INLINE, (c) => `\\${c}`));
}

/**
 * A code span of `text` for inside one line or one table cell: control characters shown as `\xNN` and
 * backticks (which would end the span) shown as `'`. In a table cell (`table: true`) `|` is escaped too: the
 * table would split the cell there, and GitHub removes that backslash inside code.
 */
export function markdownCode(text: string, { table = false } = {}): string {
  let body = showControls(text).replaceAll("`", "'");
  if (table) body = body.replaceAll("|", "\\|");
  return `\`${body.startsWith(" ") || body.endsWith(" ") ? ` ${body} ` : body}\``;
}

/**
 * An HTML fragment (every text and attribute in it HTML-escaped, one tag per line and no blank line) made safe to
 * embed in Markdown as one HTML block: control characters are already escaped by its renderer, so the block
 * cannot end early; mentions are defused.
 */
export function markdownHtmlBlock(html: string): string {
  if (/\n[ \t]*\n|\r|[\u2028\u2029]/.test(html))
    throw new Error("an HTML block for Markdown must not hold a blank line");
  return defuseMentions(html);
}
