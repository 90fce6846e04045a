/**
 * The read side answers exactly as pinned in testing/golden/<group>.json (default generated graph): for every
 * request of testing/golden-queries.ts, its path, status, content type and whole body, pretty-printed, so a
 * changed answer shows as a diff of the field that changed. The server writes compact JSON, so the pretty body
 * pins the bytes: each answer is checked to equal its own body re-serialized (the key order is the server's).
 * Optimizations must not change an answer; after a deliberate behaviour change, regenerate the files and
 * review their diff:
 *
 *   npx vitest run mocks/sandbox/testing/golden.test.ts -u
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS } from "../contract/auth.js";
import { goldenGroups } from "./golden-queries.js";
import { openFastifySandbox, type FastifyTestSandbox } from "./harness.js";

const DIR = fileURLToPath(new URL("./golden/", import.meta.url));
const AUTH = { authorization: `Bearer ${KEYS[0]!.key}` };
const GROUPS = Object.entries(goldenGroups());

interface GoldenAnswer {
  path: string;
  status: number;
  type: string;
  body: unknown;
}

let sb: FastifyTestSandbox;
beforeAll(async () => {
  sb = await openFastifySandbox({ logger: false });
}, 60_000);
afterAll(async () => {
  await sb?.close();
});

/** The answer of one path (relative to the base path), with the paths whose bytes the JSON would not pin. */
async function answer(path: string, unpinned: string[]): Promise<GoldenAnswer> {
  const res = await sb.app.inject({ method: "GET", url: sb.ctx.spec.basePath + path, headers: AUTH });
  let body: unknown = res.body;
  try {
    body = JSON.parse(res.body);
  } catch {
    // Not JSON: kept as text (byte-exact as a string).
  }
  if (typeof body !== "string" && JSON.stringify(body) !== res.body) unpinned.push(path);
  return { path, status: res.statusCode, type: String(res.headers["content-type"]), body };
}

describe("read-side golden answers (default graph)", () => {
  // A missing file is written outside CI (and fails in CI); a file no group writes would be left unchecked.
  it("the golden folder holds only the groups' files", () => {
    const files = new Set(GROUPS.map(([group]) => `${group}.json`));
    expect(readdirSync(DIR).filter((file) => !files.has(file))).toEqual([]);
  });

  it.each(GROUPS)("%s: every answer equals its golden file", async (group, paths) => {
    const unpinned: string[] = [];
    const answers: GoldenAnswer[] = [];
    for (const path of paths) answers.push(await answer(path, unpinned));
    expect(unpinned, "answers whose bytes are not compact JSON").toEqual([]);
    await expect(`${JSON.stringify(answers, null, 2)}\n`).toMatchFileSnapshot(`${DIR}${group}.json`);
  });
});
