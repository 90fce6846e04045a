/**
 * No test sets a wall-clock budget of its own below the suite's hang budget (vitest.config.ts) unless a comment
 * beside it says what that budget catches: every test file of the checkout is read, and the reader itself has
 * firing fixtures and near misses.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../contract-core/index.js";
import { budgetProblems, format, hangBudget } from "./test-budgets.js";

const BUDGET = hangBudget(path.join(REPO_ROOT, "vitest.config.ts"));
const problems = (text: string) => budgetProblems("fixture.test.ts", text, BUDGET).map((p) => p.what);

describe("the hang budget", () => {
  it("is stated once in vitest.config.ts, in minutes", () => {
    expect(BUDGET).toBeGreaterThanOrEqual(5 * 60_000);
  });

  it("no test file sets a budget of its own below it without a comment saying what it catches", () => {
    const files = execFileSync("git", ["ls-files", "-z", "--", "*.test.ts"], { cwd: REPO_ROOT, encoding: "utf8" })
      .split("\0")
      .filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => budgetProblems(f, readFileSync(path.join(REPO_ROOT, f), "utf8"), BUDGET));
    expect(found.map(format)).toEqual([]);
  });
});

describe("the reader of a test file", () => {
  it.each([
    ["an it timeout argument", `it("x", () => {}, 30_000);`, "it(..., 30_000)"],
    ["a test.each timeout argument", `test.each([1])("x %s", async () => {}, 5000);`, "test(..., 5000)"],
    ["a describe timeout argument", `describe("x", () => {}, 1000);`, "describe(..., 1000)"],
    ["a hook timeout", `beforeAll(async () => {}, 60_000);`, "beforeAll(..., 60_000)"],
    ["a test's timeout option", `it("x", { timeout: 20_000 }, () => {});`, "{ timeout: 20_000 }"],
    ["an expect.poll timeout", `await expect.poll(() => n, { timeout: 5_000 }).toBe(1);`, "{ timeout: 5_000 }"],
    [
      "a Playwright wait",
      `await page.locator("a").waitFor({ state: "visible", timeout: T });\nconst T = 20_000;`,
      "{ timeout: T }",
    ],
    ["a const budget, halved", `const T = 30_000;\nawait el.waitFor({ timeout: T / 2 });`, "{ timeout: T / 2 }"],
    ["a child process deadline", `execFile("npm", ["run"], { timeout: 60_000 }, cb);`, "{ timeout: 60_000 }"],
    ["vi.setConfig", `vi.setConfig({ retry: 1 });`, "vi.setConfig(...)"],
    ["a testTimeout", `const options = { testTimeout: 10_000 };`, "{ testTimeout: 10_000 }"],
    ["Playwright's default timeout", `context.setDefaultTimeout(30_000);`, "setDefaultTimeout(30_000)"],
    ["a setTimeout deadline", `setTimeout(finish, 10_000);`, "setTimeout(..., 10_000)"],
    ["a value it cannot work out", `it("x", () => {}, budget());`, "it(..., budget())"],
    ["an imported name", `import { LIMIT } from "./limits.js";\nit("x", () => {}, LIMIT);`, "it(..., LIMIT)"],
  ])("finds %s", (_name, text, what) => {
    expect(problems(text)).toEqual([what]);
  });

  it.each([
    ["a budget at the hang budget", `it("x", () => {}, ${BUDGET});`],
    ["a budget above it", `beforeAll(async () => {}, ${BUDGET * 2});`],
    ["a Playwright wait with no limit of its own", `await page.locator("a").waitFor({ timeout: 0 });`],
    ["a short setTimeout (a poll step)", `await new Promise((r) => setTimeout(r, 100));`],
    ["a commented budget on the line", `setTimeout(finish, 10_000); // a server that never closes the socket`],
    [
      "a commented budget on the line above",
      `// catches a Chromium that never paints\nawait el.waitFor({ timeout: 5_000 });`,
    ],
    ["a timeout the code under test takes", `const client = testClient(fetch, { timeoutMs: 5 });`],
    ["an it with options and no timeout", `it("x", { retry: 2 }, async () => {});`],
    ["an it with a name and a function", `it("x", async () => {});`],
  ])("passes %s", (_name, text) => {
    expect(problems(text)).toEqual([]);
  });

  it("a comment must say something: an empty one does not excuse a budget", () => {
    expect(problems(`//\nit("x", () => {}, 1000);`)).toEqual(["it(..., 1000)"]);
  });

  it("a `//` in a string or a template is not a comment: a URL above a budget does not excuse it", () => {
    expect(problems(`const base = "http://127.0.0.1:4010/v1";\nit("x", () => {}, 1000);`)).toEqual(["it(..., 1000)"]);
    const template = "const base = `http://127.0.0.1:${port}/v1`;\nbeforeAll(() => {}, 60_000);";
    expect(problems(template)).toEqual(["beforeAll(..., 60_000)"]);
    // The last line of a block comment, and a comment after code on the line above, still count.
    expect(problems(`/*\n * catches a server\n * that never answers */\nit("x", () => {}, 1000);`)).toEqual([]);
    expect(problems(`const x = 1; // catches a server that never answers\nit("x", () => {}, 1000);`)).toEqual([]);
  });

  it("fails closed when vitest.config.ts states no budget", () => {
    expect(() => hangBudget(path.join(REPO_ROOT, "package.json"))).toThrow(/HANG_BUDGET_MS/);
  });
});
