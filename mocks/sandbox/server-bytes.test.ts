/**
 * The Fastify host sends search answers as bytes written into shared slabs and hands each slab back once its
 * answers were sent: under many concurrent requests on a real socket every answer stays intact.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS } from "./auth.js";
import { fixtureGraphInput } from "./data/fixture.js";
import { startSandbox, type RunningSandbox } from "./server.js";

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({ graph: fixtureGraphInput(), rateLimit: false, host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await sb?.close();
});

const PATHS = [
  "/people?limit=100",
  "/people?location=Europe&skills=python;go;kubernetes",
  "/people?role_family=engineering&view=compact",
  "/people?languages=english&limit=3",
];
const headers = { authorization: `Bearer ${KEYS[0]!.key}` };
const get = async (path: string) => {
  const res = await fetch(sb.baseUrl + path, { headers });
  return { status: res.status, text: await res.text() };
};

describe("search answers as bytes on a real socket", () => {
  it("400 concurrent answers equal the answers given one at a time", async () => {
    const expected = new Map<string, string>();
    for (const path of PATHS) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expected.set(path, res.text);
    }
    // The answers differ, so a mixed-up or overwritten answer would show.
    expect(new Set(expected.values()).size).toBe(PATHS.length);
    for (let round = 0; round < 4; round++) {
      const paths = Array.from({ length: 100 }, (_, i) => PATHS[(i * 7 + round) % PATHS.length]!);
      const answers = await Promise.all(paths.map(get));
      const wrong = answers.filter((res, i) => res.status !== 200 || res.text !== expected.get(paths[i]!));
      expect(wrong).toEqual([]);
    }
  });
});
