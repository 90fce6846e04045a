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
