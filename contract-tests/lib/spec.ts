/** Loading the OpenAPI document: the bundled `generated/openapi.json` by default, or a given path/object. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";

export type OpenApiDocument = Record<string, unknown>;

export const DEFAULT_SPEC_PATH = fileURLToPath(new URL("../../generated/openapi.json", import.meta.url));

export function loadSpecFile(path: string): OpenApiDocument {
  const text = readFileSync(path, "utf8");
  const doc: unknown = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  if (doc === null || typeof doc !== "object" || typeof (doc as OpenApiDocument).openapi !== "string") {
    throw new Error(`${path} is not an OpenAPI document (no "openapi" version field)`);
  }
  return doc as OpenApiDocument;
}

/** The path part of the first server URL with variables at their defaults: `{origin}/v1` -> `/v1`. */
export function serverBasePath(doc: OpenApiDocument): string {
  const servers = doc.servers as { url?: string; variables?: Record<string, { default?: string }> }[] | undefined;
  const server = servers?.[0];
  if (!server?.url) return "";
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? "");
  const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? new URL(url).pathname : url;
  return path.replace(/\/+$/, "");
}
