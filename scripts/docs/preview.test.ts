/**
 * `npm run docs:preview`: serves the page with a reload hook, rebuilds on a spec change and tells open
 * pages to reload, and keeps serving the last good page when a change breaks the build.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureSpec } from "./fixtures/fixture-spec.js";
import { injectReload, RELOAD_PATH, startPreview, type Preview } from "./preview.js";

const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

describe("docs preview", () => {
  let dir = "";
  let spec = "";
  let preview: Preview | undefined;
  const logs: string[] = [];
  const events = new AbortController();
  let received = "";

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "docs-preview-"));
    spec = path.join(dir, "openapi.json");
    await writeFile(spec, JSON.stringify(fixtureSpec));
    preview = await startPreview({ port: 0, spec, log: (line) => logs.push(line) });
    await preview.nextBuild();
    const stream = await fetch(new URL(RELOAD_PATH, preview.url), { signal: events.signal });
    const reader = stream.body!.getReader();
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += Buffer.from(value).toString();
      }
    })().catch(() => undefined);
  });

  afterAll(async () => {
    events.abort();
    await preview?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("serves the built page on 127.0.0.1 with the reload hook", async () => {
    expect(preview?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const response = await fetch(preview!.url);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(title(html)).toBe("Talent Graph API (fixture) 1.0.0");
    expect(html).toContain(`new EventSource("${RELOAD_PATH}")`);
    expect((await fetch(new URL("/elsewhere", preview!.url))).status).toBe(404);
  });

  it("rebuilds on a spec change and tells open pages to reload", async () => {
    const next = preview!.nextBuild();
    await writeFile(spec, JSON.stringify({ ...fixtureSpec, info: { ...fixtureSpec.info, title: "Changed title" } }));
    await next;
    expect(title(await (await fetch(preview!.url)).text())).toBe("Changed title 1.0.0");
    await expect.poll(() => received).toContain("data: reload");
  });

  it("keeps serving the last good page when the spec breaks", async () => {
    const next = preview!.nextBuild();
    await writeFile(spec, "{ not json");
    await next;
    expect(logs.join("\n")).toContain("build failed, still serving the last good page");
    const response = await fetch(preview!.url);
    expect(response.status).toBe(200);
    expect(title(await response.text())).toBe("Changed title 1.0.0");
  });

  it("answers only a loopback name or an IP address in Host, as the sandbox and the mock do (DNS rebinding)", async () => {
    const { port } = new URL(preview!.url);
    const ask = (host: string | undefined) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({
          host: "127.0.0.1",
          port,
          path: "/",
          setHost: host !== undefined,
          headers: host ? { host } : {},
        });
        req.on("response", (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
    const foreign = await ask(`attacker.example:${port}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body).not.toContain("<html");
    expect((await ask(`evil.example:${port}`)).status).toBe(403);
    expect((await ask(undefined)).status).toBe(400);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `docs.localhost:${port}`])
      expect((await ask(host)).status).toBe(200);
  });

  it("injects the reload hook before the page's own closing body tag", () => {
    const html = injectReload('<html><body><script>const s = "</body>";</script></body></html>');
    expect(html).toMatch(/const s = "<\/body>";<\/script><script>new EventSource[^<]*<\/script>\n<\/body><\/html>$/);
  });
});
