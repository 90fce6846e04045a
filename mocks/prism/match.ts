// Picks a named example from the request when the caller states no preference, so the static mock
// answers coherently: `?view=compact` gets the compact page, `?offset=2` the second page, a request with
// an events `cursor` the last page. The spec opts in per example with `x-mock-match` (spec/EXTENSIONS.md):
//
//   x-mock-match: { query: { view: compact } }     # every listed parameter must equal the value;
//   x-mock-match: { query: { cursor: "*" } }       # "*" means present and non-empty
//
// Only the examples of an operation's default (lowest 2xx) response take part; the first match in
// document order wins. Prefer code/example/dynamic always win over it. An offset past the examples gets an
// empty last page (pastLastPage), so paging ends.

// portable.js rather than the core's index: the MSW host bundles this file for browsers (no node: imports).
import { deref, isObj, listOperations, type Obj as Json } from "../../contract-core/portable.js";

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

/**
 * The answer to an offset no example matches (`?offset=25` on a list whose examples hold one page of 2):
 * an empty last page, `has_more: false`, the example's `total` kept, so a client paging by the limit it asked
 * for stops instead of getting the first page forever. Undefined when the request has no positive offset or
 * the body is not an offset page (`data` array, `meta` with `has_more`): a `meta.count` alone already tells a
 * client where the rows end.
 */
export function pastLastPage(body: unknown, query: Record<string, string | string[]>): Json | undefined {
  const first = (name: string) => {
    const v = query[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const offset = Number(first("offset"));
  if (!Number.isSafeInteger(offset) || offset <= 0) return undefined;
  if (!isObj(body) || !Array.isArray(body.data) || !isObj(body.meta) || !("has_more" in body.meta)) return undefined;
  const meta: Json = { ...body.meta, has_more: false };
  if ("count" in meta) meta.count = 0;
  if ("offset" in meta) meta.offset = offset;
  const limit = Number(first("limit"));
  if ("limit" in meta && Number.isSafeInteger(limit)) meta.limit = limit;
  return { ...body, data: [], meta };
}
