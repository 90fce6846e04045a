/**
 * JSON bodies are UTF-8 without a byte order mark on both servers (contract-core/json-text.ts): a body with bytes
 * that are not UTF-8 is a 400 invalid_request naming the byte offset, never stored with U+FFFD in their place;
 * a leading BOM gets the same 400 from both; well-formed multi-byte text is taken (near miss).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invalidUtf8At, jsonTextOf } from "../../../../contract-core/index.js";
import { startMock, type RunningMock } from "../../../prism/server.js";
import { KEYS } from "../../contract/auth.js";
import { fixtureGraphInput } from "../../data/fixture.js";
import { startSandbox, type RunningSandbox } from "./server.js";

const ACME = KEYS.find((k) => k.key.startsWith("tgsb_acme"))!.key;
let mock: RunningMock;
let sandbox: RunningSandbox;

beforeAll(async () => {
  [mock, sandbox] = await Promise.all([
    startMock({ port: 0, quiet: true }),
    startSandbox({ graph: fixtureGraphInput(), host: "127.0.0.1", port: 0, rateLimit: false, jobSpeed: 0 }),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), sandbox?.close()]);
});

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));

async function post(base: string, bytes: Uint8Array) {
  const body = new Uint8Array(bytes);
  const res = await fetch(`${base}/lists`, {
    method: "POST",
    headers: { authorization: `Bearer ${ACME}`, "content-type": "application/json" },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as { error?: { type: string; message: string } } };
}

async function bothAnswer(body: Uint8Array) {
  return { mock: await post(mock.baseUrl, body), sandbox: await post(sandbox.baseUrl, body) };
}

describe("a JSON body that is not UTF-8", () => {
  it.each<[string, Buffer, number]>([
    ["a lone 0xff", bytes('{"name":"A', [0xff], ' B"}'), 10],
    ["a Latin-1 é", bytes('{"name":"Caf', [0xe9], '"}'), 12],
    ["an overlong slash (C0 AF)", bytes('{"name":"', [0xc0, 0xaf], '"}'), 9],
    ["a surrogate (ED A0 80)", bytes('{"name":"x', [0xed, 0xa0, 0x80], '"}'), 10],
    ["a sequence cut at the end", bytes('{"name":"x"}', [0xe2, 0x82]), 12],
  ])("%s: 400 naming the byte offset, the same from both servers, and nothing stored", async (_name, body, at) => {
    const { mock: m, sandbox: s } = await bothAnswer(body);
    const expected = { type: "invalid_request", message: `request body is not valid UTF-8 (at byte offset ${at})` };
    expect(s).toEqual({ status: 400, body: { error: expected } });
    expect(m).toEqual({ status: 400, body: { error: expected } });
    const lists = await fetch(`${sandbox.baseUrl}/lists`, { headers: { authorization: `Bearer ${ACME}` } });
    expect(JSON.stringify(await lists.json())).not.toContain("\ufffd");
  });

  it("a leading byte order mark: the same 400 from both (RFC 8259, 8.1: a networked JSON text carries none)", async () => {
    const { mock: m, sandbox: s } = await bothAnswer(bytes([0xef, 0xbb, 0xbf], '{"name":"With a BOM"}'));
    expect(s.status).toBe(400);
    expect(s.body.error).toEqual({ type: "invalid_request", message: expect.stringMatching(/byte order mark/) });
    expect(m).toEqual(s);
  });

  it("well-formed multi-byte text is taken by both (near miss)", async () => {
    const { mock: m, sandbox: s } = await bothAnswer(bytes('{"name":"Zürich 😀 ✓"}'));
    expect(s.status).toBe(201);
    expect(m.status).toBe(201);
  });
});

describe("invalidUtf8At", () => {
  it.each<[number[], number]>([
    [[0x41, 0x42], -1],
    [[0xc3, 0xa9], -1],
    [[0xf0, 0x9f, 0x98, 0x80], -1],
    [[0xf4, 0x8f, 0xbf, 0xbf], -1],
    [[0x41, 0x80], 1],
    [[0xc1, 0xbf], 0],
    [[0xe0, 0x80, 0x80], 0],
    [[0xf0, 0x80, 0x80, 0x80], 0],
    [[0xf4, 0x90, 0x80, 0x80], 0],
    [[0xf5, 0x80, 0x80, 0x80], 0],
    [[0xe2, 0x28, 0xa1], 0],
    [[0xe2, 0x82, 0x28], 0],
    [[0x41, 0xf0, 0x9f, 0x98], 1],
  ])("%j -> %d", (input, at) => {
    expect(invalidUtf8At(new Uint8Array(input))).toBe(at);
    // Where the fast path (TextDecoder, fatal) and the offset finder must agree.
    expect(jsonTextOf(new Uint8Array(input)).ok).toBe(at === -1);
  });
});
