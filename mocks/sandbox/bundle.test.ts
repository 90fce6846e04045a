/** `npm run sandbox` serves a bundle of the sandbox: built whole, each module where it was, answering as the sources do. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../contract-core/index.js";
import { BUNDLE_DIR, buildSandboxBundle } from "./bundle.js";
import { spawnSandbox, type SandboxChild } from "./testing/child.js";
import { testKey } from "./testing/harness.js";

const children: SandboxChild[] = [];
afterAll(async () => {
  const running = children.filter(({ child }) => child.exitCode === null);
  await Promise.all(
    running.map(
      ({ child }) =>
        new Promise((exited) => {
          child.once("exit", exited);
          child.kill("SIGTERM");
        }),
    ),
  );
});

describe("the sandbox bundle", () => {
  it("is one module named by its content, each module keeping its own location, with no naming calls", async () => {
    const path = await buildSandboxBundle();
    expect(path.startsWith(BUNDLE_DIR)).toBe(true);
    expect(path).toMatch(/start-[0-9a-f]{16}\.mjs$/);
    expect(await buildSandboxBundle()).toBe(path);
    const text = readFileSync(path, "utf8");
    expect(text).not.toMatch(/import\.meta\.(url|dirname|filename)/);
    expect(text).toContain(JSON.stringify(pathToFileURL(join(REPO_ROOT, "contract-core", "spec.ts")).href));
    expect(text).not.toContain("__name(");
    expect(text).toMatch(/\/\/# sourceMappingURL=start-[0-9a-f]{16}\.mjs\.map$/m);
    expect(
      JSON.parse(readFileSync(`${path}.map`, "utf8")).sources.some((s: string) => s.endsWith("sandbox/core.ts")),
    ).toBe(true);
  });

  it("answers byte for byte as the sandbox run from its sources", async () => {
    const args = ["--people", "300", "--companies", "40", "--no-rate-limit"];
    const [bundled, source] = await Promise.all([spawnSandbox(args), spawnSandbox(args, { fromSource: true })]);
    children.push(bundled, source);
    const headers = { authorization: `Bearer ${testKey("acme")}` };
    const paths = [
      "/people?location=Europe&role_family=engineering&skills=python;go&limit=25",
      "/people?q=staff+engineer+in+berlin&view=full&limit=5",
      "/companies?limit=3",
      "/people/no-such-person",
      "/people?limit=0",
    ];
    for (const path of paths) {
      const [a, b] = await Promise.all(
        [bundled, source].map(async ({ baseUrl }) => {
          const res = await fetch(`${baseUrl}${path}`, { headers });
          return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
        }),
      );
      expect(a, path).toEqual(b);
      if (path === paths[0]) expect([a.status, a.body.length > 1000]).toEqual([200, true]);
    }
    const missingKey = await fetch(`${bundled.baseUrl}/me`);
    expect(missingKey.status).toBe(401);
  }, 60_000);
});
