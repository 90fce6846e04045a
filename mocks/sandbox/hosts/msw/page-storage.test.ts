/**
 * The MSW host's localStorage state, in-process (the same in Chromium: examples/msw/page-storage.test.ts): a
 * stored state of a version the sandbox does not write is refused by name (fresh start, one warning, the value
 * untouched), and a store that breaks while the sandbox runs switches it to memory with one warning, answering
 * from the last good state.
 */
import { describe, expect, it } from "vitest";
import { KEYS } from "../../contract/auth.js";
import { fixtureGraphInput } from "../../data/fixture.js";
import { createSandboxHandlers, localStorageState } from "./msw.js";

const ACME = KEYS.find((k) => k.key.startsWith("tgsb_acme"))!.key;

function fakeStorage() {
  const map = new Map<string, string>();
  const store = {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
  return { map, store };
}

function open(store: object, warnings: string[]) {
  return createSandboxHandlers({
    graph: fixtureGraphInput(),
    timers: false,
    persist: localStorageState("tg", store as Storage, (m) => warnings.push(m)),
  });
}

type Sandbox = ReturnType<typeof open>;
const call = (sb: Sandbox, method: string, url: string, body?: unknown) =>
  sb.core.handle({
    method,
    url,
    headers: { authorization: `Bearer ${ACME}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const listNames = async (sb: Sandbox) =>
  (JSON.parse((await call(sb, "GET", "/v1/lists")).body!).data as { name: string }[])
    .map((l) => l.name)
    .filter((n) => n !== "Saved people");

/** A state this sandbox stored (one List "Stored"), as text. */
async function storedText(): Promise<string> {
  const { map, store } = fakeStorage();
  const sb = open(store, []);
  expect((await call(sb, "POST", "/v1/lists", { name: "Stored" })).status).toBe(201);
  sb.close();
  return map.get("tg")!;
}

describe("a stored state of a version this sandbox does not write", () => {
  it.each<[string, (s: Record<string, unknown>) => void, RegExp]>([
    ["3", (s) => (s.version = 3), /version 3,/],
    ["99", (s) => (s.version = 99), /version 99,/],
    ['"2" (a string)', (s) => (s.version = "2"), /version "2",/],
    ["missing", (s) => delete s.version, /no version,/],
    ["-1", (s) => (s.version = -1), /version -1,/],
  ])("version %s: a fresh start, said once, the value untouched", async (_name, tamper, pattern) => {
    const state = JSON.parse(await storedText()) as Record<string, unknown>;
    tamper(state);
    const text = JSON.stringify(state);
    const { map, store } = fakeStorage();
    map.set("tg", text);
    const warnings: string[] = [];
    const sb = open(store, warnings);
    try {
      expect(await listNames(sb)).toEqual([]);
      expect((await call(sb, "POST", "/v1/lists", { name: "Fresh" })).status).toBe(201);
      expect(await listNames(sb)).toEqual(["Fresh"]);
    } finally {
      sb.close();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^localStorage:tg holds a stored state of /);
    expect(warnings[0]).toMatch(pattern);
    expect(warnings[0]).toMatch(/it writes version 2\): refused, and the page starts fresh/);
    expect(map.get("tg")).toBe(text);
  });

  it("version 2 (what it writes) is read (near miss)", async () => {
    const { map, store } = fakeStorage();
    map.set("tg", await storedText());
    const warnings: string[] = [];
    const sb = open(store, warnings);
    expect(await listNames(sb)).toEqual(["Stored"]);
    sb.close();
    expect(warnings).toEqual([]);
  });
});

describe("a store that breaks while the sandbox runs", () => {
  it.each<[string, (map: Map<string, string>, broken: { setItem: boolean; getItem: boolean }) => void]>([
    ["its value replaced by text that is not JSON", (map) => map.set("tg", "{not json")],
    ["setItem throwing (a full quota)", (_map, broken) => (broken.setItem = true)],
    ["getItem throwing (storage turned off)", (_map, broken) => (broken.getItem = true)],
  ])("%s: writes and reads go on from the last good state, one warning", async (_name, breakIt) => {
    const map = new Map<string, string>();
    const broken = { setItem: false, getItem: false };
    const store = {
      getItem: (k: string) => {
        if (broken.getItem) throw new Error("SecurityError: storage is disabled");
        return map.get(k) ?? null;
      },
      setItem: (k: string, v: string) => {
        if (broken.setItem) throw new Error("QuotaExceededError: the quota has been exceeded");
        map.set(k, v);
      },
    };
    const warnings: string[] = [];
    const sb = open(store, warnings);
    try {
      expect((await call(sb, "POST", "/v1/lists", { name: "Before" })).status).toBe(201);
      breakIt(map, broken);
      const untouched = map.get("tg");
      for (let i = 0; i < 3; i++)
        expect((await call(sb, "POST", "/v1/lists", { name: `After ${i}` })).status).toBe(201);
      expect((await call(sb, "GET", "/v1/me")).status).toBe(200);
      expect(await listNames(sb)).toEqual(["Before", "After 0", "After 1", "After 2"]);
      // A write the core does not acknowledge (a 4xx) still leaves the last good state.
      expect((await call(sb, "POST", "/v1/lists", { name: "" })).status).toBe(400);
      expect(await listNames(sb)).toEqual(["Before", "After 0", "After 1", "After 2"]);
      expect(map.get("tg"), "the stored value left as it was").toBe(untouched);
    } finally {
      sb.close();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^localStorage:tg .*; the sandbox goes on in memory/);
  });
});
