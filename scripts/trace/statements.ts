/**
 * Splits the API reference (Markdown) into statements, deterministically: each table body row, each list item
 * and each sentence of a prose paragraph is one statement. Headings, table header rows and code fences are not.
 *
 * Ids (README.md, "Statement ids"): `<section>/<words>-<hash>`. The section is the slug of the nearest `###`
 * heading, or of the `##` heading when the statement sits directly under one (`introduction` before the first).
 * The words are the slug of a table row's first cell, or of the first four words of a list item or sentence;
 * the hash is the first 6 hex digits of the SHA-256 of the statement's normalised text. A repeated id in one
 * section gets `-2`, `-3`... So an id changes when its own text or its section's heading changes, never
 * because of an edit elsewhere; a changed statement is a new id, and the trace entry of the old one outdated.
 */
import { createHash } from "node:crypto";

export interface Statement {
  id: string;
  /** The heading path, `## title › ### title`. */
  section: string;
  /** The section part of the id. */
  sectionSlug: string;
  kind: "row" | "item" | "sentence";
  /** The statement, whitespace-normalised; table rows as `cell | cell | cell`. */
  text: string;
  /** 1-based line of the reference where it starts. */
  line: number;
}

/** Lower case, runs of anything but letters and digits become one `-`: `GET /people (search)` -> `get-people-search`. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`*]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Whitespace runs become one space; Markdown emphasis and code marks go (a quote matches either way). */
export function normalise(text: string): string {
  return text
    .replace(/\*\*|`/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

const hash6 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 6);

/** Sentence ends: `.`, `!` or `?` then space then an upper-case letter, a digit, a quote or a code mark. */
export function sentences(paragraph: string): string[] {
  return paragraph
    .split(/(?<=[.!?])\s+(?=[A-Z0-9`"({*])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const cells = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => normalise(c));

export function splitReference(markdown: string): Statement[] {
  const lines = markdown.split(/\r?\n/);
  const out: Statement[] = [];
  const seen = new Map<string, number>();
  let h2 = "";
  let h3 = "";
  let section = "Introduction";
  let sectionSlug = "introduction";
  let fence = false;
  let paragraph: { text: string; line: number } | undefined;
  let item: { text: string; line: number } | undefined;
  let tableRow = 0;

  const add = (kind: Statement["kind"], text: string, line: number, key: string) => {
    const base = `${sectionSlug}/${key || "statement"}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out.push({ id: n === 1 ? base : `${base}-${n}`, section, sectionSlug, kind, text, line });
  };
  const keyOf = (text: string) => `${slug(text.split(" ").slice(0, 4).join(" "))}-${hash6(text)}`;
  const flushParagraph = () => {
    if (!paragraph) return;
    const whole = normalise(paragraph.text);
    // A lead-in of at most three words ending in a colon ("Retry rules:") only introduces what follows.
    if (!(whole.endsWith(":") && whole.split(" ").length <= 3))
      for (const s of sentences(paragraph.text)) {
        const text = normalise(s);
        add("sentence", text, paragraph.line, keyOf(text));
      }
    paragraph = undefined;
  };
  const flushItem = () => {
    if (!item) return;
    const text = normalise(item.text);
    add("item", text, item.line, keyOf(text));
    item = undefined;
  };

  lines.forEach((raw, index) => {
    const line = raw.trimEnd();
    const at = index + 1;
    if (/^\s*```/.test(line)) {
      flushParagraph();
      flushItem();
      fence = !fence;
      return;
    }
    if (fence) return;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flushParagraph();
      flushItem();
      tableRow = 0;
      const level = heading[1]!.length;
      const title = normalise(heading[2]!);
      if (level === 1) return;
      if (level === 2) {
        h2 = title;
        h3 = "";
      } else h3 = title;
      section = h3 ? `${h2} › ${h3}` : h2;
      sectionSlug = slug(h3 || h2);
      return;
    }
    if (line.trim() === "") {
      flushParagraph();
      flushItem();
      tableRow = 0;
      return;
    }
    if (/^\s*\|/.test(line)) {
      flushParagraph();
      flushItem();
      tableRow += 1;
      // Row 1 is the header, row 2 the separator.
      if (tableRow <= 2) return;
      const row = cells(line);
      const text = row.join(" | ");
      add("row", text, at, `${slug(row[0] ?? "")}-${hash6(text)}`);
      return;
    }
    const listItem = /^\s*(?:[-*+]|\d+\.)\s+(.*)$/.exec(line);
    if (listItem) {
      flushParagraph();
      flushItem();
      item = { text: listItem[1]!, line: at };
      return;
    }
    if (item) {
      item.text += ` ${line.trim()}`;
      return;
    }
    if (paragraph) paragraph.text += ` ${line.trim()}`;
    else paragraph = { text: line.trim(), line: at };
  });
  flushParagraph();
  flushItem();
  return out;
}
