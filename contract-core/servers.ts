/** The parsed OpenAPI document's type and the API's base path read from its `servers` (no Node API). */

export type OpenApiDocument = Record<string, unknown>;

/** The path part of the first server URL with variables at their defaults: `{origin}/v1` -> `/v1`. */
export function serverBasePath(doc: OpenApiDocument): string {
  const servers = doc.servers as { url?: string; variables?: Record<string, { default?: string }> }[] | undefined;
  const server = servers?.[0];
  if (!server?.url) return "";
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? "");
  const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? new URL(url).pathname : url;
  return path.replace(/\/+$/, "");
}
