// The node-free entry stays node-free (and the client's import Ajv-free), and the shared wording and base path it exports.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { requestWording, serverBasePath, serverUrl } from "./portable.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)/gm;

/** Every package or built-in a file reaches through its relative imports (type-only imports included). */
function reachedPackages(file: string, seen = new Set<string>(), out = new Set<string>()): Set<string> {
  if (seen.has(file)) return out;
  seen.add(file);
  const code = readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  for (const m of code.matchAll(IMPORT)) {
    const spec = (m[1] ?? m[2])!;
    if (spec.startsWith(".")) reachedPackages(resolve(dirname(file), spec.replace(/\.js$/, ".ts")), seen, out);
    else out.add(spec);
  }
  return out;
}

describe("contract-core's node-free entry", () => {
  it("portable.ts reaches no node: module, and of the packages only the schema checker (Ajv stays out of pages)", () => {
    const reached = [...reachedPackages(resolve(HERE, "portable.ts"))];
    expect(reached.filter((s) => s.startsWith("node:"))).toEqual([]);
    expect(reached).toEqual(["@cfworker/json-schema"]);
  });

  it("the client's import (error-vocabulary.ts) reaches no package at all", () => {
    expect([...reachedPackages(resolve(HERE, "error-vocabulary.ts"))]).toEqual([]);
  });

  it("the check sees node: modules where they are (index.ts loads files)", () => {
    const reached = [...reachedPackages(resolve(HERE, "index.ts"))];
    expect(reached).toContain("node:fs");
    expect(reached).toContain("node:path");
  });
});

describe("serverUrl and serverBasePath", () => {
  const withOrigin = { servers: [{ url: "{origin}/v1/", variables: { origin: { default: "https://api.example" } } }] };

  it("resolve the first server URL with its variables at their defaults, without a trailing slash", () => {
    expect(serverUrl(withOrigin)).toBe("https://api.example/v1");
    expect(serverUrl({ servers: [{ url: "/v1/" }] })).toBe("/v1");
    expect(serverUrl({})).toBe("");
    expect(() => serverUrl({ servers: [{ url: "{origin}/v1" }] })).toThrow('Server variable "origin" has no default');
  });

  it("reads the path of the first server URL, variables at their defaults", () => {
    expect(serverBasePath(withOrigin)).toBe("/v1");
    expect(serverBasePath({ servers: [{ url: "/v1/" }] })).toBe("/v1");
    expect(serverBasePath({ servers: [{ url: "https://api.example/v2/" }, { url: "/v1" }] })).toBe("/v2");
  });

  it("is empty without a server, a URL or a path", () => {
    expect(serverBasePath({})).toBe("");
    expect(serverBasePath({ servers: [] })).toBe("");
    expect(serverBasePath({ servers: [{ description: "no url" }] })).toBe("");
    expect(serverBasePath({ servers: [{ url: "https://api.example" }] })).toBe("");
  });
});

describe("requestWording", () => {
  it("words the answers both servers give", () => {
    expect(requestWording.invalidJsonBody("Unexpected end of JSON input")).toBe(
      "invalid JSON body: Unexpected end of JSON input",
    );
    expect(requestWording.notAnOperation("GET /v1/peoples")).toBe("GET /v1/peoples is not an operation of this API");
    expect(requestWording.notAnOperation("GET /people", "/v1")).toBe(
      "GET /people is not an operation of this API (paths start with /v1)",
    );
    expect(requestWording.noDocumentedResponse("GET /v1/people", 418)).toBe(
      "GET /v1/people documents no 418 response (Prefer code=418)",
    );
    expect(requestWording.noNamedExample("GET /v1/people", "nope")).toBe(
      'GET /v1/people has no example named "nope" (Prefer example=; see mocks/prism/EXAMPLES.md)',
    );
    expect(requestWording.noNamedExample("GET /v1/people", "nope", 200)).toBe(
      'GET /v1/people has no example named "nope" for status 200 (Prefer example=; see mocks/prism/EXAMPLES.md)',
    );
  });
});
