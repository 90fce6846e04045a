/**
 * The static mock's choice of example (no Node API): picks a named example from the request when the caller
 * states no preference, so a mock answers coherently: `?view=compact` gets the compact page, `?offset=2` the
 * second page, a request with an events `cursor` the last page. The spec opts in per example with
 * `x-mock-match` (spec/EXTENSIONS.md):
 *
 *   x-mock-match: { query: { view: compact } }     # every listed parameter must equal the value;
 *   x-mock-match: { query: { cursor: "*" } }       # "*" means present and non-empty
 *   x-mock-match: { body: { kind: people } }       # a top-level key of the JSON request body
 *
 * The examples of an operation's 2xx responses with a numeric status take part, lowest status first, then in
 * document order; the first match wins. An example of another response than the default (lowest 2xx) one
 * comes with that response's status (a people-Target create gets the 202 `created` example, not the 200). Prefer code/example/dynamic always win over it (the callers check). An offset past the examples
 * gets an empty last page (pastLastPage), so paging ends. Used by the Prism mock and the MSW mock handlers.
 */
import { listOperations } from "./operations.js";
import { deref, isObj, type Obj as Json } from "./pointer.js";
import { Router } from "./route.js";

interface Rule extends MockMatch {
  query: Record<string, string>;
  body: Record<string, string>;
}

/** The example chosen for a request; `status` when its response is not the operation's default one. */
export interface MockMatch {
  example: string;
  status?: number;
}

/** The example to answer a request with (path relative to the server base path), or undefined. */
export type ExampleMatcher = (
  method: string,
  path: string,
  query: Record<string, string | string[]>,
  body?: unknown,
) => MockMatch | undefined;

const strings = (o: unknown): Record<string, string> =>
  isObj(o) ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)])) : {};

function rulesOf(doc: Json, operation: Json): Rule[] {
  const responses = isObj(operation.responses) ? operation.responses : {};
  const rules: Rule[] = [];
  const statuses = Object.keys(responses)
    .filter((s) => /^2(\d\d|XX)$/.test(s))
    .sort();
  for (const status of statuses.filter((s, i) => i === 0 || /^\d+$/.test(s))) {
    const response = deref(doc, responses[status]);
    const media = isObj(response) && isObj(response.content) ? response.content["application/json"] : undefined;
    const examples = isObj(media) && isObj(media.examples) ? media.examples : {};
    for (const [name, ref] of Object.entries(examples)) {
      const example = deref(doc, ref);
      const match = isObj(example) ? example["x-mock-match"] : undefined;
      if (!isObj(match) || !(isObj(match.query) || isObj(match.body))) continue;
      const other = status === statuses[0] ? {} : { status: Number(status) };
      rules.push({ example: name, ...other, query: strings(match.query), body: strings(match.body) });
    }
  }
  return rules;
}

function first(query: Record<string, string | string[]>, name: string): string | undefined {
  const v = query[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Builds the matcher from the bundled document. */
export function exampleMatcher(doc: Json): ExampleMatcher {
  const routes = listOperations(doc).map(({ path, method, operation }) => ({
    method,
    path,
    rules: rulesOf(doc, operation),
  }));
  const router = new Router("", routes, (r) => r);
  return (method, path, query, body) => {
    // A trailing slash names the same operation here (the mock's router decides whether it exists).
    const found = router.match(method, path.length > 1 ? path.replace(/\/$/, "") : path);
    if (!found.ok) return undefined;
    const sent = isObj(body) ? body : {};
    const rule = found.route.rules.find(
      (r) =>
        Object.entries(r.query).every(([name, want]) => {
          const got = first(query, name);
          return want === "*" ? got !== undefined && got !== "" : got === want;
        }) && Object.entries(r.body).every(([name, want]) => name in sent && String(sent[name]) === want),
    );
    return rule && { example: rule.example, ...(rule.status === undefined ? {} : { status: rule.status }) };
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
  const offset = Number(first(query, "offset"));
  if (!Number.isSafeInteger(offset) || offset <= 0) return undefined;
  if (!isObj(body) || !Array.isArray(body.data) || !isObj(body.meta) || !("has_more" in body.meta)) return undefined;
  const meta: Json = { ...body.meta, has_more: false };
  if ("count" in meta) meta.count = 0;
  if ("offset" in meta) meta.offset = offset;
  const limit = Number(first(query, "limit"));
  if ("limit" in meta && Number.isSafeInteger(limit)) meta.limit = limit;
  return { ...body, data: [], meta };
}
