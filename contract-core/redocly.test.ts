/**
 * bundleSpec's memo: a bundle of the same files (in any folder) is made once per process (and once per install,
 * through the files it keeps on disk), and any change to a file the root reaches, or a reference the memo cannot
 * follow, runs the CLI again.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { BundleError, bundleCacheFile, bundleRuns, bundleSpec, forgetBundles, refsInText, refsOf } from "./redocly.js";
import { pruneCacheFiles } from "./cache-files.js";
import { REPO_ROOT } from "./spec.js";

const scratch = mkdtempSync(path.join(tmpdir(), "tg-redocly-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A copy of the repository's split spec in a new folder, its root ending in a comment that names `variant`, so
 * no bundle made earlier in this process (other test files share it) is the same; returns its root file.
 */
function specCopy(name: string, variant = name): string {
  cpSync(path.join(REPO_ROOT, "spec"), path.join(scratch, name, "spec"), { recursive: true });
  const root = path.join(scratch, name, "spec", "openapi.yaml");
  writeFileSync(root, `${readFileSync(root, "utf8")}# ${variant} ${scratch}\n`);
  return root;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .map((f) => path.join(dir, f));
}

describe("bundleSpec memo", () => {
  it("bundles the same files once, in another folder too, and hands each caller its own document", () => {
    const first = specCopy("a", "shared");
    const second = specCopy("b", "shared");
    const before = bundleRuns();
    const a = bundleSpec(first);
    const b = bundleSpec(second);
    expect(bundleRuns() - before).toBe(1);
    expect(b).toEqual(a);
    expect(b).not.toBe(a);
    (b.info as { title: string }).title = "changed by a caller";
    expect((bundleSpec(first).info as { title: string }).title).toBe("Talent Graph API");
    expect(bundleRuns() - before).toBe(1);
  });

  it("bundles again when a file the root reaches changes, and the new bundle has the change", () => {
    const root = specCopy("c");
    bundleSpec(root);
    const before = bundleRuns();
    // An extension key added at the end of a schema file (any content of it: other tests reword its lines).
    const person = path.join(path.dirname(root), "components", "schemas", "Person.yaml");
    const text = readFileSync(person, "utf8");
    expect(text).toMatch(/^type: object$/m);
    writeFileSync(person, `${text.endsWith("\n") ? text : `${text}\n`}x-memo-test: changed\n`);
    const changed = bundleSpec(root);
    expect(bundleRuns() - before).toBe(1);
    expect(JSON.stringify(changed)).toContain('"x-memo-test":"changed"');
  });

  it("runs the CLI every time when a $ref names no file, and reports the error each time", () => {
    const dir = path.join(scratch, "broken");
    cpSync(path.join(REPO_ROOT, "spec"), dir, { recursive: true });
    const root = path.join(dir, "openapi.yaml");
    const text = readFileSync(root, "utf8");
    expect(text).toContain("$ref: paths/people.yaml\n");
    writeFileSync(root, text.replace("$ref: paths/people.yaml\n", "$ref: paths/no-such-file.yaml\n"));
    const before = bundleRuns();
    expect(() => bundleSpec(root)).toThrow(BundleError);
    expect(() => bundleSpec(root)).toThrow(/no-such-file/);
    expect(bundleRuns() - before).toBe(2);
  });
});

describe("bundleSpec's bundles on disk (for the other processes of a run)", () => {
  it("a process that did not bundle these files reads the one another wrote, without the CLI; a garbled one is made again", () => {
    const root = specCopy("disk");
    const before = bundleRuns();
    const made = bundleSpec(root);
    expect(bundleRuns() - before).toBe(1);
    forgetBundles();
    expect(bundleSpec(root)).toEqual(made);
    expect(bundleRuns() - before).toBe(1);
    // A kept file that is not JSON (a disk that lost its end) is no bundle: the CLI runs and writes it over.
    const file = bundleCacheFile(root)!;
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(made);
    writeFileSync(file, '{"openapi": "3.1');
    forgetBundles();
    expect(bundleSpec(root)).toEqual(made);
    expect(bundleRuns() - before).toBe(2);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(made);
  });

  it("keeps the most recently written files only, and removes partial files a crash left", () => {
    const dir = mkdtempSync(path.join(scratch, "prune-"));
    const now = Date.now() / 1000;
    for (let i = 0; i < 5; i++) {
      writeFileSync(path.join(dir, `${i}.json`), "{}");
      utimesSync(path.join(dir, `${i}.json`), now - 100 + i, now - 100 + i);
    }
    writeFileSync(path.join(dir, "9.json.123.tmp"), "{");
    utimesSync(path.join(dir, "9.json.123.tmp"), now - 600, now - 600);
    writeFileSync(path.join(dir, "8.json.456.tmp"), "{");
    pruneCacheFiles(dir, 3);
    expect(readdirSync(dir).sort()).toEqual(["2.json", "3.json", "4.json", "8.json.456.tmp"]);
  });
});

describe("refsInText", () => {
  it("reads the same $refs as a YAML parse from every file of the spec and of the lint and breaking fixtures", () => {
    const files = [
      ...yamlFiles(path.join(REPO_ROOT, "spec")),
      ...yamlFiles(path.join(REPO_ROOT, "scripts", "breaking", "fixtures")),
    ];
    let read = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const refs = refsInText(text);
      if (refs === null) continue;
      read++;
      expect(new Set(refs), file).toEqual(new Set(refsOf(parseYaml(text))));
    }
    // Most files take the fast path (a file it declines is parsed instead, which is slower but as exact).
    expect(read).toBeGreaterThan(files.length * 0.9);
  });

  it("reads block, flow, quoted and JSON forms, with a comment after the value", () => {
    const text = [
      "a:",
      "  $ref: ./plain.yaml",
      "  b: { $ref: './flow.yaml#/x' }",
      '  c: { "$ref": "json.json", d: 1 }',
      "  e:",
      "    $ref: '#/local' # a comment",
      "  f: [{ $ref: list.yaml }]",
    ].join("\n");
    expect(refsInText(text)).toEqual(["./plain.yaml", "./flow.yaml#/x", "json.json", "#/local", "list.yaml"]);
  });

  it("declines a text with a $ref it cannot read for certain: an escape, a plain value with a space, the word in prose", () => {
    expect(refsInText('a:\n  "$ref": "a\\u002fb.yaml"\n')).toBeNull();
    expect(refsInText("a:\n  $ref: 'it''s.yaml'\n")).toBeNull();
    expect(refsInText("a:\n  $ref: two words.yaml\n")).toBeNull();
    expect(refsInText("description: Use a $ref to share schemas.\n")).toBeNull();
    expect(refsInText("a:\n  $ref:\n    ./next-line.yaml\n")).toBeNull();
    expect(refsInText("description: no references\n")).toEqual([]);
  });
});
