/**
 * Reads a test file and finds every wall-clock budget it sets for itself below the suite's hang budget (stated
 * once, in vitest.config.ts): a timeout argument of it/test/describe or a hook, a `timeout` option (of a test,
 * `expect.poll`, a Playwright wait or action, a child process), vi.setConfig, testTimeout/hookTimeout,
 * Playwright's setDefaultTimeout, and a setTimeout of a second or more (a deadline; shorter ones are poll steps).
 * A budget is allowed when its line or the line above carries a comment (saying what it catches), and a value
 * of 0 (no budget: wait for the state) is never one. A value the reader cannot work out is reported as such.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface BudgetFinding {
  file: string;
  line: number;
  /** What sets the budget, e.g. `it(..., 60000)` or `{ timeout: 5000 }`. */
  what: string;
  /** The budget in ms, or undefined when the value is not a number the reader can work out. */
  ms: number | undefined;
}

const TEST_CALLS = new Set(["it", "test", "describe", "suite"]);
const HOOKS = new Set(["beforeAll", "afterAll", "beforeEach", "afterEach"]);
const TIMEOUT_KEYS = new Set(["timeout", "testTimeout", "hookTimeout"]);
/** A setTimeout this long or longer in a test is a deadline; a shorter one is a poll interval or a yield. */
export const DEADLINE_FLOOR_MS = 1_000;

/** The callee's root name: `it`, `it.each(...)`, `test.skip`, `page.locator(x).waitFor` -> `waitFor` as `last`. */
function callee(expr: ts.Expression): { root: string | undefined; last: string | undefined } {
  let e: ts.Expression = expr;
  let last: string | undefined;
  for (;;) {
    if (ts.isPropertyAccessExpression(e)) {
      last ??= e.name.text;
      e = e.expression;
    } else if (ts.isCallExpression(e)) e = e.expression;
    else break;
  }
  const root = ts.isIdentifier(e) ? e.text : undefined;
  return { root, last: last ?? root };
}

const isFunction = (e: ts.Expression) => ts.isArrowFunction(e) || ts.isFunctionExpression(e);

/** A number from literals, `+ - * /` and the file's own `const NAME = <number>`; undefined otherwise. */
function evaluate(node: ts.Expression, consts: Map<string, ts.Expression>, depth = 0): number | undefined {
  if (depth > 10) return undefined;
  if (ts.isNumericLiteral(node)) return Number(node.text.replace(/_/g, ""));
  if (ts.isParenthesizedExpression(node)) return evaluate(node.expression, consts, depth + 1);
  if (ts.isIdentifier(node)) {
    const init = consts.get(node.text);
    return init ? evaluate(init, consts, depth + 1) : undefined;
  }
  if (ts.isBinaryExpression(node)) {
    const a = evaluate(node.left, consts, depth + 1);
    const b = evaluate(node.right, consts, depth + 1);
    if (a === undefined || b === undefined) return undefined;
    switch (node.operatorToken.kind) {
      case ts.SyntaxKind.PlusToken:
        return a + b;
      case ts.SyntaxKind.MinusToken:
        return a - b;
      case ts.SyntaxKind.AsteriskToken:
        return a * b;
      case ts.SyntaxKind.SlashToken:
        return a / b;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** Every budget a test file sets for itself (whatever its value). */
export function budgetsIn(file: string, text: string): BudgetFinding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const consts = new Map<string, ts.Expression>();
  const collect = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer)
      consts.set(node.name.text, node.initializer);
    ts.forEachChild(node, collect);
  };
  collect(source);
  const found: BudgetFinding[] = [];
  const add = (node: ts.Node, what: string, value: ts.Expression) =>
    found.push({
      file,
      line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
      what,
      ms: evaluate(value, consts),
    });
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const { root, last } = callee(node.expression);
      const args = node.arguments;
      const third = args[2];
      if (root && TEST_CALLS.has(root) && third && !ts.isObjectLiteralExpression(third) && !isFunction(third))
        add(third, `${root}(..., ${third.getText(source)})`, third);
      if (root && HOOKS.has(root) && args.length >= 2)
        add(args[1]!, `${root}(..., ${args[1]!.getText(source)})`, args[1]!);
      if (root === "vi" && last === "setConfig") add(node, "vi.setConfig(...)", node);
      if (last === "setDefaultTimeout" || last === "setDefaultNavigationTimeout")
        if (args[0]) add(node, `${last}(${args[0].getText(source)})`, args[0]);
      if (ts.isIdentifier(node.expression) && node.expression.text === "setTimeout" && args.length >= 2) {
        const ms = evaluate(args[1]!, consts);
        if (ms === undefined || ms >= DEADLINE_FLOOR_MS)
          add(node, `setTimeout(..., ${args[1]!.getText(source)})`, args[1]!);
      }
    }
    if (ts.isPropertyAssignment(node)) {
      const key = ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : undefined;
      if (key && TIMEOUT_KEYS.has(key)) add(node, `{ ${key}: ${node.initializer.getText(source)} }`, node.initializer);
    }
    if (ts.isShorthandPropertyAssignment(node) && TIMEOUT_KEYS.has(node.name.text))
      add(node, `{ ${node.name.text} }`, node.name);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The lines (1-based) holding a comment with some words in it: the comments the TypeScript parser sees, so that
 * `//` inside a string or a template (a URL) is not one.
 */
function commentLines(file: string, text: string): Set<number> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines = new Set<number>();
  const seen = new Set<number>();
  const mark = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const first = source.getLineAndCharacterOfPosition(range.pos).line + 1;
      text
        .slice(range.pos, range.end)
        .split("\n")
        .forEach((part, i) => {
          if (/\S.{3,}/.test(part.replace(/^\s*(\/\/|\/\*+|\*)/, "").replace(/\*\/\s*$/, ""))) lines.add(first + i);
        });
    }
  };
  const visit = (node: ts.Node) => {
    mark(ts.getLeadingCommentRanges(text, node.getFullStart()));
    mark(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return lines;
}

/** The budgets below `hangBudgetMs` (or not understood) that no comment on their line or the line above explains. */
export function budgetProblems(file: string, text: string, hangBudgetMs: number): BudgetFinding[] {
  const below = budgetsIn(file, text).filter((f) => f.ms === undefined || (f.ms !== 0 && f.ms < hangBudgetMs));
  if (below.length === 0) return [];
  const comments = commentLines(file, text);
  return below.filter((f) => !comments.has(f.line) && !comments.has(f.line - 1));
}

/** The hang budget vitest.config.ts states: its `const HANG_BUDGET_MS = <number expression>`. */
export function hangBudget(configFile: string): number {
  const text = readFileSync(configFile, "utf8");
  const source = ts.createSourceFile(configFile, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  let ms: number | undefined;
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === "HANG_BUDGET_MS")
      ms = node.initializer ? evaluate(node.initializer, new Map()) : undefined;
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (ms === undefined || !(ms > 0))
    throw new Error(`${path.basename(configFile)}: no const HANG_BUDGET_MS = <a number of ms> to read`);
  return ms;
}

export const format = (f: BudgetFinding): string =>
  `${f.file}:${f.line}: ${f.what} ${f.ms === undefined ? "(a value this check cannot work out)" : `= ${f.ms} ms`}`;
