/**
 * The changelog: in-process bundling equals the CLI's; on this repository's history, one entry per first-parent
 * commit that changed the bundled contract; in a scratch repository, a breaking commit and an addition give two
 * entries (the gate's summary shows the same two), a reformatting commit gives none, and the feed is Atom.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { REPO_ROOT, SPEC_ROOT_PATH } from "../../contract-core/index.js";
import { bundleFile } from "../../contract-core/redocly.js";
import { strictXml } from "../escape/judges.js";
import { pendingEntries } from "../gate/changelog-entry.js";
import { runGate } from "../gate/cli.js";
import { type Entry, buildChangelog, readHistory, renderEntry, renderPage } from "./changelog.js";
import {
  type Revision,
  bundleFiles,
  canonical,
  isShallow,
  revisionAt,
  revisionsAt,
  specCommits,
  workingRevision,
} from "./history.js";

describe("in-process bundling", () => {
  // From the files read, the bundle bundleFile makes from the disk: the CLI's (contract-core/redocly.test.ts).
  it("equals the Redocly CLI's bundle of the spec (the one npm run generate writes)", async () => {
    const inProcess = await bundleFiles(REPO_ROOT, (await workingRevision(REPO_ROOT)).files, "the working tree");
    expect(JSON.stringify(inProcess)).toBe(JSON.stringify((await bundleFile(SPEC_ROOT_PATH)).doc));
  });

  it("names the revision and the file when a $ref points at nothing (negative)", async () => {
    const files = new Map([
      ["spec/openapi.yaml", "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    $ref: paths/a.yaml\n"],
    ]);
    await expect(bundleFiles(REPO_ROOT, files, "abc1234")).rejects.toThrow(
      /cannot bundle spec\/openapi.yaml at abc1234/,
    );
  });
});

it("outside a git repository, says the changelog reads the spec's git history (negative)", async () => {
  const plain = mkdtempSync(path.join(tmpdir(), "changelog-no-git-"));
  try {
    await expect(readHistory(plain)).rejects.toThrow(/is not a commit of a git repository at .*git history/);
  } finally {
    rmSync(plain, { recursive: true, force: true });
  }
});

// This repository's history, read for what holds whatever is committed next (no count of its changes, no list
// of what it breaks): the classification itself is tested on the scratch repositories below, and the gate holds
// every pull request's breaking changes to a reviewed marker.
describe.skipIf(isShallow(REPO_ROOT))("this repository's history", () => {
  let entries: Entry[] = [];
  beforeAll(async () => {
    entries = (await readHistory(REPO_ROOT)).entries;
  });

  it("gives one entry per first-parent commit that changed the bundled contract, and none for the others", () => {
    const firstParent = new Set(specCommits(REPO_ROOT).map((c) => c.sha));
    expect(entries.length).toBeGreaterThan(5);
    // Titled in the API's words, never by a commit subject; no entry without a change the policy classifies.
    for (const e of entries) {
      expect(e.changes.length, e.title).toBeGreaterThan(0);
      expect(e.title).not.toBe(e.subject);
      expect(e.title).not.toMatch(/^Merge /);
    }
    for (const e of entries) expect(firstParent.has(e.sha ?? "")).toBe(true);
    expect(new Set(entries.map((e) => e.sha)).size).toBe(entries.length);
    // The first spec: every operation is new (the first commit's 29: a fact of history, not the spec's count now).
    const first = entries[0];
    expect(first?.first).toBe(true);
    expect(first?.changes.filter((c) => c.rule === "operation-added")).toHaveLength(29);
    // Prettier over the whole tree (spec YAML included) and BREAKING.md's rewording touched spec/ but not the bundle.
    expect(
      firstParent.has(specCommits(REPO_ROOT).find((c) => c.subject.startsWith("Format the whole tree"))!.sha),
    ).toBe(true);
    expect(entries.find((e) => e.subject.startsWith("Format the whole tree with Prettier"))).toBeUndefined();
    expect(entries.find((e) => e.subject.startsWith("DECISIONS and BREAKING.md"))).toBeUndefined();
  });
});

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

describe("a scratch repository", () => {
  let dir = "";
  let base = "";
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "changelog-scratch-"));
    for (const part of ["spec", "contract-tests/recordings/examples/createList", "redocly.yaml", "consumers"])
      cpSync(path.join(REPO_ROOT, part), path.join(dir, part), { recursive: true });
    git(dir, "init", "-q", "-b", "main");
    git(dir, "config", "user.email", "test@example.com");
    git(dir, "config", "user.name", "Test");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "The contract");
    base = git(dir, "rev-parse", "HEAD");
    // Noise: the same contract reformatted (flow style) and with its keys reordered.
    const listFile = path.join(dir, "spec/components/schemas/List.yaml");
    const list = parse(readFileSync(listFile, "utf8")) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(list).reverse());
    writeFileSync(listFile, stringify(reordered, { collectionStyle: "flow", lineWidth: 0 }));
    git(dir, "commit", "-q", "-am", "Reformat List.yaml");
    // A file of spec/ that no bundle reads.
    const decisions = path.join(dir, "spec/DECISIONS.md");
    writeFileSync(decisions, `${readFileSync(decisions, "utf8")}\nA scratch decision.\n`);
    git(dir, "commit", "-q", "-am", "A decision noted");
    // A breaking change, reviewed in BREAKING.md in the same commit.
    const properties = list.properties as Record<string, unknown>;
    delete properties.description;
    list.required = (list.required as string[]).filter((r) => r !== "description");
    writeFileSync(listFile, stringify(list));
    const markers = path.join(dir, "spec/BREAKING.md");
    writeFileSync(
      markers,
      [
        readFileSync(markers, "utf8").trimEnd(),
        ...["List", "CreatedList"].map(
          (name) =>
            `- \`response-property-removed\` \`*\` \`#/components/schemas/${name}/properties/description\` Lists lose their description (announced in the scratch notes).`,
        ),
        "",
      ].join("\n"),
    );
    git(dir, "commit", "-q", "-am", "Lists: the description property goes");
    // An addition: an optional query parameter.
    const pathFile = path.join(dir, "spec/paths/lists.yaml");
    const lists = parse(readFileSync(pathFile, "utf8")) as { get: { parameters?: unknown[] } };
    lists.get.parameters = [
      ...(lists.get.parameters ?? []),
      {
        name: "sort",
        in: "query",
        required: false,
        description: "Sort order.",
        example: "name",
        schema: { type: "string" },
      },
    ];
    writeFileSync(pathFile, stringify(lists));
    git(dir, "commit", "-q", "-am", "Lists: an optional sort parameter");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // The scratch history untagged, read once for the tests that read it so (the Atom test tags it for a while).
  let untagged: ReturnType<typeof readHistory> | undefined;
  const untaggedHistory = () => (untagged ??= readHistory(dir));
  const newEntries = async () => (await untaggedHistory()).entries.filter((e) => e.sha !== base && !e.first);

  it("gives two new entries: the first breaking (rule, reason, what it touches), the second an addition", async () => {
    const history = await untaggedHistory();
    expect(history.entries.map((e) => e.subject)).toEqual([
      "The contract",
      "Lists: the description property goes",
      "Lists: an optional sort parameter",
    ]);
    const [, removal, addition] = history.entries;
    expect(removal!.title).toBe('List Lists (listLists): response property "description" removed (and 1 more change)');
    expect(addition!.title).toBe('List Lists (listLists): optional query parameter "sort" added');
    const breaking = removal!.changes.filter((c) => c.kind === "breaking");
    // List itself, and CreatedList, which takes it through allOf (POST /lists).
    expect(breaking.map((x) => x.component)).toEqual([
      "#/components/schemas/List/properties/description",
      "#/components/schemas/CreatedList/properties/description",
    ]);
    const [c, created] = breaking;
    expect(created?.accepted).toBe("Lists lose their description (announced in the scratch notes).");
    expect(c).toMatchObject({
      rule: "response-property-removed",
      component: "#/components/schemas/List/properties/description",
      why: "clients reading the property get undefined",
      accepted: "Lists lose their description (announced in the scratch notes).",
    });
    expect(c!.before).toContain("Description; an empty string is stored as null.");
    expect(c!.after).toBeUndefined();
    expect(c!.operations).toEqual([{ operation: "GET /lists", operationId: "listLists" }]);
    expect(c!.touches).toEqual({
      examples: ["listLists 200 lists"],
      steps: [],
      recordings: [],
      client: ['client.GET("/lists")'],
      consumers: ["examples-msw listLists 200"], // the example app's contract received /data/*/description
    });
    expect(created!.touches.consumers).toEqual([]); // it never created a List
    expect(renderEntry(removal!)).toContain("consumers <code>examples-msw listLists 200</code>");
    expect(created!.touches.examples).toEqual(["createList 201 created"]);
    expect(created!.touches.steps).toEqual(["lists.arazzo.yaml list-lifecycle › createList"]);
    expect(created!.touches.client).toEqual(['client.POST("/lists")']);
    expect(created!.touches.recordings).toEqual(
      expect.arrayContaining(["contract-tests/recordings/examples/createList/201-created.json"]),
    );
    expect(addition!.changes.map((x) => [x.kind, x.rule, x.operationId])).toEqual([
      ["non-breaking", "request-parameter-added", "listLists"],
    ]);
    expect(renderEntry(removal!)).toContain("Lists lose their description");
  });

  it("writes the page and an Atom feed that parses as XML, newest entry first", async () => {
    const out = path.join(dir, "dist");
    // The contract's first commit is released as 1.0.0: the two commits after it are unreleased.
    git(dir, "tag", "-a", "v1.0.0", "-m", "1.0.0", base);
    let result: Awaited<ReturnType<typeof buildChangelog>>;
    try {
      result = await buildChangelog({ cwd: dir, outDir: out });
    } finally {
      git(dir, "tag", "-d", "v1.0.0");
    }
    expect(result.entries).toBe(3);
    const feed = readFileSync(result.feed, "utf8");
    // A strict XML 1.0 parser: it refuses a control character that the lenient validators let through.
    expect(strictXml(feed).filter((e) => e.name === "entry")).toHaveLength(2);
    const atom = new XMLParser({ ignoreAttributes: false }).parse(feed) as {
      feed: { "@_xmlns": string; id: string; updated: string; entry: { title: string; content: string }[] };
    };
    expect(atom.feed["@_xmlns"]).toBe("http://www.w3.org/2005/Atom");
    // One Atom entry per release, Unreleased first, each holding its entries.
    expect(atom.feed.entry.map((e) => e.title)).toEqual([
      "Unreleased · next release 2.0.0: `response-property-removed` on listLists, `response-property-removed` on createList",
      expect.stringMatching(/^1\.0\.0 · \d{4}-\d\d-\d\d · the first release, with the history before it$/),
    ]);
    expect(feed).toContain("&lt;code&gt;response-property-removed&lt;/code&gt;");
    expect(feed).toContain('<content type="html" xml:base="changelog.html">');
    const page = readFileSync(result.page, "utf8");
    expect(page.indexOf("optional query parameter &quot;sort&quot; added")).toBeLessThan(
      page.indexOf("response property &quot;description&quot; removed"),
    );
    expect(page.indexOf('id="release-unreleased"')).toBeLessThan(page.indexOf('id="release-1.0.0"'));
    // listLists' card: its changes by release, the unreleased ones first, then its first version in 1.0.0.
    const card = page.slice(
      page.indexOf('id="op-listLists"'),
      page.indexOf("</section>", page.indexOf('id="op-listLists"')),
    );
    expect(card.indexOf('href="#release-unreleased"')).toBeLessThan(card.indexOf('href="#release-1.0.0"'));
    expect(card).toContain("Breaking: response property &quot;description&quot; removed");
    expect(card).toContain("added in the contract's first version");
  });

  it("the gate's summary shows the same two entries, exactly as published", async () => {
    const expected = await newEntries();
    expect(expected).toHaveLength(2);
    const { markdown } = await runGate({ cwd: dir, base, only: ["breaking"], log: () => undefined });
    const section = markdown.slice(markdown.indexOf("### Changelog entries"));
    expect(section).toContain("Changelog entries this pull request adds (2)");
    for (const entry of expected) expect(section).toContain(renderEntry(entry));
    const [removal, addition] = expected.map((e) => `entry-${e.sha!.slice(0, 7)}`);
    expect(section!.indexOf(addition!)).toBeLessThan(section!.indexOf(removal!));
  });

  it("keeps the previous revision's bundle when no file it was made from changed, and bundles again when one did", async () => {
    const [first, reformat, noted] = specCommits(dir);
    expect([first, reformat, noted].map((c) => c?.subject)).toEqual([
      "The contract",
      "Reformat List.yaml",
      "A decision noted",
    ]);
    const contract = await revisionAt(dir, first!);
    expect(contract.bundledFrom).toContain("spec/components/schemas/List.yaml");
    expect(contract.bundledFrom).not.toContain("spec/DECISIONS.md");
    // List.yaml, which the bundle read, changed: bundled again (to the same contract).
    const reformatted = await revisionAt(dir, reformat!, contract);
    expect(reformatted.doc).not.toBe(contract.doc);
    expect(canonical(reformatted.doc)).toBe(canonical(contract.doc));
    // Only DECISIONS.md changed: the same bundle, which is what bundling again gives.
    const decided = await revisionAt(dir, noted!, reformatted);
    expect(decided.doc).toBe(reformatted.doc);
    expect(decided.files.get("spec/DECISIONS.md")).toContain("A scratch decision.");
    expect(canonical(decided.doc)).toBe(canonical((await revisionAt(dir, noted!)).doc));
    // Read in turn (one git cat-file for the three), the same revisions.
    const inTurn: Revision[] = [];
    for await (const revision of revisionsAt(dir, [first!, reformat!, noted!])) inTurn.push(revision);
    expect(inTurn.map((r) => r.files)).toEqual([contract.files, reformatted.files, decided.files]);
    expect(inTurn[2]!.doc).toBe(inTurn[1]!.doc);
    expect(inTurn[1]!.doc).not.toBe(inTurn[0]!.doc);
    expect(inTurn.map((r) => canonical(r.doc))).toEqual([contract, reformatted, decided].map((r) => canonical(r.doc)));
  });

  it("in a shallow clone, says so in one line with how to fetch more, and starts at the oldest commit it has", async () => {
    const shallow = mkdtempSync(path.join(tmpdir(), "changelog-shallow-"));
    try {
      git(tmpdir(), "clone", "-q", "--depth", "2", `file://${dir}`, shallow);
      const history = await readHistory(shallow);
      expect(history.shallow).toMatch(/^changelog: this clone is shallow, .*git fetch --unshallow.*fetch-depth: 0/);
      expect(history.shallow).not.toContain("\n");
      // The two newest commits: the older one is the baseline, the newest gives the only entry.
      expect(history.entries.map((e) => e.subject)).toEqual(["Lists: an optional sort parameter"]);
      // Every operation keeps the anchor the reference links to, with or without changes in this history.
      const page = renderPage(history.entries, history.latest?.doc, history.shallow);
      expect(page).toMatch(/id="op-getPerson"><h3>.*No change in the history this changelog covers/);
      expect(page).toContain(history.shallow);
    } finally {
      rmSync(shallow, { recursive: true, force: true });
    }
  });

  it("adds an entry for uncommitted spec changes, and none when the working tree's contract is the same", async () => {
    const head = git(dir, "rev-parse", "HEAD");
    expect(await pendingEntries(dir, head)).toEqual([]);
    const schema = path.join(dir, "spec/components/schemas/List.yaml");
    const before = readFileSync(schema, "utf8");
    try {
      writeFileSync(schema, before.replace("List name; not unique.", "The List's name; not unique."));
      const [entry] = await pendingEntries(dir, head);
      expect(entry?.sha).toBeUndefined();
      expect(entry?.changes.every((c) => c.kind === "description")).toBe(true);
    } finally {
      writeFileSync(schema, before);
    }
  });
});
