/**
 * `npm run docs:preview`: serves the reference at http://127.0.0.1:4000 and rebuilds it when the spec
 * changes; open pages reload themselves (server-sent events).
 *
 * Source: the split spec (`spec/openapi.yaml`, bundled with Redocly on each change) when it exists,
 * else `generated/openapi.json`. Options: --port <n> (0 = any free port), --spec <file> (a bundle or a
 * root file to watch instead).
 *
 * Redocly's own `redocly preview` is not used: it fetches the Redocly Realm package with npx at run time.
 */
import { once } from "node:events";
import { existsSync, watch, type FSWatcher } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import { buildDocs, DEFAULT_SPEC, displayPath, ROOT } from "./build.js";
import { connectSources, withReferenceCsp } from "./csp.js";
import { servePage } from "./http.js";
import type { OpenApiDoc } from "./openapi.js";
import {
  bundleSpec,
  COMMON_OPTIONS,
  describeListenError,
  escapeTerminalText,
  isMain,
  portValue,
  runCommand,
  type CommandSpec,
} from "../../contract-core/index.js";

export const RELOAD_PATH = "/__docs-reload";
const RELOAD_SCRIPT = `<script>new EventSource(${JSON.stringify(RELOAD_PATH)}).onmessage = () => location.reload();</script>`;
const SPLIT_ROOT = path.join(ROOT, "spec", "openapi.yaml");

export interface PreviewOptions {
  port?: number;
  /** A bundle (.json) or a split-spec root (.yaml); its folder is watched. */
  spec?: string;
  log?: (line: string) => void;
}

export interface Preview {
  url: string;
  /** Resolves after the next rebuild attempt (for tests). */
  nextBuild: () => Promise<void>;
  close: () => Promise<void>;
}

export async function startPreview(options: PreviewOptions = {}): Promise<Preview> {
  const log = options.log ?? ((line: string) => console.log(line));
  const spec = path.resolve(options.spec ?? (existsSync(SPLIT_ROOT) ? SPLIT_ROOT : DEFAULT_SPEC));
  const scratch = await mkdtemp(path.join(os.tmpdir(), "talent-graph-docs-preview-"));
  const clients = new Set<http.ServerResponse>();
  let page = "";
  let failure = "";
  const built = new EventTarget();

  const build = async () => {
    const started = Date.now();
    try {
      const source = spec.endsWith(".json") ? { specPath: spec } : { doc: bundleSpec(spec) as OpenApiDoc };
      const result = await buildDocs({ ...source, outFile: path.join(scratch, "index.html") });
      // The reload script and its event stream (this server: 'self') join the page's policy.
      const fresh = await readFile(result.outFile, "utf8");
      page = withReferenceCsp(injectReload(fresh), [...connectSources(fresh), "'self'"]);
      failure = "";
      for (const warning of result.warnings) log(`warning: ${escapeTerminalText(warning)}`);
      log(`rebuilt in ${Date.now() - started} ms (${result.operations} operations)`);
      for (const client of clients) client.write("data: reload\n\n");
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
      // The message can quote the spec: its control characters are shown, never sent to the terminal.
      log(`build failed, still serving the last good page:\n${escapeTerminalText(failure)}`);
    } finally {
      built.dispatchEvent(new Event("built"));
    }
  };
  // One build at a time; a change during a build asks for exactly one more after it.
  let building: Promise<void> | undefined;
  let again = false;
  const rebuild = (): Promise<void> => {
    again = building !== undefined;
    building ??= (async () => {
      do {
        again = false;
        await build();
      } while (again);
      building = undefined;
    })();
    return building;
  };

  const server = await servePage(
    options.port ?? 4000,
    () => ({
      status: page ? 200 : 503,
      body: page || `<!doctype html><pre>${escapeHtml(failure || "Building the docs...")}</pre>${RELOAD_SCRIPT}`,
    }),
    (pathname, req, res) => {
      if (pathname !== RELOAD_PATH) return false;
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      res.write(": connected\n\n");
      clients.add(res);
      req.on("close", () => clients.delete(res));
      return true;
    },
  );
  const url = `${server.origin}/`;

  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(path.dirname(spec), { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(() => void rebuild(), 200);
  });
  log(`watching ${displayPath(path.dirname(spec))}/; serving ${url}`);
  void rebuild();

  return {
    url,
    nextBuild: async () => void (await once(built, "built")),
    close: async () => {
      clearTimeout(timer);
      watcher.close();
      for (const client of clients) client.end();
      await server.close();
      await building;
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

/** Adds the reload script before the page's own `</body>` (the last one: the inlined bundle has others). */
export function injectReload(html: string): string {
  const end = html.lastIndexOf("</body>");
  return end < 0 ? html + RELOAD_SCRIPT : `${html.slice(0, end)}${RELOAD_SCRIPT}\n${html.slice(end)}`;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c] ?? c);

export const PREVIEW_COMMAND: CommandSpec = {
  name: "npm run docs:preview",
  summary: "Serves the API reference on 127.0.0.1 and rebuilds it, reloading the page, when the spec changes.",
  options: {
    port: COMMON_OPTIONS.port("4000"),
    spec: { ...COMMON_OPTIONS.spec("spec/openapi.yaml if present, else generated/openapi.json"), default: undefined },
  },
};

if (isMain(import.meta.url)) {
  await runCommand(PREVIEW_COMMAND, async ({ values }) => {
    const port = portValue(PREVIEW_COMMAND, values.port);
    // The handlers are in place before the start prints its address (a signal sent as soon as it is read would
    // otherwise end the process by the default action); a second signal while closing waits for the first.
    let preview: Preview | undefined;
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      if (preview) void preview.close().then(() => process.exit(0));
      else process.exit(0);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    try {
      preview = await startPreview({ port, ...(typeof values.spec === "string" ? { spec: values.spec } : {}) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code)
        throw new Error(describeListenError(error, port, "127.0.0.1"), { cause: error });
      throw error;
    }
  });
}
