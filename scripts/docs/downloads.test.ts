/** The download section links both files, and the files written are the bundle, as JSON and as YAML. */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { DEFAULT_SPEC, readBundle } from "./build.js";
import { DOWNLOAD_SECTION, withDownloadLinks, writeDownloads } from "./downloads.js";

describe("the OpenAPI document for download", () => {
  it("writes the bundle beside the page as JSON and YAML, each parsing to the bundle", async () => {
    const bundle = await readBundle(DEFAULT_SPEC);
    const dir = await mkdtemp(path.join(os.tmpdir(), "talent-graph-downloads-"));
    try {
      const [json, yaml] = await writeDownloads(bundle, dir);
      expect(JSON.parse(await readFile(json!, "utf8"))).toEqual(bundle);
      expect(parse(await readFile(yaml!, "utf8"))).toEqual(bundle);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("ends the guides with a section linking both files, leaving the bundle as it was", async () => {
    const bundle = await readBundle(DEFAULT_SPEC);
    const before = JSON.stringify(bundle);
    const description = String((withDownloadLinks(bundle).info as { description: string }).description);
    expect(description).toMatch(
      new RegExp(`\\n## ${DOWNLOAD_SECTION}\\n\\n[^\\n]*\\(openapi\\.json\\)[^\\n]*\\(openapi\\.yaml\\)`),
    );
    expect(JSON.stringify(bundle)).toBe(before);
  });
});
