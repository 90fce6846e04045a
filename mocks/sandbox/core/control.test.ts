/** The control step: /__sandbox writes only from their own origin and with a JSON or X-Sandbox-Control header. */
import { describe, expect, it } from "vitest";
import type { ControlRoute, SandboxContext } from "../contract/context.js";
import { ApiError } from "../contract/errors.js";
import { answerControl, controlRoutesOf, refuseCrossSite } from "./control.js";

const refusal = (headers: Record<string, string>) => {
  try {
    refuseCrossSite(headers);
    return "allowed";
  } catch (e) {
    return `${(e as ApiError).status} ${(e as ApiError).message}`;
  }
};

describe("control step", () => {
  it("allows a same-origin write with a JSON content type or the control header", () => {
    expect(
      refusal({ host: "127.0.0.1:4010", origin: "http://127.0.0.1:4010", "content-type": "application/json" }),
    ).toBe("allowed");
    expect(refusal({ "x-sandbox-control": "1" })).toBe("allowed");
  });

  it("refuses a foreign or opaque origin with 403, and a write without either header with 400", () => {
    expect(
      refusal({ host: "127.0.0.1:4010", origin: "https://evil.example", "content-type": "application/json" }),
    ).toBe("403 Control endpoints answer only their own origin, not https://evil.example");
    expect(refusal({ origin: "null", "x-sandbox-control": "1" })).toBe(
      "403 Control endpoints answer only their own origin",
    );
    expect(refusal({ "content-type": "text/plain" })).toMatch(/^400 Control writes need/);
  });

  it("keys the areas' routes by method and path; a read needs no JSON type but no foreign origin reads", async () => {
    const route: ControlRoute = { method: "GET", path: "/__sandbox/state", handle: (body) => ({ body: body ?? null }) };
    const routes = controlRoutesOf([{ name: "probe", handlers: {}, control: [route] }]);
    expect([...routes.keys()]).toEqual(["GET /__sandbox/state"]);
    const read = (headers: Record<string, string>) =>
      answerControl(route, { method: "GET", url: "/__sandbox/state", headers }, "GET", {} as SandboxContext);
    const answer = await read({ host: "127.0.0.1:4011" });
    expect([answer.status, answer.body]).toEqual([200, '{"body":null}']);
    await expect(read({ host: "127.0.0.1:4011", origin: "https://evil.example" })).rejects.toThrow(
      "Control endpoints answer only their own origin, not https://evil.example",
    );
  });
});
