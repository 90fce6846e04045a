/**
 * Control characters made visible: C0 (tab kept), DEL, C1 and the Unicode line and paragraph separators become
 * `\xNN` / `\uNNNN`. Text shown this way is one line, and can neither end an HTML block or a Markdown line nor
 * make a document invalid XML. For a terminal use `escapeLogText` (contract-core/request-log.ts), which also
 * doubles backslashes so an escape it wrote cannot be told apart from one in the text.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point of this module
const CONTROL = /[\0-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]/g;

export function showControls(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
  });
}
