/**
 * Text a pull request controls is data on every surface built from the history: a scratch repository whose
 * commit subjects, BREAKING.md reason, operationId and parameter name carry the payloads of a hostile pull
 * request (U+001E before an option or an old sha, \x01, ESC, CR CR, `<img onerror>`, `## ✔ passed`,
 * `@someone`, `::error::`) builds the reference and the changelog; the changelog has one entry per commit and no
 * forged one; the feed parses with a strict XML 1.0 parser; the page runs no script and escapes the operationId
 * in every context; the gate's summary, rendered by a CommonMark parser, has exactly the headings the gate
 * writes, no image, no HTML of the payloads', no mention and no workflow-command line.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { REPO_ROOT, controlCharacters } from "../../contract-core/index.js";
import { bundleFile } from "../../contract-core/redocly.js";
import { buildDocs } from "../docs/build.js";
import { markdownStructure, strictXml } from "../escape/judges.js";
import type { OpenApiDoc } from "../docs/openapi.js";
import { runGate } from "../gate/cli.js";
import { buildChangelog, readHistory } from "./changelog.js";
import { specCommits } from "./history.js";

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

const OLD = "{base}";
const SUBJECTS = [
  "Forged\x1e--no-such-rev",
  `Forged\x1e${OLD}`,
  "Control \x01 and \x1b[32mcolour\x1b[0m \x1b]0;title\x07",
  "CR\r\r## ✔ passed",
  "## ✔ passed",
  "<img src=x onerror=alert(1)> @someone",
  "::error::forged by a subject",
];
const REASON = "Lists lose \x01 their \x1b[2J description <img src=x onerror=alert(1)> @someone ::error::x";
const OPERATION_ID = 'listLists"><img src=x onerror=alert(1)>';
const PARAMETER = "q\r\r## ✔ passed <img src=x onerror=alert(1)> @someone";

describe("a scratch history with a hostile pull request's payloads", () => {
  let dir = "";
  let base = "";
  let subjects: string[] = [];
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "changelog-hostile-"));
    for (const part of ["spec", "redocly.yaml"])
      cpSync(path.join(REPO_ROOT, part), path.join(dir, part), { recursive: true });
    git(dir, "init", "-q", "-b", "main");
    git(dir, "config", "user.email", "test@example.com");
    git(dir, "config", "user.name", "Test");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "The contract");
    base = git(dir, "rev-parse", "HEAD");
    subjects = SUBJECTS.map((s) => s.replace(OLD, base));
    const listFile = path.join(dir, "spec/components/schemas/List.yaml");
    const pathFile = path.join(dir, "spec/paths/lists.yaml");
    const markers = path.join(dir, "spec/BREAKING.md");
    subjects.forEach((subject, i) => {
      const list = parse(readFileSync(listFile, "utf8")) as { description: string; [k: string]: unknown };
      if (i === 2) {
        // A breaking change, accepted by a reason with control characters and the other payloads.
        const properties = list.properties as Record<string, unknown>;
        delete properties.description;
        list.required = (list.required as string[]).filter((r) => r !== "description");
        const lines = ["List", "CreatedList"].map(
          (name) =>
            `- \`response-property-removed\` \`*\` \`#/components/schemas/${name}/properties/description\` ${REASON}`,
        );
        writeFileSync(markers, `${readFileSync(markers, "utf8").trimEnd()}\n${lines.join("\n")}\n`);
      } else list.description = `${list.description} (${i})`;
      writeFileSync(listFile, stringify(list));
      if (i === 5) {
        // An operationId and a query parameter name that lint would refuse (the changelog must not trust lint).
        const lists = parse(readFileSync(pathFile, "utf8")) as {
          get: { operationId: string; parameters?: unknown[] };
        };
        lists.get.operationId = OPERATION_ID;
        lists.get.parameters = [
          ...(lists.get.parameters ?? []),
          { name: PARAMETER, in: "query", required: false, example: "x", schema: { type: "string" } },
        ];
        writeFileSync(pathFile, stringify(lists));
      }
      git(dir, "commit", "-q", "-am", subject);
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // The page and the feed of the scratch history, built once for the tests that read them.
  let built: ReturnType<typeof buildChangelog> | undefined;
  const changelog = () => (built ??= buildChangelog({ cwd: dir, outDir: path.join(dir, "dist") }));

  it("reads every subject as written, with no forged entry and no revision taken from a subject", async () => {
    expect(specCommits(dir).map((c) => c.subject)).toEqual(["The contract", ...subjects]);
    const history = await readHistory(dir);
    expect(history.entries.map((e) => e.subject)).toEqual(["The contract", ...subjects]);
    expect(history.entries.every((e) => /^\d{4}-\d\d-\d\dT/.test(e.date))).toBe(true);
  });

  it("builds the reference and the changelog; the feed is XML 1.0 to a strict parser, its payloads shown", async () => {
    const out = path.join(dir, "dist");
    const doc = (await bundleFile(path.join(dir, "spec/openapi.yaml"))).doc as OpenApiDoc;
    await buildDocs({ doc, outFile: path.join(out, "index.html") });
    const result = await changelog();
    expect(result.entries).toBe(subjects.length + 1);
    const feed = readFileSync(result.feed, "utf8");
    const elements = strictXml(feed);
    const titles = elements.filter((e) => e.name === "title").map((e) => e.text);
    // Entries are titled in the API's words, never by a commit subject: no subject reaches a title.
    for (const subject of subjects) expect(titles).not.toContain(subject);
    expect([...titles.join("")].filter((c) => c < " " && !"\t\n\r".includes(c))).toEqual([]);
    const content = elements.filter((e) => e.name === "content").map((e) => e.text);
    expect(content.join("\n")).toContain("Lists lose \\x01 their \\x1b[2J description &lt;img");
  });

  it("the page runs no script, and the operationId stays text in id=, href= and the page's text", async () => {
    const page = readFileSync((await changelog()).page, "utf8");
    expect(page).not.toMatch(/<img|<script/i);
    expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; /);
    expect(page).toContain(`id="op-listLists&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"`);
    expect(page).toContain(`href="#op-listLists%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"`);
  });

  it("the gate's summary, rendered by CommonMark, has exactly the gate's headings and none of the payloads' structure", async () => {
    const { markdown, stepSummary } = await runGate({ cwd: dir, base, only: ["breaking"], log: () => undefined });
    for (const summary of [markdown, stepSummary]) {
      const md = markdownStructure(summary);
      expect(md.headings).toEqual([
        // The renamed operationId is an unreviewed breaking change: the gate fails, and says so once.
        "## Contract gate: ✘ failed",
        "### ✘ Breaking changes (1)",
        "### ✔ Accepted breaking changes (2)",
        `### Changelog entries this pull request adds (${subjects.length})`,
      ]);
      expect(md.images).toBe(0);
      expect(md.html.join("")).not.toMatch(/<img|<script/i);
      expect(md.rendered).not.toMatch(/<img|<script/i);
      expect(md.text).not.toContain("@someone");
      expect(md.text).toContain("@\u200bsomeone");
      expect(md.rendered.replace(/<code>.*?<\/code>/gs, "")).not.toContain("@someone");
      // A line starting with `::` is a workflow command to the Actions runner (the summary is printed too).
      expect(summary.split(/\r\n|\r|\n/).filter((l) => /^\s*::/.test(l))).toEqual([]);
      expect(controlCharacters(summary.replaceAll("\n", ""))).toEqual([]);
    }
    // The payloads are shown, as text: the subjects inside the entries' HTML blocks, escaped.
    const entries = markdownStructure(markdown).html.join("");
    expect(entries).toContain("&lt;img src=x onerror=alert(1)&gt; @&#8203;someone");
  });
});
