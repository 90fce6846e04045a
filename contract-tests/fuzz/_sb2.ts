import { startSandbox } from "../../mocks/sandbox/server.js";
import { testKey } from "../../mocks/sandbox/testing/harness.js";
import { runFuzz } from "./runner.js";
const sb = await startSandbox({ host: "127.0.0.1", port: 0, rateLimit: false, people: 1000, companies: 80, jobSpeed: 0 });
const s = await runFuzz({ seed: Number(process.argv[2]), requests: Number(process.argv[3]), concurrency: 8, timeLimitMs: 600_000, baseUrl: sb.baseUrl, key: testKey("acme"), revokedKey: testKey("revoked"), operations: process.argv[4] ? process.argv[4].split(",") : undefined });
await sb.close();
for (const f of s.failures) if (!/huge_value|non_finite/.test(f.request.mutation ?? "")) console.log(f.check, f.operationId, f.status, f.count, f.request.mutation, "\n  ", f.message.slice(0, 400), "\n  ", f.curl.slice(0, 400));
