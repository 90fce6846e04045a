/**
 * A request's query as values by name, read in one pass over its pairs (asking a URLSearchParams for each
 * name scans and converts every pair again): what request validation and example selection both read.
 */

/** Every value of each name, in the query's order. */
export function queryValues(params: URLSearchParams): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const [name, value] of params) {
    const all = values.get(name);
    if (all) all.push(value);
    else values.set(name, [value]);
  }
  return values;
}

/** The query as a record: a name given once maps to its value, a repeated one to all of them. */
export function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, values] of queryValues(params)) query[name] = values.length === 1 ? values[0]! : values;
  return query;
}

/**
 * The rule for a repeated parameter, on both servers and the MSW host: a parameter the spec declares as an
 * array takes every value; one declared as a single value and given more than once is a 400, in the words
 * the mock's schema validation uses for it (`skills must be string`), never "the last one wins".
 */
export function singleQueryValue(
  name: string,
  values: readonly string[],
  schemaType: unknown,
): { ok: true; value: string } | { ok: false; message: string } {
  if (values.length === 1) return { ok: true, value: values[0]! };
  const types = (Array.isArray(schemaType) ? schemaType : [schemaType]).filter((t) => t !== "null");
  return { ok: false, message: `${name} must be ${typeof types[0] === "string" ? types[0] : "a single value"}` };
}
