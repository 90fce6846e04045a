/** The real contract (generated/openapi.json) against the committed recordings. */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPERATIONS, checkRecorded, formatErrors, getValidator, loadRecordings } from "../contract-core/index.js";
import { runCli } from "./cli.js";

const contract = getValidator();
const VALID_DIR = "contract-tests/recordings";
const INVALID_DIR = "contract-tests/recordings-invalid";
type Expected = Record<string, { side: string; pointer: string; message: string }>;
const expected = JSON.parse(
  readFileSync("contract-tests/fixtures/recordings-invalid.expected.json", "utf8"),
) as Expected;

const valid = loadRecordings([VALID_DIR], contract.basePath);
const invalid = loadRecordings([INVALID_DIR], contract.basePath);

describe("recordings/ (every one matches the contract)", () => {
  // One test over all the recordings through the command (`npm run contract -- contract-tests/recordings`), not
  // one test per file: each runs the same validation, and the command prints every recording that broke.
  it("every recording matches the contract (exit 0, only the total printed)", () => {
    let out = "";
    const status = runCli([VALID_DIR], { out: (t) => void (out += t), err: (t) => void (out += t) });
    expect(valid.length).toBeGreaterThan(400);
    expect({ status, out }).toEqual({
      status: 0,
      out: `${valid.length} exchanges: ${valid.length} valid, 0 invalid\n`,
    });
  });

  it("cover every operation and every documented status", () => {
    const covered = new Set<string>();
    for (const { exchange } of valid) {
      const route = contract.matchRoute(exchange.request.method, exchange.request.url);
      const operation = contract.operations.find((op) => op.operationId === route?.operationId);
      const status = String(exchange.response.status);
      const key = [status, `${status[0]}XX`, "DEFAULT"].find((k) => operation?.responses.has(k));
      if (operation && key) covered.add(`${operation.operationId} ${key}`);
    }
    const missing = contract.operations
      .flatMap((op) => [...op.responses.keys()].map((key) => `${op.operationId} ${key}`))
      .filter((k) => !covered.has(k));
    expect(contract.operations).toHaveLength(OPERATIONS.length);
    expect(missing).toEqual([]);
  });
});

describe("recordings-invalid/ (each breaks exactly one rule)", () => {
  it("has an expectation for every file and a file for every expectation", () => {
    expect(readdirSync(INVALID_DIR).sort()).toEqual(Object.keys(expected).sort());
  });
  it.each(invalid.map((l) => [l.file.slice(INVALID_DIR.length + 1), l] as const))("%s", (name, { exchange }) => {
    const result = checkRecorded(contract, exchange);
    const want = expected[name]!;
    expect(result.errors, formatErrors(result)).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ side: want.side, pointer: want.pointer });
    expect(result.errors[0]!.message).toContain(want.message);
  });
});

describe("route matching on the real spec", () => {
  it("decodes a URL-encoded profile URL used as slug", () => {
    const profile = "https://network.example.com/in/priya-raman";
    expect(contract.matchRoute("GET", `/v1/people/${encodeURIComponent(profile)}`)).toEqual({
      operationId: "getPerson",
      pathTemplate: "/people/{slug}",
      params: { slug: profile },
    });
    expect(
      contract.matchRoute("GET", `https://api.talent-graph.example/v1/people/${encodeURIComponent(profile)}/similar`)
        ?.operationId,
    ).toBe("listSimilarPeople");
  });
  it("keeps sub-resources apart from their parent template", () => {
    expect(contract.matchRoute("GET", "/v1/people/priya-raman/coworkers")?.pathTemplate).toBe(
      "/people/{slug}/coworkers",
    );
    expect(contract.matchRoute("GET", "/v1/people/priya-raman")?.pathTemplate).toBe("/people/{slug}");
    expect(contract.matchRoute("POST", "/v1/targets/3c9e2b7a-1f4d-4a6e-8b2c-5d7f9e1a3b5c/retry")?.operationId).toBe(
      "retryTarget",
    );
    expect(contract.matchRoute("POST", "/v1/targets")?.operationId).toBe("createTarget");
    expect(contract.matchRoute("PUT", "/v1/signals/preferences")?.operationId).toBe("updateNotificationPreferences");
  });
  it("rejects unknown paths, unknown methods and URLs without the base path", () => {
    expect(contract.matchRoute("GET", "/v1/people/priya-raman/skills")).toBeNull();
    expect(contract.matchRoute("DELETE", "/v1/people/priya-raman")).toBeNull();
    expect(contract.matchRoute("GET", "/people/priya-raman")).toBeNull();
    expect(contract.matchRoute("GET", "https://api.talent-graph.example/people")).toBeNull();
  });
});

describe("npm run contract on recordings-invalid/", () => {
  it("exits 1 and names the expected error for each file (--json)", () => {
    let stdout = "";
    const status = runCli([INVALID_DIR, "--json"], { out: (t) => void (stdout += t), err: (t) => void (stdout += t) });
    expect(status).toBe(1);
    const rows = JSON.parse(stdout) as { file: string; valid: boolean; errors: string[] }[];
    expect(rows).toHaveLength(Object.keys(expected).length);
    for (const row of rows) {
      const want = expected[row.file.slice(INVALID_DIR.length + 1)]!;
      expect(row.valid).toBe(false);
      expect(row.errors).toHaveLength(1);
      expect(row.errors[0]).toMatch(`${want.side} ${want.pointer} (`);
      expect(row.errors[0]).toContain(want.message);
    }
  });
});
