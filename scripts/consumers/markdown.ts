/**
 * Text from a consumer contract (a consumer's name, a field, an operation) as inert Markdown: the characters that
 * open emphasis, code, links, headings, lists, strikethrough or a table column are backslash-escaped (a list
 * marker or an ordered number only at the start), `<`, `>` and `&` become entities and line breaks a space, so a
 * name never adds a column, a link, an HTML tag or a heading to the gate's summary.
 */
export function markdownText(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\\`*_[\]#+!|~]/g, "\\$&")
    .replace(/^[-=]/, "\\$&")
    .replace(/^(\d+)([.)])/, "$1\\$2");
}
