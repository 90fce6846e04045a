import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.js";
import { loadRecordings, RecordingError } from "../contract-core/index.js";

const SPEC = ["--spec", "contract-tests/fixtures/mini-openapi.json"];
const HAR = "contract-tests/fixtures/mini-session.har";
const tmp = mkdtempSync(join(tmpdir(), "contract-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(...args: string[]) {
  let out = "";
  let err = "";
  const code = runCli([...args, ...SPEC], { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

function writeTmp(name: string, content: unknown): string {
  const path = join(tmp, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const brokenDelete = {
  request: {
    method: "DELETE",
    url: "/v1/lists/0b6f2f8e-3f0c-4d1e-9a57-6a1f2c3d4e5f",
    headers: { authorization: "Bearer [redacted]" },
    body: null,
  },
  response: { status: 204, headers: { "content-type": "application/json" }, body: { deleted: true } },
};

describe("HAR 1.2 input", () => {
  it("turns every entry under the base path into an exchange (skipping other hosts' assets and status 0)", () => {
    const loaded = loadRecordings([HAR], "/v1");
    expect(
      loaded.map(
        (l) => `${l.entry} ${l.exchange.request.method} ${l.exchange.request.url} ${l.exchange.response.status}`,
      ),
    ).toEqual([
      "1 GET /v1/lists 200",
      "2 POST /v1/lists 201",
      "4 DELETE /v1/lists/0b6f2f8e-3f0c-4d1e-9a57-6a1f2c3d4e5f 204",
    ]);
    const post = loaded[1]!.exchange;
    expect(post.request.body).toEqual({ name: "Shortlist" }); // postData parsed
    expect(post.response.body).toMatchObject({ data: { name: "Shortlist" } }); // base64 content decoded
    expect(loaded[0]!.exchange.request.headers).not.toHaveProperty(":authority");
    expect(loaded[2]!.exchange.response.body).toBeNull();
  });
  it("validates a HAR through the CLI", () => {
    const { code, out } = run(HAR);
    expect(code, out).toBe(0);
    expect(out).toContain("3 exchanges: 3 valid, 0 invalid");
  });
});

describe("contract CLI", () => {
  it("prints only the total when all are valid, and exits 0", () => {
    const { code, out, err } = run("contract-tests/fixtures/mini-recordings");
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toBe("2 exchanges: 2 valid, 0 invalid\n");
  });
  it("--verbose prints one line per exchange", () => {
    const { code, out } = run("--verbose", "contract-tests/fixtures/mini-recordings");
    expect(code).toBe(0);
    expect(out).toContain(
      "✔ DELETE https://api.talent-graph.example/v1/lists/0b6f2f8e-3f0c-4d1e-9a57-6a1f2c3d4e5f deleteList 204",
    );
    expect(out).toContain("✔ GET /v1/people?limit=2 searchPeople 200");
  });
  it("exits 1 and prints each error with pointer, schema location and message", () => {
    const { code, out } = run(writeTmp("broken.json", brokenDelete), "contract-tests/fixtures/mini-recordings");
    expect(code).toBe(1);
    expect(out).toContain("✘ DELETE /v1/lists/0b6f2f8e-3f0c-4d1e-9a57-6a1f2c3d4e5f deleteList 204");
    expect(out).not.toContain("✔"); // the valid ones are only counted
    expect(out).toContain(
      "    response /body (#/paths/~1lists~1{id}/delete/responses/204): deleteList 204 is documented without content, but the response has a body",
    );
    expect(out).toContain("3 exchanges: 2 valid, 1 invalid");
  });
  it("--json prints only a JSON array with the documented keys", () => {
    const { code, out } = run("--json", writeTmp("broken-json.json", brokenDelete));
    expect(code).toBe(1);
    const rows = JSON.parse(out) as Record<string, unknown>[];
    expect(rows).toEqual([
      {
        file: join(tmp, "broken-json.json"),
        method: "DELETE",
        url: brokenDelete.request.url,
        operationId: "deleteList",
        status: 204,
        valid: false,
        errors: [
          "response /body (#/paths/~1lists~1{id}/delete/responses/204): deleteList 204 is documented without content, but the response has a body",
        ],
      },
    ]);
  });
  it("--json reports operationId null for an unknown path", () => {
    const unknown = { ...brokenDelete, request: { ...brokenDelete.request, url: "/v1/nowhere" } };
    const rows = JSON.parse(run("--json", writeTmp("unknown.json", unknown)).out) as {
      operationId: unknown;
      errors: string[];
    }[];
    expect(rows[0]).toMatchObject({
      operationId: null,
      errors: ["request /url (#/paths): no path template matches /nowhere (DELETE /v1/nowhere)"],
    });
  });
  it("checks only the response side of a 4xx answer (the server rejected the request)", () => {
    const rejected = {
      request: { method: "GET", url: "/v1/people?limit=0" },
      response: {
        status: 400,
        headers: { "content-type": "application/json" },
        body: { error: { type: "invalid_request", message: "limit must be >= 1" } },
      },
    };
    expect(run(writeTmp("rejected.json", rejected)).code).toBe(0);
    const accepted = {
      ...rejected,
      response: { status: 200, headers: rejected.response.headers, body: { data: [], meta: { count: 0 } } },
    };
    const { code, out } = run(writeTmp("accepted.json", accepted));
    expect(code).toBe(1);
    expect(out).toContain("request /query/limit");
  });
  it.each([
    ["a missing file", () => join(tmp, "missing.json"), /missing\.json: no such file or folder/],
    ["invalid JSON", () => writeTmp("bad.json", "{ nope"), /bad\.json: invalid JSON/],
    ["a JSON file that is not a recording", () => writeTmp("other.json", { hello: 1 }), /other\.json: not a recording/],
    [
      "a recording without a status",
      () => writeTmp("nostatus.json", { request: { method: "GET", url: "/v1/people" }, response: {} }),
      /nostatus\.json: response\.status must be an integer/,
    ],
    ["an empty HAR", () => writeTmp("empty.har", { log: { entries: [] } }), /no exchanges found/],
  ])("exits 2 on %s, naming the file", (_, make, message) => {
    const { code, out, err } = run(make());
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toMatch(message);
  });
  it("exits 2 on usage errors and an unloadable spec", () => {
    expect(runCli([], { out: () => {}, err: () => {} })).toBe(2);
    let err = "";
    expect(runCli(["x.json", "--spec", join(tmp, "nope.json")], { out: () => {}, err: (t) => void (err += t) })).toBe(
      2,
    );
    expect(err).toMatch(/cannot load the spec: .*nope\.json/);
  });
  it("RecordingError names the file", () => {
    expect(() => loadRecordings([join(tmp, "absent")], "/v1")).toThrow(RecordingError);
    expect(() => loadRecordings([join(tmp, "absent")], "/v1")).toThrow(/absent: no such file or folder/);
  });
});
