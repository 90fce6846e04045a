// What mocks/prism/README.md says the mock does, checked against the mock (in this process, on a free port):
// the query stand-ins for Prefer, with the curl the README prints, and the 401 a keyless address bar gets.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../contract-core/index.js";
import { startMock, type RunningMock } from "./server.js";

const README = readFileSync(join(REPO_ROOT, "mocks/prism/README.md"), "utf8");
const DOCUMENTED_BASE = "http://127.0.0.1:4010/v1";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, quiet: true });
});
afterAll(async () => mock?.close());

describe("the query stand-ins for Prefer, as the README shows them", () => {
  const paragraph = README.slice(README.indexOf("Where `Prefer` cannot be set"));
  const curl = /`curl -H '([^:]+): ([^']+)' '([^']+)'`/.exec(paragraph);

  it("the README's curl gets the named example", async () => {
    expect(curl, "the paragraph shows a curl with one header and a URL").not.toBeNull();
    const [, header, value, url] = curl!;
    expect(url!.startsWith(DOCUMENTED_BASE)).toBe(true);
    const res = await fetch(url!.replace(DOCUMENTED_BASE, mock.baseUrl), { headers: { [header!]: value! } });
    expect(res.status).toBe(200);
    // The stand-in answers as the header would: the same named example.
    const example = new URL(url!).searchParams.get("__example")!;
    const viaHeader = await fetch(`${mock.baseUrl}/people`, {
      headers: { [header!]: value!, prefer: `example=${example}` },
    });
    expect(viaHeader.headers.get("preference-applied")).toBe(`example=${example}`);
    expect(await res.json()).toEqual(await viaHeader.json());
  });

  it("the same URL from an address bar (no key) is the 401 the README says", async () => {
    expect(paragraph).toMatch(/address bar\s+sends no key, so the mock answers it `401`/);
    const [, , , url] = curl!;
    const res = await fetch(url!.replace(DOCUMENTED_BASE, mock.baseUrl));
    expect(res.status).toBe(401);
  });
});
