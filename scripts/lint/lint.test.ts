/**
 * Each house rule: the clean fixture gives no diagnostic; the fixture changed in exactly one place gives
 * exactly that rule's diagnostic (Zalando/Baloise-style ruleset tests).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../contract-core/index.js";
import { runEslint } from "./eslint.js";
import { codeLintSteps, projectFiles, runSpectral } from "./lint.js";
import { bundleRuleset, houseRules, OPERATION_VERBS, RULES_DOC, RULES_DOC_URL, rootRuleset } from "./ruleset.js";

type Doc = Record<string, any>;
const cleanBundle = (): Doc => JSON.parse(readFileSync(new URL("./fixtures/clean.json", import.meta.url), "utf8"));
const ROOT = fileURLToPath(new URL("../../spec/openapi.yaml", import.meta.url));
const cleanRoot = () => readFileSync(ROOT, "utf8");
const codes = (ds: { code: string | number }[]) => ds.map((d) => String(d.code));

describe("house Spectral rules on the bundle", () => {
  it("the clean fixture has no diagnostic", async () => {
    expect(codes(await runSpectral(bundleRuleset, cleanBundle()))).toEqual([]);
  });

  it.each<[string, (d: Doc) => void]>([
    ["tg-operation-id-camel-case", (d) => (d.paths["/lists"].get.operationId = "list_lists")],
    ["tg-operation-id-verb", (d) => (d.paths["/lists"].get.operationId = "fetchLists")],
    ["tg-operation-id-verb", (d) => (d.paths["/lists/{id}"].delete.operationId = "removeList")],
    ["tg-parameter-example", (d) => delete d.components.parameters.ListIdOrName.example],
    [
      "tg-parameter-example",
      (d) =>
        (d.paths["/lists"].get.parameters = [
          { name: "q", in: "query", description: "Filter.", schema: { type: "string" } },
        ]),
    ],
    ["tg-path-parameter-404", (d) => delete d.paths["/lists/{id}"].delete.responses["404"]],
    [
      "tg-path-parameter-404",
      (d) => (d.paths["/lists/{id}"].delete.responses["404"] = structuredClone(d.components.responses.NotFound)),
    ],
    [
      "tg-shared-error-responses",
      (d) => (d.paths["/me"] = { get: { ...structuredClone(d.paths["/lists"].get), operationId: "getAccount" } }),
    ],
    [
      "tg-shared-error-responses",
      (d) => (d.paths["/lists"].post.responses["401"] = structuredClone(d.components.responses.Unauthorized)),
    ],
    [
      "tg-snake-case-properties",
      (d) => (d.components.schemas.List.properties.createdBy = { type: "string", description: "Creator." }),
    ],
    ["tg-property-description", (d) => (d.components.schemas.List.properties.created_by = { type: "string" })],
    ["oas3-valid-media-example", (d) => (d.components.examples.ListsPage.value.data[0].member_count = "three")],
    // Loopback servers pass; any other http:// server is the one diagnostic.
    [
      "owasp:api8:2023-no-server-http",
      (d) =>
        d.servers.push(
          ...["http://127.0.0.1:4011/v1", "http://localhost/v1", "http://127.0.0.1.example/v1"].map((url) => ({
            url,
            "x-internal": false,
          })),
        ),
    ],
  ])("%s: one change gives exactly that diagnostic", async (rule, change) => {
    const doc = cleanBundle();
    change(doc);
    expect(codes(await runSpectral(bundleRuleset, doc))).toEqual([rule]);
  });

  it("the verb rule names the allowed verbs of the method", async () => {
    const doc = cleanBundle();
    doc.paths["/lists"].post.operationId = "makeList";
    const ds = await runSpectral(bundleRuleset, doc);
    expect(codes(ds)).toEqual(["tg-operation-id-verb"]);
    expect(ds[0]?.message).toBe(
      `operationId "makeList" must start with a verb allowed for POST: ${OPERATION_VERBS.post!.join(", ")}.`,
    );
  });

  it("GET /me is the one operation that must not document 402", async () => {
    const doc = cleanBundle();
    const get = structuredClone(doc.paths["/lists"].get);
    delete get.responses["402"];
    doc.paths["/me"] = { get: { ...get, operationId: "getAccount" } };
    expect(codes(await runSpectral(bundleRuleset, doc))).toEqual([]);
    doc.paths["/people"] = { get: { ...structuredClone(get), operationId: "searchPeople" } };
    const ds = await runSpectral(bundleRuleset, doc);
    expect(codes(ds)).toEqual(["tg-shared-error-responses"]);
    expect(ds[0]?.message).toContain("402");
  });

  it("a missing shared error response is named", async () => {
    const doc = cleanBundle();
    delete doc.paths["/lists"].get.responses["402"];
    const ds = await runSpectral(bundleRuleset, doc);
    expect(codes(ds)).toEqual(["tg-shared-error-responses"]);
    expect(ds[0]?.message).toContain("402");
  });
});

describe("house Spectral rules on the root", () => {
  it("the real root has no diagnostic", async () => {
    expect(codes(await runSpectral(rootRuleset, cleanRoot(), ROOT))).toEqual([]);
  });

  it.each<[string, (text: string) => string]>([
    [
      "tg-path-item-ref",
      (t) => t.replace("  /me:\n    $ref: paths/me.yaml\n", "  /me:\n    get:\n      operationId: getAccount\n"),
    ],
    ["tg-root-only-refs", (t) => t + "webhooks: {}\n"],
    [
      "tg-root-components-ref",
      (t) =>
        t.replace(
          "    bearerAuth:\n      $ref: components/securitySchemes/bearerAuth.yaml\n",
          "    bearerAuth:\n      type: http\n      scheme: bearer\n",
        ),
    ],
  ])("%s: one change gives exactly that diagnostic", async (rule, change) => {
    const text = change(cleanRoot());
    expect(text).not.toBe(cleanRoot());
    expect(codes(await runSpectral(rootRuleset, text, ROOT))).toEqual([rule]);
  });
});

describe("the rules document", () => {
  const rules = { ...houseRules, ...(rootRuleset as { rules: Record<string, { documentationUrl?: string }> }).rules };
  const text = readFileSync(RULES_DOC, "utf8");

  it.each(Object.keys(rules))("%s links to its own heading in spec/RULES.md", (name) => {
    expect(rules[name]!.documentationUrl).toBe(`${RULES_DOC_URL}#${name}`);
    expect(text).toMatch(new RegExp(`^#+ ${name}$`, "m"));
  });

  it("describes no rule the rulesets do not have, and the lint README keeps no copy of it", () => {
    const headings = [...text.matchAll(/^#+ (tg-[a-z0-9-]+)$/gm)].map((m) => m[1]);
    expect(headings.sort()).toEqual(Object.keys(rules).sort());
    const readme = readFileSync(new URL("./README.md", import.meta.url), "utf8");
    expect(readme).toContain("spec/RULES.md");
    expect(readme).not.toMatch(/`tg-[a-z0-9-]+`/);
  });
});

describe("the code linters on given files", () => {
  const args = (files: string[] | undefined, eslintAll = false, project?: string[]) =>
    codeLintSteps(files, eslintAll, project).map((s) =>
      "bin" in s
        ? [s.bin, ...s.args.filter((a) => !a.startsWith("--"))]
        : "eslint" in s
          ? ["eslint", ...s.eslint]
          : s.label,
    );

  it("lint the whole tree without files, and only the given files (ESLint only its kinds) with them", () => {
    expect(args(undefined)).toEqual([
      ["prettier", "content", "warn", "."],
      ["eslint", "."],
    ]);
    expect(args(["spec/a.yaml", "client/b.ts", "c.mjs"])).toEqual([
      ["prettier", "content", "warn", "spec/a.yaml", "client/b.ts", "c.mjs"],
      ["eslint", "client/b.ts", "c.mjs"],
    ]);
    expect(args(["client/b.ts"], true)[1]).toEqual(["eslint", "."]);
    expect(args(["README.md"])[1]).toBe("eslint: none of the given files is JavaScript or TypeScript");
    expect(args([])).toEqual([
      "prettier --check: none of the given files exists",
      "eslint: none of the given files is JavaScript or TypeScript",
    ]);
  });

  it("judges the project's files: tracked ones and new ones in its folders, not a scratch file beside them", () => {
    const dir = mkdtempSync(join(tmpdir(), "lint-project-"));
    try {
      const git = (...a: string[]) => spawnSync("git", a, { cwd: dir, encoding: "utf8" });
      for (const f of ["scripts/a.ts", "README.md", "scripts/gone.ts"]) {
        mkdirSync(join(dir, dirname(f)), { recursive: true });
        writeFileSync(join(dir, f), "x\n");
      }
      git("init", "-q");
      git("add", "-A");
      rmSync(join(dir, "scripts/gone.ts")); // deleted, not yet committed: nothing to lint
      writeFileSync(join(dir, ".gitignore"), "scratch/\n");
      mkdirSync(join(dir, "scratch"));
      mkdirSync(join(dir, "play"));
      for (const f of ["scripts/new.ts", "try.ts", "scratch/s.ts", "play/p.ts"]) writeFileSync(join(dir, f), "x\n");
      expect(projectFiles(dir)).toEqual(["README.md", "scripts/a.ts", "scripts/new.ts"]);
      expect(projectFiles(tmpdir())).toBeUndefined();
      expect(args(undefined, false, projectFiles(dir))).toEqual([
        ["prettier", "content", "warn", "README.md", "scripts/a.ts", "scripts/new.ts"],
        ["eslint", "scripts/a.ts", "scripts/new.ts"],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Prettier on given files rejects a badly formatted one and passes a formatted one; ESLint leaves ignored ones out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lint-files-"));
    try {
      writeFileSync(join(dir, "bad.ts"), "export const  x=1\n");
      writeFileSync(join(dir, "good.ts"), "export const x = 1;\n");
      writeFileSync(join(dir, "image.png"), "not text");
      const prettier = (file: string) => {
        const step = codeLintSteps([file, "image.png"], false)[0] as { args: string[] };
        return spawnSync(join(REPO_ROOT, "node_modules/.bin/prettier"), step.args, { cwd: dir, encoding: "utf8" });
      };
      const bad = prettier("bad.ts");
      expect(bad.status).toBe(1);
      expect(bad.stderr + bad.stdout).toContain("bad.ts");
      expect(prettier("good.ts").status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // generated/ is in ESLint's ignores: named on the command line it must be left out, not warned about.
    const step = codeLintSteps(["generated/schema.d.ts"], false)[1] as { eslint: string[] };
    expect(await runEslint({ cwd: REPO_ROOT, patterns: step.eslint })).toEqual({ problems: 0, text: "", files: 0 });
  });
});
