/**
 * Where the sandbox's errors are made (read from the sources' syntax, TypeScript's parser): the rules that keep
 * every API error typed by what its operation documents (contract/errors.ts), so new code cannot bypass them.
 * - `new ApiError(` (or a class extending it) only in contract/errors.ts.
 * - `outsideOperations` (answers no operation documents: route misses, Host and control refusals, the control
 *   endpoints' own errors) only in core/ and areas/control.ts.
 * - In areas/ and domain/, contract/errors.js gives only `operationError` and its types, except the
 *   allow-list below (each with its reason), and `operationError`'s operation is the request's own
 *   (`req.operationId`), never a literal that could name another operation.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export interface SourceFile {
  /** Path under mocks/sandbox, with `/` (e.g. `areas/targets.ts`). */
  path: string;
  text: string;
}

/** What areas/ and domain/ may import from contract/errors.js. */
const TYPED_IMPORTS = new Set(["operationError", "Answering", "OperationsWith", "DocumentedOperation"]);

/** Imports from contract/errors.js outside TYPED_IMPORTS in areas/ and domain/, each with why it stands. */
export const ERROR_IMPORT_ALLOW: Record<string, { names: readonly string[]; reason: string }> = {
  "areas/control.ts": {
    names: ["outsideOperations"],
    reason: "the control endpoints (/__sandbox/...) are not spec operations: no operation documents their errors",
  },
  "domain/terms.ts": {
    names: ["invalidRequest"],
    reason:
      "term lists are split deep in the filter parse of every operation that takes them; invalidRequest is the " +
      "400 every operation documents (everyOperationError: a tsc error if one stops documenting it)",
  },
};

const isSource = (name: string) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".test-d.ts");

/** The sandbox's source files (tests, type tests and testing/ excluded), paths under `root`. */
export function sandboxSources(root: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "testing" && entry.name !== "node_modules") walk(full);
      } else if (isSource(entry.name))
        out.push({ path: relative(root, full).split("\\").join("/"), text: readFileSync(full, "utf8") });
    }
  };
  walk(root);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

const ERRORS_MODULE = /(^|\/)contract\/errors\.js$|^\.\/errors\.js$/;

function where(file: ts.SourceFile, node: ts.Node, path: string): string {
  const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return `${path}:${line + 1}`;
}

/** Every breach of the rules above, as `path:line what`; empty when the sources keep them. */
export function errorSiteProblems(files: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  for (const { path, text } of files) {
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const own = path === "contract/errors.ts";
    const typedArea = path.startsWith("areas/") || path.startsWith("domain/");
    const outsideAllowed = own || path.startsWith("core/") || path === "areas/control.ts";
    const visit = (node: ts.Node): void => {
      if (!own && ts.isNewExpression(node) && node.expression.getText(file) === "ApiError")
        problems.push(`${where(file, node, path)} new ApiError( outside contract/errors.ts: use operationError`);
      if (!own && ts.isHeritageClause(node) && node.types.some((t) => t.expression.getText(file) === "ApiError"))
        problems.push(`${where(file, node, path)} a class extends ApiError outside contract/errors.ts`);
      if (!outsideAllowed && ts.isIdentifier(node) && node.text === "outsideOperations")
        problems.push(`${where(file, node, path)} outsideOperations outside core/ and areas/control.ts`);
      if (typedArea && ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const bindings = node.importClause?.namedBindings;
        if (ERRORS_MODULE.test(node.moduleSpecifier.text)) {
          const names =
            bindings && ts.isNamedImports(bindings)
              ? bindings.elements.map((e) => (e.propertyName ?? e.name).text)
              : ["*"];
          const allowed = ERROR_IMPORT_ALLOW[path]?.names ?? [];
          for (const name of names)
            if (!TYPED_IMPORTS.has(name) && !allowed.includes(name))
              problems.push(`${where(file, node, path)} imports ${name} from contract/errors.js: use operationError`);
        }
      }
      if (typedArea && ts.isCallExpression(node) && node.expression.getText(file) === "operationError") {
        const first = node.arguments[0];
        const ok = first !== undefined && ts.isPropertyAccessExpression(first) && first.name.text === "operationId";
        if (!ok)
          problems.push(
            `${where(file, node, path)} operationError(${first?.getText(file) ?? ""}, ...): pass the request's req.operationId`,
          );
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return problems;
}

/** Allow-list entries whose file no longer imports the name (so the list cannot go stale). */
export function staleAllowEntries(files: readonly SourceFile[]): string[] {
  const stale: string[] = [];
  for (const [path, entry] of Object.entries(ERROR_IMPORT_ALLOW)) {
    const text = files.find((f) => f.path === path)?.text ?? "";
    for (const name of entry.names) if (!new RegExp(`\\b${name}\\b`).test(text)) stale.push(`${path} ${name}`);
  }
  return stale;
}
