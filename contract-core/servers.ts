/**
 * The one resolution of the API's server URL (no Node API): the first server's URL with its variables at their
 * defaults, and its path, the base path every router strips.
 */

export type OpenApiDocument = Record<string, unknown>;

interface ServerObject {
  url?: unknown;
  variables?: Record<string, { default?: unknown } | undefined>;
}

/**
 * The first server's URL with its variables at their defaults, without a trailing slash:
 * `{origin}/v1` -> `https://api.talent-graph.example/v1`. A document without servers is served at `/`
 * (OpenAPI 3.1), so its URL is "". Throws when a variable has no default (OpenAPI requires one).
 */
export function serverUrl(doc: OpenApiDocument): string {
  const server = (Array.isArray(doc.servers) ? doc.servers[0] : undefined) as ServerObject | undefined;
  if (typeof server?.url !== "string") return "";
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = server.variables?.[name]?.default;
    if (typeof value !== "string") throw new Error(`Server variable "${name}" has no default`);
    return value;
  });
  return url.replace(/\/+$/, "");
}

/** The path part of the server URL: `{origin}/v1` -> `/v1`; "" at the root. */
export function serverBasePath(doc: OpenApiDocument): string {
  const url = serverUrl(doc);
  const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? new URL(url).pathname : url;
  return path.replace(/\/+$/, "");
}
