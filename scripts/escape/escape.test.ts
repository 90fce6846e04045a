/**
 * The escaping of pull-request text, one context at a time, with the payloads of a hostile pull request:
 * Markdown text and code spans start nothing when CommonMark parses the line around them; HTML text,
 * attributes and fragments keep their element; the XML filter leaves only characters a strict XML 1.0 parser
 * (saxes) accepts; control characters are shown, not sent.
 */
import { Parser } from "commonmark";
import { SaxesParser } from "saxes";
import { describe, expect, it } from "vitest";
import { escapeHtml, fragmentHref } from "./html.js";
import { markdownCode, markdownHtmlBlock, markdownText } from "./markdown.js";
import { xmlCharacters } from "./xml.js";

const PAYLOADS = [
  "CR\r\r## ✔ passed",
  "line\n\n## ✔ Contract gate: passed",
  "a\n- forged item",
  "<img src=x onerror=alert(1)>",
  "![tracker](https://example.com/p.png)",
  "[click](javascript:alert(1))",
  "@someone",
  "::error::forged",
  "x\n::error::forged",
  "`code` | cell | split",
  "\x1b[32m✔ ready\x1b[0m",
  "a\u2028b",
];

/** The node types CommonMark makes of `markdown`, the document and its first paragraph left out. */
function nodeTypes(markdown: string): string[] {
  const walker = new Parser().parse(markdown).walker();
  const types: string[] = [];
  for (let step = walker.next(); step; step = walker.next()) if (step.entering) types.push(step.node.type);
  return types;
}

describe("Markdown", () => {
  it("text and code spans inside a line of ours start no block, HTML, link, image or emphasis", () => {
    for (const payload of PAYLOADS)
      for (const inline of [markdownText(payload), markdownCode(payload)]) {
        const line = `- Note: ${inline} (end)`;
        expect(line).not.toMatch(/[\r\n\u2028\u2029]/);
        const types = nodeTypes(line);
        expect(types.filter((t) => !["text", "code", "softbreak"].includes(t))).toEqual([
          "document",
          "list",
          "item",
          "paragraph",
        ]);
      }
  });

  it("a table cell of ours stays one cell", () => {
    const row = `| ${markdownText("a | b")} | ${markdownCode("c | d", { table: true })} |`;
    expect(row.split(/(?<!\\)\|/)).toHaveLength(4);
  });

  it("defuses mentions in text, keeps code spans as written", () => {
    expect(markdownText("@someone")).toBe("@&#8203;someone");
    expect(markdownCode("@someone")).toBe("`@someone`");
    expect(markdownCode("a`b")).toBe("`a'b`");
  });

  it("refuses an HTML block with a blank line in it, which would end the block (negative)", () => {
    expect(() => markdownHtmlBlock("<p>a</p>\n\n<p>## b</p>")).toThrow(/blank line/);
    expect(() => markdownHtmlBlock("<p>a\r\r## b</p>")).toThrow(/blank line/);
    expect(markdownHtmlBlock("<p>@someone</p>")).toBe("<p>@&#8203;someone</p>");
  });
});

describe("HTML", () => {
  it("escapes text and attribute values, and shows control characters", () => {
    expect(escapeHtml(`"><img src=x onerror=alert(1)>'`)).toBe("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;");
    expect(escapeHtml("CR\r\r\x01")).toBe("CR\\x0d\\x0d\\x01");
  });

  it("percent-encodes a fragment for href=", () => {
    expect(fragmentHref('op-x"><script>')).toBe("#op-x%22%3E%3Cscript%3E");
    expect(fragmentHref("/lists/listlists")).toBe("#/lists/listlists");
  });
});

describe("XML", () => {
  const strict = (xml: string) => {
    const parser = new SaxesParser();
    parser.on("error", (e) => {
      throw e;
    });
    parser.write(xml).close();
  };

  it("the strict parser refuses what XML 1.0 forbids, which the filter replaces visibly", () => {
    for (const bad of ["\x01", "\x1b", "\x00", "\ufffe"]) {
      expect(() => strict(`<a>x${bad}y</a>`)).toThrow();
      expect(() => strict(`<a>${xmlCharacters(`x${bad}y`)}</a>`)).not.toThrow();
    }
    expect(xmlCharacters("a\x01b\x1bc")).toBe("a\\x01b\\x1bc");
    // A lone surrogate (saxes reads JS strings, so it cannot see one; UTF-8 cannot hold one) is shown too.
    expect(xmlCharacters("a\ud800b\udc00")).toBe("a\\ud800b\\udc00");
    // What XML allows stays: tab, line feed, carriage return, text, a surrogate pair.
    expect(xmlCharacters("\t\n\r é 😀")).toBe("\t\n\r é 😀");
  });
});
