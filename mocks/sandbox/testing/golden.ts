/**
 * The read-side golden file: the exact answers (status + SHA-256 of the body bytes) of a broad request set
 * (testing/golden-queries.ts) on the default generated graph. It pins the read side's behaviour, so the
 * search can be optimized without changing an answer. Regenerate only after a deliberate behaviour change:
 *
 *   npm run ts -- mocks/sandbox/testing/golden.ts --write
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { KEYS } from "../contract/auth.js";
import { buildApp } from "../hosts/node/server.js";
import { goldenPaths } from "./golden-queries.js";

export const GOLDEN_FILE = fileURLToPath(new URL("./golden-reads.json", import.meta.url));

export interface GoldenEntry {
  path: string;
  status: number;
  /** Content-Type of the answer. */
  type: string;
  bytes: number;
  sha256: string;
  /** meta.total of a search (diagnostics; the hash pins the whole body). */
  total?: number | null;
  /** Row identifiers of the first rows (slug, else name). */
  first?: string[];
}

const AUTH = { authorization: `Bearer ${KEYS[0]!.key}` };

/** The answer of one path (relative to /v1), summarized. */
export async function goldenAnswer(app: FastifyInstance, basePath: string, path: string): Promise<GoldenEntry> {
  const res = await app.inject({ method: "GET", url: basePath + path, headers: AUTH });
  const entry: GoldenEntry = {
    path,
    status: res.statusCode,
    type: String(res.headers["content-type"]),
    bytes: res.rawPayload.length,
    sha256: createHash("sha256").update(res.rawPayload).digest("hex"),
  };
  const body = JSON.parse(res.body) as { data?: unknown; meta?: { total?: number | null } };
  if (body.meta && "total" in body.meta) entry.total = body.meta.total ?? null;
  if (Array.isArray(body.data)) {
    entry.first = body.data
      .slice(0, 3)
      .map(
        (r: { slug?: string | null; full_name?: string | null; name?: string | null; key?: string }) =>
          r.slug ?? r.key ?? `(${r.full_name ?? r.name})`,
      );
  }
  return entry;
}

export function readGolden(): GoldenEntry[] {
  return readFileSync(GOLDEN_FILE, "utf8")
    .trim()
    .split("\n")
    .slice(1, -1)
    .map((line) => JSON.parse(line.replace(/,$/, "")) as GoldenEntry);
}

async function write(): Promise<void> {
  const built = await buildApp({ rateLimit: false, logger: false });
  try {
    const entries: GoldenEntry[] = [];
    for (const path of goldenPaths()) entries.push(await goldenAnswer(built.app, built.ctx.spec.basePath, path));
    // One entry per line: reviewable diffs.
    writeFileSync(GOLDEN_FILE, `[\n${entries.map((e) => JSON.stringify(e)).join(",\n")}\n]\n`);
    console.log(`wrote ${entries.length} answers to ${GOLDEN_FILE}`);
  } finally {
    await built.app.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv.includes("--write")) {
  write().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
