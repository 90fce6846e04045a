/**
 * bundleSpec: the installed Redocly CLI's bundle, made on every call (an edited file is always read again), and
 * a reference it cannot follow reported as a BundleError naming the file. bundleFile: in-process, the same bytes
 * as the CLI's output file on this repository's spec, from the disk or from given files, and the same errors.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BundleError, bundleFile, bundleSpec, redocly } from "./redocly.js";
import { DEFAULT_SPEC_PATH, REPO_ROOT, SPEC_ROOT_PATH } from "./spec.js";

const scratch = mkdtempSync(path.join(tmpdir(), "tg-redocly-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of the repository's split spec in a new folder; returns its root file. */
function specCopy(name: string): string {
  cpSync(path.join(REPO_ROOT, "spec"), path.join(scratch, name), { recursive: true });
  return path.join(scratch, name, "openapi.yaml");
}

describe("bundleSpec", () => {
  it("bundles the split spec into the committed bundle, and reads a changed file again", () => {
    const root = specCopy("edited");
    const { "x-generated": _notice, ...committed } = JSON.parse(readFileSync(DEFAULT_SPEC_PATH, "utf8"));
    expect(bundleSpec(root)).toEqual(committed);
    // An extension key added at the end of a schema file (any content of it: other tests reword its lines).
    const person = path.join(path.dirname(root), "components", "schemas", "Person.yaml");
    const text = readFileSync(person, "utf8");
    expect(text).toMatch(/^type: object$/m);
    writeFileSync(person, `${text.endsWith("\n") ? text : `${text}\n`}x-bundle-test: changed\n`);
    expect(JSON.stringify(bundleSpec(root))).toContain('"x-bundle-test":"changed"');
  });

  it("throws a BundleError naming the file a $ref points to that is not there", () => {
    const root = specCopy("broken");
    const text = readFileSync(root, "utf8");
    expect(text).toContain("$ref: paths/people.yaml\n");
    writeFileSync(root, text.replace("$ref: paths/people.yaml\n", "$ref: paths/no-such-file.yaml\n"));
    let error: unknown;
    try {
      bundleSpec(root);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toMatch(/no-such-file/);
  });
});

describe("bundleFile", () => {
  // The CLI's own output file (a process: its output is what is compared) against the in-process bundle written
  // the way the CLI writes JSON: @redocly/openapi-core from the registry and the copy inside @redocly/cli agree.
  it("writes the Redocly CLI's bundle of the repository's spec byte for byte", async () => {
    const out = path.join(scratch, "cli-bundle.json");
    await redocly(["bundle", SPEC_ROOT_PATH, "-o", out, "--ext", "json"], REPO_ROOT);
    const { doc } = await bundleFile(SPEC_ROOT_PATH, { configDir: REPO_ROOT });
    expect(JSON.stringify(doc, null, 2)).toBe(readFileSync(out, "utf8"));
  });

  it("reads a changed file again, and bundles given files instead of the disk, listing those it read", async () => {
    const root = specCopy("in-process");
    const person = path.join(path.dirname(root), "components", "schemas", "Person.yaml");
    writeFileSync(person, `${readFileSync(person, "utf8").trimEnd()}\nx-bundle-test: changed\n`);
    expect(JSON.stringify((await bundleFile(root)).doc)).toContain('"x-bundle-test":"changed"');
    const dir = path.dirname(root);
    const files = new Map([
      ["openapi.yaml", "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    $ref: paths/a.yaml\n"],
      ["paths/a.yaml", "get:\n  responses:\n    '204': {description: none}\n"],
    ]);
    const given = await bundleFile(root, { files: { dir, files } });
    expect(given.doc.paths).toEqual({ "/a": { get: { responses: { "204": { description: "none" } } } } });
    expect(given.read).toEqual([root, path.join(dir, "paths", "a.yaml")]);
  });

  it("throws a BundleError naming the file a $ref points to that is not there, on disk and among given files", async () => {
    const root = specCopy("broken-in-process");
    writeFileSync(
      root,
      readFileSync(root, "utf8").replace("$ref: paths/people.yaml\n", "$ref: paths/no-such-file.yaml\n"),
    );
    await expect(bundleFile(root)).rejects.toThrow(BundleError);
    await expect(bundleFile(root)).rejects.toThrow(/no-such-file/);
    const files = new Map([["openapi.yaml", readFileSync(root, "utf8")]]);
    const given = bundleFile(root, { files: { dir: path.dirname(root), files }, label: "the root at abc1234" });
    await expect(given).rejects.toThrow(
      /^cannot bundle the root at abc1234: .*paths\/no-such-file\.yaml does not exist/,
    );
  });
});
