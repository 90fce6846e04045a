/**
 * bundleSpec: the installed Redocly CLI's bundle, made on every call (an edited file is always read again), and
 * a reference it cannot follow reported as a BundleError naming the file.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BundleError, bundleSpec } from "./redocly.js";
import { DEFAULT_SPEC_PATH, REPO_ROOT } from "./spec.js";

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
