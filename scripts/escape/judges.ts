/**
 * The parsers the tests judge escaped output with, as its readers parse it: saxes, a strict XML 1.0 parser (a
 * feed reader refuses what it refuses), and commonmark 0.31, which parses Markdown as GitHub's job summary does
 * for headings and HTML blocks. Used by tests only (devDependencies).
 */
import { HtmlRenderer, Parser } from "commonmark";
import { SaxesParser } from "saxes";

/** The elements of an XML document, read by saxes (strict XML 1.0: a character XML forbids is an error). */
export function strictXml(text: string): { name: string; text: string }[] {
  const parser = new SaxesParser();
  const elements: { name: string; text: string }[] = [];
  const open: { name: string; text: string }[] = [];
  parser.on("opentag", (tag) => open.push({ name: tag.name, text: "" }));
  parser.on("text", (t) => {
    if (open.length > 0) open[open.length - 1]!.text += t;
  });
  parser.on("closetag", () => elements.push(open.pop()!));
  parser.on("error", (e) => {
    throw e;
  });
  parser.write(text).close();
  return elements;
}

/** Headings, images, raw HTML and text of Markdown as CommonMark parses it (GitHub's job summary does the same). */
export function markdownStructure(markdown: string) {
  const tree = new Parser().parse(markdown);
  const walker = tree.walker();
  const headings: string[] = [];
  const html: string[] = [];
  let images = 0;
  let text = "";
  let heading: string | undefined;
  for (let step = walker.next(); step; step = walker.next()) {
    const { node, entering } = step;
    if (node.type === "heading") {
      if (entering) heading = "";
      else {
        headings.push(`${"#".repeat(node.level)} ${heading ?? ""}`);
        heading = undefined;
      }
    } else if (entering && (node.type === "text" || node.type === "code")) {
      if (heading !== undefined) heading += node.literal ?? "";
      // Text nodes run on (commonmark splits them at entities and escapes); code is where GitHub links nothing.
      if (node.type === "text") text += node.literal ?? "";
    } else if (!entering && node.type === "paragraph") text += "\n";
    else if (entering && (node.type === "html_block" || node.type === "html_inline")) html.push(node.literal ?? "");
    else if (entering && node.type === "image") images += 1;
  }
  return { headings, html, images, text, rendered: new HtmlRenderer().render(tree) };
}
