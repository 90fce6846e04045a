// The Host check against DNS rebinding: loopback names, IP addresses and the names given are answered; any
// other name, a malformed Host, or a name that only ends like an allowed one is refused.
import { describe, expect, it } from "vitest";
import { foreignHostProblem, hostNameOf } from "./host-guard.js";

describe("foreignHostProblem", () => {
  it.each([
    "localhost",
    "localhost:4011",
    "LOCALHOST.",
    "app.localhost:5173",
    "127.0.0.1:4011",
    "10.0.0.7",
    "[::1]:4011",
    "[fe80::1]",
    "sandbox.test:80",
  ])("answers %s", (host) => {
    expect(foreignHostProblem(host, ["127.0.0.1", "sandbox.test"])).toBeNull();
  });

  it.each([
    "evil.example:4011",
    "localhost.evil.example",
    "evil-localhost",
    "sandbox.test.evil.example",
    "127.0.0.1.nip.io",
    "bad host",
    "a:b:c",
    "",
  ])("refuses %s, naming it (negative)", (host) => {
    expect(foreignHostProblem(host, ["127.0.0.1", "sandbox.test"])).toMatch(/not Host /);
  });

  it("reads the name of a Host without port, case or trailing dot", () => {
    expect(hostNameOf("Sandbox.Test.:4011")).toBe("sandbox.test");
    expect(hostNameOf("[::1]:80")).toBe("[::1]");
    expect(hostNameOf("x/y")).toBeNull();
  });
});
