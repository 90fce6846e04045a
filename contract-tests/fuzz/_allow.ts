import { startMock } from "../../mocks/prism/server.js";
import { startSandbox } from "../../mocks/sandbox/server.js";
import { testKey } from "../../mocks/sandbox/testing/harness.js";
import { runFuzz } from "./runner.js";
import { IN_SUITE_RUN } from "./suite-run.js";
const seed = Number(process.argv[2] ?? IN_SUITE_RUN.seed);
const requests = Number(process.argv[3] ?? IN_SUITE_RUN.requests);
const groups = new Map<string, number>();
const mock = await startMock({ port: 0, quiet: true });
const m = await runFuzz({ ...IN_SUITE_RUN, seed, requests, timeLimitMs: 600_000, baseUrl: mock.baseUrl, key: "test" });
await mock.close();
const sb = await startSandbox({ host: "127.0.0.1", port: 0, rateLimit: false, people: 1000, companies: 80, jobSpeed: 0 });
const s = await runFuzz({ ...IN_SUITE_RUN, seed, requests, timeLimitMs: 600_000, baseUrl: sb.baseUrl, key: testKey("acme"), revokedKey: testKey("revoked") });
await sb.close();
for (const [t, r] of [["mock", m], ["sandbox", s]] as const) {
  console.log(t, r.durationMs, "ms", JSON.stringify(r.checks));
  for (const f of r.failures) {
    const k = `${t} ${f.check} ${f.operationId} ${f.request.mutation?.split(" ").slice(0, 2).join(" ") ?? "(valid)"}`;
    groups.set(k, (groups.get(k) ?? 0) + f.count);
  }
}
for (const [k, n] of [...groups].sort()) console.log(k, n);
