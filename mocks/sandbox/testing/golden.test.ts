/**
 * The read side answers exactly as pinned in testing/golden/<group>/<request>.json (default generated graph),
 * one file per request of testing/golden-queries.ts: its path, status, content type and whole body,
 * pretty-printed, so a changed answer shows as a diff of the field that changed, and a new request (a new
 * filter's values) adds files beside unchanged ones. The server writes compact JSON, so the pretty body pins
 * the bytes: each answer is checked to equal its own body re-serialized (the key order is the server's).
 * Optimizations must not change an answer; after a deliberate behaviour change, regenerate the files and
 * review their diff:
 *
 *   npx vitest run mocks/sandbox/testing/golden.test.ts -u
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS } from "../contract/auth.js";
import { goldenGroups } from "./golden-queries.js";
import { openFastifySandbox, type FastifyTestSandbox } from "./harness.js";

const DIR = fileURLToPath(new URL("./golden/", import.meta.url));
const AUTH = { authorization: `Bearer ${KEYS[0]!.key}` };
/** Each group's distinct requests (a vocabulary term may appear twice, as a name and as an authority). */
const GROUPS = Object.entries(goldenGroups()).map(([group, paths]) => [group, [...new Set(paths)]] as const);
/** Folders of golden files other tests write (data/generate.test.ts: a sample of the generated graph). */
const OTHER_FOLDERS = ["graph"];

/**
 * The file name of a request: its path (URL-encoded as sent) without the leading slash, `?` as `__`, `/` as
 * `%2F`, any other character but letters, digits and `._=&,%+-` as `%XX`; a name with capitals ends in `~` and
 * 8 hex digits of the path's SHA-256, so that no two names differ only in letter case (file systems that ignore
 * it keep both).
 */
function goldenFileName(path: string): string {
  const name = path
    .slice(1)
    .replace("?", "__")
    .replace(/[^A-Za-z0-9._=&,%+-]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  const tag = /[A-Z]/.test(name.replace(/%[0-9A-F]{2}/g, ""))
    ? `~${createHash("sha256").update(path).digest("hex").slice(0, 8)}`
    : "";
  return `${name}${tag}.json`;
}

interface GoldenAnswer {
  path: string;
  status: number;
  type: string;
  body: unknown;
}

let sb: FastifyTestSandbox;
beforeAll(async () => {
  sb = await openFastifySandbox({ logger: false });
});
afterAll(async () => {
  await sb?.close();
});

/** The answer of one path (relative to the base path); `compact`: its bytes are the JSON's (pinned by it). */
async function answer(path: string): Promise<{ answer: GoldenAnswer; compact: boolean }> {
  const res = await sb.app.inject({ method: "GET", url: sb.ctx.spec.basePath + path, headers: AUTH });
  let body: unknown = res.body;
  try {
    body = JSON.parse(res.body);
  } catch {
    // Not JSON: kept as text (byte-exact as a string).
  }
  const compact = typeof body === "string" || JSON.stringify(body) === res.body;
  return { answer: { path, status: res.statusCode, type: String(res.headers["content-type"]), body }, compact };
}

describe("read-side golden answers (default graph)", () => {
  // A missing file is written outside CI (and fails in CI); a file no request writes would be left unchecked.
  it("the golden folders hold only the requests' files, one per request, names distinct in any letter case", () => {
    expect(
      readdirSync(DIR).filter((name) => !GROUPS.some(([group]) => group === name) && !OTHER_FOLDERS.includes(name)),
    ).toEqual([]);
    for (const [group, paths] of GROUPS) {
      const names = paths.map(goldenFileName);
      expect(new Set(names.map((n) => n.toLowerCase())).size, group).toBe(paths.length);
      const expected = new Set(names);
      expect(
        (existsSync(`${DIR}${group}`) ? readdirSync(`${DIR}${group}`) : []).filter((file) => !expected.has(file)),
        group,
      ).toEqual([]);
    }
  });

  it.each(GROUPS)("%s: every answer equals its golden file", async (group, paths) => {
    for (const path of paths) {
      const { answer: got, compact } = await answer(path);
      expect(compact, `${path}: bytes are not compact JSON`).toBe(true);
      await expect(`${JSON.stringify(got, null, 2)}\n`).toMatchFileSnapshot(`${DIR}${group}/${goldenFileName(path)}`);
    }
  });
});
