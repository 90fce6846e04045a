// Picks a named example from the request when the caller states no preference, so the static mock
// answers coherently: `?view=compact` gets the compact page, `?offset=2` the second page, a request with
// an events `cursor` the last page. The spec opts in per example with `x-mock-match` (spec/EXTENSIONS.md):
//
//   x-mock-match: { query: { view: compact } }     # every listed parameter must equal the value;
//   x-mock-match: { query: { cursor: "*" } }       # "*" means present and non-empty
//
// Only the examples of an operation's default (lowest 2xx) response take part; the first match in
// document order wins. Prefer code/example/dynamic always win over it.

import { deref, isObj, listOperations, type Obj as Json } from "../../contract-core/index.js";

interface Rule {
  example: string;
  query: Record<string, string>;
}
interface Route {
  method: string;
  pattern: RegExp;
  literals: number;
  rules: Rule[];
}

export type ExampleMatcher = (
  method: string,
  path: string,
  query: Record<string, string | string[]>,
) => string | undefined;

function rulesOf(doc: Json, operation: Json): Rule[] {
  const responses = isObj(operation.responses) ? operation.responses : {};
  const status = Object.keys(responses)
    .filter((s) => /^2(\d\d|XX)$/.test(s))
    .sort()[0];
  const response = status ? deref(doc, responses[status]) : undefined;
  const media = isObj(response) && isObj(response.content) ? response.content["application/json"] : undefined;
  const examples = isObj(media) && isObj(media.examples) ? media.examples : {};
  const rules: Rule[] = [];
  for (const [name, ref] of Object.entries(examples)) {
    const example = deref(doc, ref);
    const match = isObj(example) ? example["x-mock-match"] : undefined;
    if (!isObj(match) || !isObj(match.query)) continue;
    rules.push({
      example: name,
      query: Object.fromEntries(Object.entries(match.query).map(([k, v]) => [k, String(v)])),
    });
  }
  return rules;
}

/** Builds the matcher from the bundled document. */
export function exampleMatcher(doc: Json): ExampleMatcher {
  const routes: Route[] = [];
  for (const { path: template, method, operation } of listOperations(doc)) {
    const rules = rulesOf(doc, operation);
    if (rules.length === 0) continue;
    const segments = template.split("/").filter(Boolean);
    const source = segments
      .map((s) => (/^\{.+\}$/.test(s) ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    routes.push({
      method,
      pattern: new RegExp(`^/${source}/?$`),
      literals: segments.filter((s) => !s.startsWith("{")).length,
      rules,
    });
  }
  routes.sort((a, b) => b.literals - a.literals);
  return (method, path, query) => {
    const route = routes.find((r) => r.method === method.toLowerCase() && r.pattern.test(path));
    if (!route) return undefined;
    const value = (name: string) => {
      const v = query[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const rule = route.rules.find((r) =>
      Object.entries(r.query).every(([name, want]) => {
        const got = value(name);
        return want === "*" ? got !== undefined && got !== "" : got === want;
      }),
    );
    return rule?.example;
  };
}
