/**
 * Prove mode (`npm run trace -- --prove`): a trace entry is proven when breaking what it names makes its named
 * checks fail. For each spec pointer of a traced entry every mutation of mutations.ts is applied to a copy of
 * the bundle, and for an entry with `fault:` the sandbox's proof fault of that name is switched on
 * (mocks/sandbox/contract/proof-faults.ts); each time the entry's test checks run in this process through
 * Vitest's API, against the mutant (CONTRACT_BUNDLE) in fresh workers, and at least one must fail. An entry one of
 * whose mutations survives is unproven, with the surviving mutation. `lint:`, `workflow:` and `recording:` checks
 * are not run here: an entry needs a test check that fails.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { mutationsFor, type Mutation } from "./mutations.js";
import type { TraceEntry } from "./trace.js";

/** A named test: its file and a `describe`/`it` title or an `each` case name. */
export interface TestCheck {
  file: string;
  title: string;
}

export interface CheckRun {
  /** The mutant bundle's path, or undefined for the bundle as it is. */
  bundle?: string;
  /** The proof fault switched on, or undefined. */
  fault?: string;
  tests: TestCheck[];
}

export interface CheckOutcome {
  /** How many tests ran (matched a title and were not skipped). */
  ran: number;
  /** The full names of the tests (or files) that failed. */
  failed: string[];
}

export type CheckRunner = (run: CheckRun) => Promise<CheckOutcome>;

export interface MutationProof {
  pointer?: string;
  /** The mutation or the fault, in one line. */
  description: string;
  ran: number;
  killedBy: string[];
}

export type ProofStatus = "proven" | "unproven";

export interface EntryProof {
  id: string;
  status: ProofStatus;
  mutations: MutationProof[];
  /** Why it is unproven: each surviving mutation, or the lack of a check prove can run. */
  problems: string[];
  /** The entry's own `unproven:` reason (a known gap, reviewed), when it has one. */
  acknowledged?: string;
}

export interface ProofReport {
  entries: EntryProof[];
  totals: { entries: number; proven: number; unproven: number; acknowledged: number; mutations: number; runs: number };
  seconds: number;
}

/** The test checks of an entry (`<file> > <title>`). */
export function testChecks(entry: TraceEntry): TestCheck[] {
  return (entry.checks ?? []).flatMap((c) => {
    const m = /^(\S+\.test\.ts) > (.+)$/.exec(c);
    return m ? [{ file: m[1]!, title: m[2]! }] : [];
  });
}

/** The most mutations tried per pointer (a schema with many bounds and keys stays bounded). */
const PER_POINTER = 6;

/** What prove does for an entry: each mutation of each pointer, then its fault. */
export function planProof(bundle: unknown, entry: TraceEntry): { mutations: Mutation[]; fault?: string } {
  const mutations = (entry.spec ?? []).flatMap((p) => mutationsFor(bundle, p).slice(0, PER_POINTER));
  return { mutations, ...(entry.fault ? { fault: entry.fault } : {}) };
}

/** The entries prove reads: traced ones (spec pointers and checks, not informative). */
export const provable = (e: TraceEntry) => !e.informative && (e.spec?.length ?? 0) > 0 && (e.checks?.length ?? 0) > 0;

export interface ProveOptions {
  bundle: unknown;
  entries: TraceEntry[];
  run: CheckRunner;
  /** Called after each entry (progress). */
  onEntry?: (proof: EntryProof, done: number, total: number) => void;
}

export async function proveEntries({ bundle, entries, run, onEntry }: ProveOptions): Promise<ProofReport> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), "trace-prove-"));
  /** One run per mutation and set of tests: entries sharing a pointer and checks share it. */
  const memo = new Map<string, CheckOutcome>();
  let runs = 0;
  let mutationsRun = 0;
  const once = async (key: string, job: () => Promise<CheckOutcome>) => {
    if (!memo.has(key)) {
      runs++;
      memo.set(key, await job());
    }
    return memo.get(key)!;
  };
  const proofs: EntryProof[] = [];
  const list = entries.filter(provable);
  try {
    for (const entry of list) {
      const tests = testChecks(entry);
      const testsKey = JSON.stringify(tests.map((t) => `${t.file} > ${t.title}`).sort());
      const { mutations, fault } = planProof(bundle, entry);
      const results: MutationProof[] = [];
      const problems: string[] = [];
      if (tests.length === 0) problems.push("no test check: prove runs only `<file> > <title>` checks");
      if (mutations.length === 0 && !fault) problems.push("no mutation derived from its spec pointers");
      if (tests.length > 0) {
        for (const m of mutations) {
          mutationsRun++;
          const outcome = await once(`${m.description}\n${testsKey}`, async () => {
            const copy = structuredClone(bundle);
            m.apply(copy);
            const file = join(dir, `mutant-${runs}.json`);
            writeFileSync(file, JSON.stringify(copy));
            return run({ bundle: file, tests });
          });
          results.push({ pointer: m.pointer, description: m.description, ran: outcome.ran, killedBy: outcome.failed });
        }
        if (fault) {
          mutationsRun++;
          const outcome = await once(`fault ${fault}\n${testsKey}`, () => run({ fault, tests }));
          results.push({ description: `fault ${fault} switched on`, ran: outcome.ran, killedBy: outcome.failed });
        }
      }
      for (const r of results)
        if (r.killedBy.length === 0)
          problems.push(
            r.ran === 0
              ? `no named test ran under "${r.description}"`
              : `survives: ${r.description} (${r.ran} tests ran)`,
          );
      const proof: EntryProof = {
        id: entry.id,
        status: problems.length === 0 ? "proven" : "unproven",
        mutations: results,
        problems,
        ...(entry.unproven ? { acknowledged: entry.unproven } : {}),
      };
      proofs.push(proof);
      onEntry?.(proof, proofs.length, list.length);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const unproven = proofs.filter((p) => p.status === "unproven");
  return {
    entries: proofs,
    totals: {
      entries: proofs.length,
      proven: proofs.length - unproven.length,
      unproven: unproven.length,
      acknowledged: unproven.filter((p) => p.acknowledged).length,
      mutations: mutationsRun,
      runs,
    },
    seconds: (Date.now() - started) / 1000,
  };
}

/** The unproven entries that no `unproven:` reason acknowledges: what fails the command and the gate. */
export const newlyUnproven = (report: ProofReport) =>
  report.entries.filter((p) => p.status === "unproven" && !p.acknowledged);

/** `--shard i/n`: the i-th of n slices of the entries (1-based), by position. */
export function shardOf<T>(items: T[], shard: string): T[] {
  const m = /^(\d+)\/(\d+)$/.exec(shard);
  if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
    throw new Error(`--shard must be i/n with 1 <= i <= n, got ${shard}`);
  const [i, n] = [Number(m[1]), Number(m[2])];
  return items.filter((_, k) => k % n === i - 1);
}

/** A regular expression matching any of `titles` literally. */
const titlePattern = (titles: string[]) =>
  new RegExp([...new Set(titles)].map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"));

interface TaskLike {
  type: string;
  name: string;
  mode?: string;
  result?: { state?: string; errors?: unknown[] };
  tasks?: TaskLike[];
}

/**
 * The runner: Vitest's API in this process, the default project (Node host), a fresh Vitest (so fresh workers
 * and module caches) per run, with CONTRACT_BUNDLE and TRACE_PROVE_FAULT set for its workers.
 */
export function vitestRunner(root: string): CheckRunner {
  return async ({ bundle, fault, tests }) => {
    const { startVitest } = await import("vitest/node");
    const saved = { bundle: process.env.CONTRACT_BUNDLE, fault: process.env.TRACE_PROVE_FAULT };
    const set = (k: string, v: string | undefined) => (v === undefined ? delete process.env[k] : (process.env[k] = v));
    set("CONTRACT_BUNDLE", bundle);
    set("TRACE_PROVE_FAULT", fault);
    try {
      const files = [...new Set(tests.map((t) => resolve(root, t.file)))];
      const vitest = await startVitest("test", files, {
        root,
        watch: false,
        project: ["default"],
        testNamePattern: titlePattern(tests.map((t) => t.title)),
        reporters: [{}],
        passWithNoTests: true,
      } as never);
      if (!vitest) return { ran: 0, failed: ["vitest did not start"] };
      const failed: string[] = [];
      let ran = 0;
      const walk = (task: TaskLike, path: string[]) => {
        const name = [...path, task.name];
        if (task.type === "test") {
          if (task.result?.state === "pass" || task.result?.state === "fail") ran++;
          if (task.result?.state === "fail") failed.push(name.join(" > "));
        } else if (task.type === "suite" && task.result?.state === "fail" && !task.tasks?.length)
          failed.push(name.join(" > "));
        for (const child of task.tasks ?? []) walk(child, task.type === "file" ? [task.name] : name);
      };
      for (const file of vitest.state.getFiles() as unknown as TaskLike[]) {
        // A file that fails to load (its top level throws under the mutant) fails every check in it.
        if (file.result?.errors?.length) failed.push(`${file.name} (failed to load)`);
        walk(file, []);
      }
      await vitest.close();
      return { ran, failed };
    } finally {
      set("CONTRACT_BUNDLE", saved.bundle);
      set("TRACE_PROVE_FAULT", saved.fault);
    }
  };
}
