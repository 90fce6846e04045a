import { getValidator } from "./lib/index.js";
const v = getValidator();
const ex = { request: { method: "GET", url: "/v1/people?company=northwind&limit=25&offset=0", headers: { authorization: "Bearer [redacted]" }, body: null }, response: { status: 400, headers: {"content-type": "application/json"}, body: {error: {type: "invalid_request", message: "x"}} } };
for (const [name, fn] of [["validate", () => v.validate(ex as any)], ["validateResponse", () => v.validateResponse(ex as any)], ["matchRoute", () => v.matchRoute("GET", ex.request.url)], ["url", () => new URL(ex.request.url, "http://x.invalid")]] as const) {
  for (let i = 0; i < 2000; i++) fn();
  const t = performance.now(); for (let i = 0; i < 20000; i++) fn(); console.log(name, ((performance.now() - t) / 20000 * 1000).toFixed(1), "µs");
}
