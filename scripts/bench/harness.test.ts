/** Tests of the bench harness: statistics, options, goal lines, the same-bytes baseline and the runner's usage. */
import { spawn, spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_TYPESCRIPT } from "../../contract-core/index.js";
import {
  ROOT,
  alternate,
  childPids,
  childrenCpuSeconds,
  goalLine,
  goalMet,
  load,
  machineLine,
  ownChildrenCpuSeconds,
  ratios,
  record,
  roundsOption,
  startBare,
  stop,
  summarize,
  type Recorded,
} from "./harness.js";

describe("statistics", () => {
  it("the machine line names the CPUs, Node, the load and the reference work's time", () => {
    // One round of each reference work (a benchmark takes the best of three): the line's shape is the same.
    const line = machineLine(1);
    expect(line).toMatch(
      /^\d+ CPUs \(.*\), Node v\d+\.\d+\.\d+, load average \(1 min\) \d+\.\d, reference work (\d+) ms compute, (\d+) ms memory \(fixed single-threaded work, best of 1: /,
    );
    const [, compute, memory] = /reference work (\d+) ms compute, (\d+) ms memory/.exec(line)!;
    expect(Number(compute)).toBeGreaterThan(0);
    expect(Number(memory)).toBeGreaterThan(0);
  });

  it("children's CPU: fields 16 and 17 of a stat line, counted after the last parenthesis of the name", () => {
    // A name with a space and a ")" in it; utime 11, stime 12, cutime 1234, cstime 56 (ticks of 1/100 s).
    const line = "4242 (we ird) x) S 1 4242 4242 0 -1 4194560 100 200 0 0 11 12 1234 56 20 0 1 0 500 1000 10";
    expect(childrenCpuSeconds(line)).toBeCloseTo(12.9, 9);
    expect(childrenCpuSeconds("4242 (cut) S 1 2")).toBeNaN();
  });

  it("a child that used at least 0.3 s of CPU adds at least that much to this process's children's CPU", () => {
    const before = ownChildrenCpuSeconds();
    // Busy until its own CPU time reaches 300 ms, however long that takes on a loaded machine.
    const child = spawnSync(process.execPath, ["-e", "while (process.cpuUsage().user < 300000) {}"]);
    expect(child.status).toBe(0);
    expect(ownChildrenCpuSeconds() - before).toBeGreaterThanOrEqual(0.29);
  });

  it("childPids lists this process's running children, those whose command line matches when asked", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)", "--", "tg-childpids-marker"]);
    try {
      await new Promise((r) => child.once("spawn", r));
      expect(childPids(process.pid)).toContain(child.pid);
      expect(childPids(process.pid, /tg-childpids-marker/)).toEqual([child.pid]);
      expect(childPids(process.pid, /no-such-marker/)).not.toContain(child.pid);
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    }
    expect(childPids(process.pid)).not.toContain(child.pid);
    expect(childPids(2 ** 22 + 1)).toEqual([]);
  });

  it("summarize gives the median (odd and even counts), min and max", () => {
    expect(summarize([5, 1, 3])).toMatchObject({ median: 3, min: 1, max: 5 });
    expect(summarize([4, 1, 3, 10])).toMatchObject({ median: 3.5, min: 1, max: 10 });
  });

  it("summarize refuses an empty list", () => {
    expect(() => summarize([])).toThrow(/at least one/);
  });

  it("ratios pair values of the same round and refuse lists of different length", () => {
    expect(ratios([10, 9], [5, 3])).toEqual([2, 3]);
    expect(() => ratios([1, 2], [1])).toThrow(/as many values/);
  });

  it("alternate runs the contenders in turn, round after round", async () => {
    const order: string[] = [];
    const runs = await alternate(3, {
      a: async () => (order.push("a"), { x: order.length }),
      b: async () => (order.push("b"), { y: order.length }),
    });
    expect(order).toEqual(["a", "b", "a", "b", "a", "b"]);
    expect(runs.a.x).toEqual([1, 3, 5]);
    expect(runs.b.y).toEqual([2, 4, 6]);
  });
});

describe("options", () => {
  it("rounds default to 3 and fewer than 3 are refused", () => {
    expect(roundsOption([])).toBe(3);
    expect(roundsOption(["--rounds", "5"])).toBe(5);
    expect(() => roundsOption(["--rounds", "2"])).toThrow(/--rounds/);
    expect(() => roundsOption(["--rounds", "many"])).toThrow(/--rounds/);
    expect(() => roundsOption(["--rounds", "3.5"])).toThrow(/integer/);
  });
});

describe("goal lines", () => {
  const value = summarize([3.2, 2.9, 3.4]);

  it("judge the median against the target in the goal's direction", () => {
    expect(goalMet({ value, compare: ">=", target: 3 })).toBe(true);
    expect(goalMet({ value, compare: ">=", target: 3.3 })).toBe(false);
    expect(goalMet({ value, compare: "<=", target: 3.2 })).toBe(true);
    expect(goalMet({ value, compare: "<=", target: 3 })).toBe(false);
  });

  it("print goal, ratio, median (min-max) and met / not met", () => {
    const line = goalLine({
      name: "mock >= 3x stock prism",
      ratio: { label: "mock / prism", value },
      value,
      compare: ">=",
      target: 3,
    });
    expect(line).toBe("goal mock >= 3x stock prism: ratio mock / prism 3.20x median (2.90-3.40) · met");
    expect(
      goalLine({ name: "size", value: summarize([4600, 4600, 4600]), unit: "B", compare: "<=", target: 4500 }),
    ).toBe("goal size: 4,600 B median (4,600-4,600) · not met");
  });
});

describe("load", () => {
  it("a run in which nothing is answered has no latency (infinite), so no latency goal can pass", async () => {
    const silent = createServer(() => undefined); // accepts requests, never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      const r = await load(`http://127.0.0.1:${port}/`, { connections: 1, seconds: 1, warmupSeconds: 0 });
      expect(r.rps).toBe(0);
      expect(r.p99).toBe(Infinity);
      const p99 = summarize([r.p99, r.p99, 12]);
      expect(goalMet({ value: p99, compare: "<=", target: 50 })).toBe(false);
      expect(goalLine({ name: "p99", value: p99, unit: "ms", compare: "<=", target: 50 })).toBe(
        "goal p99: ∞ ms median (12-∞) · not met",
      );
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe("the bare baseline", () => {
  let server: Server;
  let base = "";
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/v1/fail") return void res.writeHead(500).end("down");
      const body = JSON.stringify({ data: { url: req.url, name: "Zoë" } });
      if (req.url === "/v1/chunked") return void res.writeHead(200, { "content-type": "application/json" }).end(body);
      res.writeHead(200, {
        "content-length": Buffer.byteLength(body),
        "content-type": "application/json; charset=utf-8",
        "x-ratelimit-limit": "300",
        "access-control-allow-origin": "*",
      });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers the recorded status, headers and body bytes", async () => {
    const recorded: Record<string, Recorded> = await record(base, ["/people?limit=2", "/chunked"]);
    const bare = await startBare(recorded);
    try {
      for (const path of ["/people?limit=2", "/chunked"]) {
        const [original, copy] = await Promise.all([fetch(`${base}${path}`), fetch(`${bare.origin}/v1${path}`)]);
        expect(copy.status).toBe(original.status);
        const originalBody = Buffer.from(await original.arrayBuffer());
        expect(Buffer.from(await copy.arrayBuffer()).equals(originalBody)).toBe(true);
        for (const name of [
          "content-type",
          "x-ratelimit-limit",
          "access-control-allow-origin",
          "content-length",
          "transfer-encoding",
        ]) {
          expect(copy.headers.get(name), `${path} ${name}`).toBe(original.headers.get(name));
        }
      }
      expect((await fetch(`${bare.origin}/v1/other`)).status).toBe(404);
    } finally {
      stop(bare.child);
    }
  });

  it("refuses to record an error answer", async () => {
    await expect(record(base, ["/fail"])).rejects.toThrow(/\/v1\/fail answered 500/);
  });
});

describe("npm run bench (scripts/bench.ts)", () => {
  const runner = (...args: string[]) =>
    spawnSync(process.execPath, [...RUN_TYPESCRIPT, path.join(ROOT, "scripts/bench.ts"), ...args], {
      cwd: ROOT,
      encoding: "utf8",
    });

  it("--help prints the usage and exits 0", () => {
    const run = runner("--help");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Usage: npm run bench/);
    expect(run.stdout).toMatch(/--sizes/);
  });

  it("an unknown part is a usage error (exit 2) that names it", () => {
    const run = runner("nope");
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/unknown benchmark part\(s\): nope/);
  });
});
