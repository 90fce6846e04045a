/**
 * A release against a real registry: a local Verdaccio on 127.0.0.1 (no uplinks: it reaches nothing else), seeded
 * with the consumer's dependencies from the exact tarballs this checkout installed (npm's cache, offline). In a
 * scratch clone, `npm run release -- --publish` publishes the first release; a fresh consumer project installs it
 * with the notes' install line, type-checks a client call with tsc and runs one MSW kit handler. Then a scratch
 * breaking change (a List's member_count made optional, with its spec/BREAKING.md entry and migration line) is
 * released as the next major: the consumer's `npm outdated` sees a major upgrade, and after it tsc names the change.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSUMER_COMPILER_OPTIONS } from "../build/build.js";
import { repoRoot } from "../generate.js";

const lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as {
  packages: Record<
    string,
    {
      name?: string;
      version?: string;
      resolved?: string;
      integrity?: string;
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      dev?: boolean;
    }
  >;
};
const MSW = lock.packages["node_modules/msw"]!.version!;
const NAME = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).name as string;

/** The lock entries a consumer of the package and msw needs: the dependency closure, resolved as npm resolves. */
type Locked = { name: string; version: string; resolved: string; integrity?: string };
function closure(roots: string[]): Locked[] {
  const seen = new Map<string, Locked>();
  const visit = (at: string) => {
    const entry = lock.packages[at];
    if (!entry || seen.has(at)) return;
    const name = entry.name ?? at.slice(at.lastIndexOf("node_modules/") + "node_modules/".length);
    // The lock omits registry URLs (omit-lockfile-registry-resolved): npm fetched, and cached, this one.
    const resolved =
      entry.resolved ?? `https://registry.npmjs.org/${name}/-/${name.split("/").pop()}-${entry.version}.tgz`;
    seen.set(at, {
      name,
      version: entry.version!,
      resolved,
      ...(entry.integrity ? { integrity: entry.integrity } : {}),
    });
    const optional = entry.peerDependenciesMeta ?? {};
    const deps = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((d) => !optional[d]?.optional),
    ];
    for (const dep of deps) {
      let dir = at;
      for (;;) {
        const candidate = `${dir}/node_modules/${dep}`;
        if (lock.packages[candidate]) {
          visit(candidate);
          break;
        }
        const up = dir.lastIndexOf("/node_modules/");
        if (up < 0) {
          visit(`node_modules/${dep}`);
          break;
        }
        dir = dir.slice(0, up);
      }
    }
  };
  for (const r of roots) visit(`node_modules/${r}`);
  return [...new Map([...seen.values()].map((d) => [`${d.name}@${d.version}`, d])).values()];
}

/** The package's own package.json inside a package tarball: at its top folder (`package/`, or another name). */
function tarballManifest(tgz: Buffer): unknown {
  const tar = gunzipSync(tgz);
  for (let at = 0; at + 512 <= tar.length;) {
    const field = (from: number, length: number) =>
      tar
        .subarray(at + from, at + from + length)
        .toString("utf8")
        .replace(/\0.*$/s, "");
    const name = field(0, 100);
    if (name === "") break;
    const prefix = field(345, 155);
    const size = parseInt(field(124, 12).trim() || "0", 8);
    const full = prefix ? `${prefix}/${name}` : name;
    if (/^[^/]+\/package\.json$/.test(full) && "0\0".includes(field(156, 1) || "\0"))
      return JSON.parse(tar.subarray(at + 512, at + 512 + size).toString("utf8"));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error("no package.json at the top folder of the tarball");
}

/**
 * The tarball npm's cache holds for a lock entry's integrity, read from the cache's content-addressed store
 * (cacache's content-v2/<algorithm>/<hex digest split 2/2/rest>) and checked against that integrity; undefined
 * when the cache has no such file. One file read instead of an npm process per run of the seeding.
 */
function cachedTarball(integrity: string | undefined): Buffer | undefined {
  const [algorithm, digest] = integrity?.split("-") ?? [];
  if (algorithm !== "sha512" || !digest) return undefined;
  const hex = Buffer.from(digest, "base64").toString("hex");
  const cache = process.env.npm_config_cache || path.join(os.homedir(), ".npm");
  const file = path.join(cache, "_cacache", "content-v2", algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
  if (!existsSync(file)) return undefined;
  const data = readFileSync(file);
  if (createHash("sha512").update(data).digest("base64") !== digest) throw new Error(`${file}: not ${integrity}`);
  return data;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const CONSUMER_TS = (name: string) => `
import { createTalentGraphClient } from "${name}/client";
import { createSandboxHandlers } from "${name}/msw";
import { setupServer } from "msw/node";

const sandbox = createSandboxHandlers({ baseUrl: "http://app.test/v1", seed: 7 });
const server = setupServer(...sandbox.handlers);
server.listen({ onUnhandledFrame: "error" });
const client = createTalentGraphClient({ baseUrl: "http://app.test/v1", apiKey: sandbox.keys.acme });
const lists = await client.GET("/lists");
const count: number = lists.data!.data[0]!.member_count;
console.log(JSON.stringify({ status: lists.response.status, count }));
server.close();
sandbox.close();
`;

describe("a release published to a local registry and installed by a consumer", () => {
  let work = "";
  let verdaccio: ChildProcess | undefined;
  let registry = "";
  let scratch = "";
  let consumer = "";
  let env: NodeJS.ProcessEnv = {};
  const npm = (args: string[], cwd: string) => {
    const run = spawnSync("npm", [...args, "--loglevel=error"], { cwd, env, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`npm ${args.join(" ")} failed:\n${run.stdout}${run.stderr}`);
    return run.stdout;
  };
  const releaseIn = (cwd: string) => {
    const run = spawnSync("npm", ["run", "--silent", "release", "--", "--publish", "--registry", registry], {
      cwd,
      env,
      encoding: "utf8",
    });
    return { code: run.status, out: `${run.stdout}${run.stderr}` };
  };
  /**
   * The consumer's tsc. Both runs (after each install) parse each file whose text is unchanged (the libraries, msw,
   * openapi-fetch) once: a file is parsed again when its text differs, as the package's declarations do after the
   * upgrade.
   */
  const parsed = new Map<string, ts.SourceFile>();
  const consumerTsc = () => {
    const host = ts.createCompilerHost(CONSUMER_COMPILER_OPTIONS);
    const parse = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, ...rest) => {
      const known = parsed.get(fileName);
      if (known && known.text === host.readFile(fileName)) return known;
      const file = parse(fileName, ...rest);
      if (file) parsed.set(fileName, file);
      return file;
    };
    const program = ts.createProgram([path.join(consumer, "consumer.ts")], CONSUMER_COMPILER_OPTIONS, host);
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  };
  const installedVersion = () =>
    (JSON.parse(readFileSync(path.join(consumer, "node_modules", NAME, "package.json"), "utf8")) as { version: string })
      .version;

  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), "talent-graph-registry-"));
    const port = await freePort();
    registry = `http://127.0.0.1:${port}/`;
    writeFileSync(
      path.join(work, "verdaccio.yaml"),
      [
        `storage: ${path.join(work, "storage")}`,
        "uplinks: {}",
        "packages:",
        "  '**':",
        "    access: $all",
        "    publish: $all",
        "max_body_size: 200mb",
        "web:",
        "  enable: false",
        "log: { type: stdout, format: pretty, level: warn }",
        "",
      ].join("\n"),
    );
    verdaccio = spawn(
      process.execPath,
      [
        path.join(repoRoot, "node_modules/verdaccio/bin/verdaccio"),
        "--config",
        path.join(work, "verdaccio.yaml"),
        "--listen",
        `127.0.0.1:${port}`,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    for (let i = 0; ; i += 1) {
      const ok = await fetch(`${registry}-/ping`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (i > 600 || verdaccio.exitCode !== null) throw new Error("verdaccio did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    // npm talks to the local registry only: a throwaway token, and a dead proxy for anything else.
    const npmrc = path.join(work, "npmrc");
    writeFileSync(
      npmrc,
      [
        `registry=${registry}`,
        `//127.0.0.1:${port}/:_authToken=local-test-token`,
        "https-proxy=http://127.0.0.1:9",
        "noproxy=127.0.0.1",
        "audit=false",
        "fund=false",
        "update-notifier=false",
        "",
      ].join("\n"),
    );
    env = {
      ...process.env,
      npm_config_userconfig: npmrc,
      npm_config_registry: registry,
      GIT_AUTHOR_NAME: "release test",
      GIT_AUTHOR_EMAIL: "release@test.invalid",
      GIT_COMMITTER_NAME: "release test",
      GIT_COMMITTER_EMAIL: "release@test.invalid",
      NO_COLOR: "1",
    };
    // The consumer's dependencies, from the tarballs npm installed this checkout with (its cache, offline):
    // read from the cache by their lock integrity, and through `npm pack --offline` for any the cache holds
    // under another key.
    const deps = closure(["fastify", "openapi-fetch", "msw"]);
    type Tarball = { name: string; data: Buffer; integrity: string; shasum: string };
    const tarball = (name: string, data: Buffer): Tarball => ({
      name,
      data,
      integrity: `sha512-${createHash("sha512").update(data).digest("base64")}`,
      shasum: createHash("sha1").update(data).digest("hex"),
    });
    const packed: Tarball[] = [];
    const uncached: Locked[] = [];
    for (const d of deps) {
      const data = cachedTarball(d.integrity);
      if (data) packed.push(tarball(d.name, data));
      else uncached.push(d);
    }
    if (uncached.length > 0) {
      const tarballs = path.join(work, "tarballs");
      mkdirSync(tarballs);
      const report = JSON.parse(
        execFileSync(
          "npm",
          ["pack", "--offline", "--json", "--pack-destination", tarballs, ...uncached.map((d) => d.resolved)],
          {
            cwd: work,
            encoding: "utf8",
            env: { ...process.env, npm_config_registry: "https://registry.npmjs.org/" },
            stdio: ["ignore", "pipe", "pipe"],
            maxBuffer: 64 * 1024 * 1024,
          },
        ),
      ) as { name: string; filename: string }[];
      for (const p of report) packed.push(tarball(p.name, readFileSync(path.join(tarballs, p.filename))));
    }
    const seed = async (p: Tarball) => {
      const data = p.data;
      const manifest = tarballManifest(data) as { name: string; version: string };
      const base = manifest.name.split("/").pop();
      const attachment = `${base}-${manifest.version}.tgz`;
      const body = {
        _id: manifest.name,
        name: manifest.name,
        "dist-tags": { latest: manifest.version },
        versions: {
          [manifest.version]: {
            ...manifest,
            _id: `${manifest.name}@${manifest.version}`,
            dist: { integrity: p.integrity, shasum: p.shasum, tarball: `${registry}${manifest.name}/-/${attachment}` },
          },
        },
        _attachments: {
          [attachment]: {
            content_type: "application/octet-stream",
            data: data.toString("base64"),
            length: data.length,
          },
        },
      };
      const res = await fetch(`${registry}${manifest.name.replace("/", "%2f")}`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: "Bearer local-test-token" },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`seeding ${manifest.name}@${manifest.version}: ${res.status} ${await res.text()}`);
    };
    // Several packages at a time (the registry answers one while the next is read and encoded); the versions
    // of one package one after the other, each added to the package's document.
    const byName = new Map<string, typeof packed>();
    for (const p of packed) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
    const groups = [...byName.values()];
    for (let i = 0; i < groups.length; i += 8)
      await Promise.all(
        groups.slice(i, i + 8).map(async (versions) => {
          for (const p of versions) await seed(p);
        }),
      );
    // A scratch clone of this checkout's commit, releasing with this checkout's installed toolchain.
    scratch = path.join(work, "repo");
    execFileSync("git", ["clone", "--quiet", "--no-tags", repoRoot, scratch], { env });
    symlinkSync(path.join(repoRoot, "node_modules"), path.join(scratch, "node_modules"), "dir");
    consumer = path.join(work, "consumer");
    mkdirSync(consumer);
    writeFileSync(
      path.join(consumer, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }),
    );
  });

  afterAll(() => {
    verdaccio?.kill("SIGTERM");
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("publishes the first release; the consumer installs it, tsc passes, a kit handler answers", () => {
    const first = releaseIn(scratch);
    expect(first.out).toContain(`Released ${NAME}@1.0.0`);
    expect(first.code).toBe(0);
    const notes = readFileSync(path.join(scratch, "dist/release/v1.0.0.md"), "utf8");
    const install = /Install: `(npm install \S+)`/.exec(notes)![1]!;
    expect(install).toBe(`npm install ${NAME}@1.0.0`);
    npm([...install.split(" ").slice(1), `msw@${MSW}`], consumer);
    writeFileSync(path.join(consumer, "consumer.ts"), CONSUMER_TS(NAME));
    const tsc = consumerTsc();
    console.log(
      `installed ${NAME}@${installedVersion()}; consumer tsc: ${tsc.length === 0 ? "no errors" : tsc.join("; ")}`,
    );
    expect(installedVersion()).toBe("1.0.0");
    expect(tsc).toEqual([]);
    const js = ts.transpileModule(CONSUMER_TS(NAME), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(path.join(consumer, "consumer.mjs"), js);
    const out = execFileSync("node", ["consumer.mjs"], { cwd: consumer, encoding: "utf8", env });
    console.log(`consumer run under msw/node: ${out.trim()}`);
    expect(JSON.parse(out.trim().split("\n").at(-1)!)).toEqual({ status: 200, count: expect.any(Number) });
  });

  it("releases a breaking change as 2.0.0, which the consumer sees as a major upgrade", () => {
    const list = path.join(scratch, "spec/components/schemas/List.yaml");
    writeFileSync(list, readFileSync(list, "utf8").replace("member_count, created_at", "created_at"));
    const markers = path.join(scratch, "spec/BREAKING.md");
    writeFileSync(
      markers,
      `${readFileSync(markers, "utf8").trimEnd()}\n${["List", "CreatedList"]
        .map(
          (schema) =>
            `- \`response-property-optional\` \`*\` \`#/components/schemas/${schema}/properties/member_count\` — counting members is optional now. Migration: treat a missing member_count as unknown and count with GET /lists/{id}/members.`,
        )
        .join("\n")}\n`,
    );
    execFileSync("git", ["commit", "--quiet", "-am", "scratch: member_count optional"], { cwd: scratch, env });
    const second = releaseIn(scratch);
    expect(second.out, second.out).toContain(`Released ${NAME}@2.0.0`);
    const notes = readFileSync(path.join(scratch, "dist/release/v2.0.0.md"), "utf8");
    console.log(notes);
    expect(notes).toContain("Migration: treat a missing member\\_count as unknown");
    const outdated = spawnSync("npm", ["outdated", "--json", "--loglevel=error"], {
      cwd: consumer,
      env,
      encoding: "utf8",
    });
    const seen = (JSON.parse(outdated.stdout) as Record<string, { current: string; wanted: string; latest: string }>)[
      NAME
    ]!;
    console.log(`npm outdated: ${JSON.stringify(seen)}`);
    expect(seen).toMatchObject({ current: "1.0.0", wanted: "1.0.0", latest: "2.0.0" });
    npm(["install", `${NAME}@2.0.0`], consumer);
    const tsc = consumerTsc();
    console.log(`installed ${NAME}@${installedVersion()}; consumer tsc: ${tsc.join("; ")}`);
    expect(installedVersion()).toBe("2.0.0");
    expect(tsc.join("\n")).toMatch(/undefined/);
  });
});
