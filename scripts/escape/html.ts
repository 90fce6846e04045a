/**
 * HTML from text a pull request controls, escaped by context: element text and quoted attribute values
 * (`escapeHtml`), and a URL fragment inside a quoted `href` (`fragmentHref`). Control characters are shown as
 * `\xNN` (they are invalid in HTML and in XML, and a carriage return would end a line of Markdown around it).
 */
import { showControls } from "./controls.js";

/** Text for an element or a double- or single-quoted attribute value. */
export function escapeHtml(text: string): string {
  return showControls(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** `#<id>` for an `href`, the id percent-encoded (the browser decodes it to match `id="<id>"`) and escaped. */
export function fragmentHref(id: string): string {
  return `#${escapeHtml(encodeURIComponent(id).replace(/%2F/gi, "/"))}`;
}
