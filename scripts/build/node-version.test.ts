// The one line an entry point says on a Node it does not support, and silence on the ones it does.
import { describe, expect, it } from "vitest";
import { REQUIRED_NODE, unsupportedNode } from "./node-version.js";

describe("unsupportedNode", () => {
  it("names the Node needed on an older one", () => {
    expect(unsupportedNode("20.20.2")).toBe(
      `talent-graph-api-contract needs Node ${REQUIRED_NODE} or later (22.12+, 24 or 26); this is Node 20.20.2`,
    );
    expect(unsupportedNode("22.11.0")).toMatch(/needs Node 22\.12 or later/);
  });
  it("says nothing on a supported one", () => {
    for (const version of ["22.12.0", "22.23.3", "24.21.0", "26.10.0"])
      expect(unsupportedNode(version)).toBeUndefined();
  });
  it("holds the same Node as package.json's engines", async () => {
    const { readFileSync } = await import("node:fs");
    const engines = (
      JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { engines: { node: string } }
    ).engines.node;
    expect(engines).toContain(`^${REQUIRED_NODE}.0`);
  });
});
