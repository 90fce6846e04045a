// Contract coverage: the cells read from the spec, how one exchange is marked, the totals, and what the gate
// judges (a status added without evidence, a total that falls). Runs in-process on the bundled spec.
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  DEFAULT_SPEC_PATH,
  cellsOf,
  createMarker,
  loadSpec,
  statusCell,
  type Exchange,
  type Mark,
} from "../../contract-core/index.js";
import { consoleLines, parseOnly } from "./coverage.js";
import { RECORDINGS_DIR, collectRecordings, exchangesOfRespectLog } from "./evidence.js";
import {
  buildReport,
  compareReports,
  comparisonFailures,
  forcedOnlyCells,
  markdownTable,
  restrictTo,
  type Evidence,
  type SourceInfo,
} from "./report.js";

const doc = loadSpec(DEFAULT_SPEC_PATH) as Record<string, any>;
const marker = createMarker();
const SOURCES = Object.fromEntries(
  ["recordings", "fuzz", "workflows", "suite"].map((e) => [e, { collected: true, exchanges: 0, how: "test" }]),
) as Record<Evidence, SourceInfo>;
const tmp = mkdtempSync(join(tmpdir(), "coverage-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const recording = (path: string): Exchange =>
  JSON.parse(readFileSync(join(RECORDINGS_DIR, "examples", path), "utf8")) as Exchange;
const marksOf = (exchanges: Exchange[], m = marker): Mark[] =>
  exchanges.map((e) => m.mark(e)).filter((x): x is Mark => x !== null);

describe("cells", () => {
  it("lists every operation of the bundle with its documented statuses and parameters", () => {
    const cells = cellsOf(doc);
    const operationIds = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>)
      .flatMap((item) => Object.values(item))
      .map((op) => op.operationId)
      .filter(Boolean);
    expect(cells.map((c) => c.operationId).sort()).toEqual(operationIds.sort());
    const createList = cells.find((c) => c.operationId === "createList")!;
    expect(createList.statuses.map((s) => s.status)).toEqual(Object.keys(doc.paths["/lists"].post.responses));
    expect(createList.statuses.find((s) => s.status === "201")!.examples).toEqual(["created"]);
    const search = cells.find((c) => c.operationId === "searchPeople")!;
    expect(search.parameters).toContainEqual({ in: "query", name: "limit" });
  });

  it("puts an answer in its exact status, else its range, else default, else nowhere", () => {
    const statuses = [{ status: "200" }, { status: "4XX" }];
    expect(statusCell(statuses, 200)).toBe("200");
    expect(statusCell(statuses, 404)).toBe("4XX");
    expect(statusCell(statuses, 500)).toBeNull();
    expect(statusCell([...statuses, { status: "DEFAULT" }], 500)).toBe("DEFAULT");
  });
});

describe("marks", () => {
  it("marks a recording's operation, status and the named example its body equals", () => {
    expect(marker.mark(recording("createList/201-created.json"))).toMatchObject({
      operationId: "createList",
      status: "201",
      examples: ["created"],
    });
  });

  it("does not count an example the body differs from", () => {
    const exchange = recording("createList/201-created.json");
    (exchange.response.body as { data: { name: string } }).data.name = "Another name";
    expect(marker.mark(exchange)!.examples).toEqual([]);
  });

  it("tells a parameter sent with a valid value from one sent with an invalid value", () => {
    const exchange = (query: string): Exchange => ({
      request: { method: "GET", url: `/v1/people?${query}`, headers: { authorization: "Bearer k" } },
      response: { status: 400, headers: {}, body: null },
    });
    const bad = marker.mark(exchange("limit=0&offset=2"))!;
    expect(bad.invalid).toContain("/query/limit");
    expect(bad.valid).toContain("/query/offset");
    expect(bad.valid).not.toContain("/query/limit");
    const good = marker.mark(exchange("limit=5"))!;
    expect(good.valid).toContain("/query/limit");
    expect(good.invalid).toEqual([]);
  });

  it("flags an answer the request forced (Prefer: code=, its __code stand-in, a kit fault) and no other", () => {
    const base = recording("createList/400-invalid_request.json");
    const withHeaders = (headers: Record<string, string>): Exchange => ({
      ...base,
      request: { ...base.request, headers: { ...base.request.headers, ...headers } },
    });
    expect(marker.mark(base)!.forced).toBeUndefined();
    expect(marker.mark(withHeaders({ Prefer: "example=invalid_request" }))!.forced).toBeUndefined();
    expect(marker.mark(withHeaders({ Prefer: "code=400" }))!.forced).toBe(true);
    expect(marker.mark(withHeaders({ prefer: "dynamic=false; code=400" }))!.forced).toBe(true);
    expect(marker.mark({ ...base, request: { ...base.request, url: "/v1/lists?__code=400" } })!.forced).toBe(true);
    expect(marker.mark(base, true)!.forced).toBe(true);
  });

  it("marks nothing for a request that reaches no operation", () => {
    const exchange: Exchange = {
      request: { method: "GET", url: "/v1/nowhere" },
      response: { status: 404, headers: {}, body: null },
    };
    expect(marker.mark(exchange)).toBeNull();
  });

  it("reads Respect's log as exchanges under the base path", () => {
    const step = (statusCode: number) => ({
      type: "step" as const,
      request: { method: "get", url: "http://127.0.0.1:4011/v1/lists?limit=2", headers: {} },
      response: { statusCode, body: { data: [] } },
    });
    const log = {
      files: {
        "lists.arazzo.yaml": {
          executedWorkflows: [
            {
              type: "workflow" as const,
              executedSteps: [step(200), { type: "workflow" as const, executedSteps: [step(401)] }],
            },
          ],
        },
      },
    };
    const exchanges = exchangesOfRespectLog(log);
    expect(exchanges.map((e) => [e.request.method, e.request.url, e.response.status])).toEqual([
      ["GET", "/v1/lists?limit=2", 200],
      ["GET", "/v1/lists?limit=2", 401],
    ]);
  });
});

describe("totals and the gate's comparison", () => {
  const recordings = collectRecordings("/v1").exchanges!;
  const full = buildReport("spec", marker.cells, { recordings: marksOf(recordings) }, SOURCES);

  it("lowers the total when a recording is removed", () => {
    const dir = join(tmp, "recordings");
    cpSync(RECORDINGS_DIR, dir, { recursive: true });
    // Both recordings of createList's 402: the one built from the spec's example and the one of the mock.
    rmSync(join(dir, "examples/createList/402-payment_required.json"));
    rmSync(join(dir, "mock/createList-402-payment_required.json"));
    const fewer = collectRecordings("/v1", dir).exchanges!;
    expect(fewer.length).toBe(recordings.length - 2);
    const report = buildReport("spec", marker.cells, { recordings: marksOf(fewer) }, SOURCES);
    expect(report.totals.statuses.covered).toBe(full.totals.statuses.covered - 1);
    const compared = compareReports(full, report);
    expect(compared.fallen.map((f) => f.label)).toContain("operation × status");
    expect(compared.changed).toContainEqual({ cell: "createList 402", base: ["recordings"], head: [] });
  });

  it("fails a status the head adds without evidence, and passes it once a recording exercises it", () => {
    const head = structuredClone(doc);
    head.paths["/lists"].post.responses["409"] = head.paths["/lists"].post.responses["400"];
    const headMarker = createMarker(head);
    const conflict: Exchange = {
      ...recording("createList/400-invalid_request.json"),
      response: { ...recording("createList/400-invalid_request.json").response, status: 409 },
    };
    const without = buildReport("spec", headMarker.cells, { recordings: marksOf(recordings, headMarker) }, SOURCES);
    expect(compareReports(full, without).addedWithoutEvidence).toEqual(["createList 409"]);
    const withIt = buildReport(
      "spec",
      headMarker.cells,
      { recordings: marksOf([...recordings, conflict], headMarker) },
      SOURCES,
    );
    const compared = compareReports(full, withIt);
    expect(compared.addedWithoutEvidence).toEqual([]);
    expect(compared.fallen).toEqual([]);
    expect(compared.changed).toContainEqual({ cell: "createList 409", base: null, head: ["recordings"] });
  });

  it("counts a forced answer in no status, example or operation total, lists it apart with why, keeps its parameters", () => {
    const created = recording("createList/201-created.json");
    const forced = (status: number): Exchange => ({
      request: { ...created.request, headers: { ...created.request.headers, prefer: `code=${status}` } },
      response: recording(`createList/${status === 500 ? "500-server_error" : "402-payment_required"}.json`).response,
    });
    const report = buildReport("spec", marker.cells, { suite: marksOf([forced(402), forced(500)]) }, SOURCES);
    expect(report.totals.statuses.covered).toBe(0);
    expect(report.totals.operations.covered).toBe(0);
    expect(report.totals.examples.covered).toBe(0);
    expect(report.totals.parametersValid.covered).toBe(0); // createList has no parameters: the totals stay 0 honestly
    const list = forcedOnlyCells(report);
    expect(list.map((f) => [f.cell, f.sources])).toEqual([
      ["createList 402", ["suite"]],
      ["createList 500", ["suite"]],
    ]);
    expect(list[1]!.why).toMatch(/server error has no cause/);
    expect(list[0]!.why).toMatch(/Prefer: code=/);
    expect(markdownTable(report)).toContain("402 (S)");
    // The same answer caused (no Prefer) counts.
    const caused = buildReport(
      "spec",
      marker.cells,
      { suite: marksOf([recording("createList/402-payment_required.json")]) },
      SOURCES,
    );
    expect(caused.totals.statuses.covered).toBe(1);
    expect(forcedOnlyCells(caused)).toEqual([]);
    // A forced request's parameters were sent and judged for real.
    const people = marker.mark({
      request: { method: "GET", url: "/v1/people?limit=5", headers: { authorization: "Bearer k", prefer: "code=500" } },
      response: recording("searchPeople/500-server_error.json").response,
    })!;
    const withParams = buildReport("spec", marker.cells, { suite: [people] }, SOURCES);
    expect(withParams.totals.parametersValid.covered).toBeGreaterThan(0);
    expect(withParams.totals.statuses.covered).toBe(0);
  });

  it("names the cells a fallen total no longer covers, by operation and status or parameter", () => {
    const fewer = recordings.filter((e) => !(e.request.url.startsWith("/v1/lists") && e.response.status === 402));
    const head = buildReport("spec", marker.cells, { recordings: marksOf(fewer) }, SOURCES);
    const failures = comparisonFailures(compareReports(full, head));
    const statuses = failures.find((f) => f.startsWith("operation × status"))!;
    expect(statuses).toContain("`createList 402`");
    expect(statuses).toMatch(/fell to \d+ \(base \d+\); no longer covered: /);
  });

  it("prints the uncovered cells when asked, and says none rather than an empty list", () => {
    // Every cell covered, whatever the spec holds today.
    const all = {
      ...full,
      operations: full.operations.map((op) => ({
        ...op,
        evidence: ["recordings" as const],
        statuses: op.statuses.map((s) => ({ ...s, evidence: ["recordings" as const] })),
      })),
    };
    expect(consoleLines(all, true).slice(-2)).toEqual(["", "uncovered: none"]);
    expect(consoleLines(all, false)).not.toContain("uncovered: none");
    const none = buildReport("spec", marker.cells, {}, SOURCES);
    const lines = consoleLines(none, true);
    expect(lines).toContain(`uncovered (${none.operations.length}):`);
    expect(lines).toContain("  createList (no evidence at all)");
  });

  it("compares only the evidence kinds kept", () => {
    const fuzzOnly = restrictTo(full, ["fuzz"]);
    expect(fuzzOnly.totals.statuses.covered).toBe(0);
    expect(fuzzOnly.totals.statuses.total).toBe(full.totals.statuses.total);
  });

  it("refuses an unknown evidence kind", () => {
    expect(parseOnly("recordings,fuzz")).toEqual(["recordings", "fuzz"]);
    expect(() => parseOnly("recordings,guesses")).toThrow(/guesses/);
  });
});
