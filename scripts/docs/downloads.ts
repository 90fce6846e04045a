/**
 * The bundled OpenAPI document for download: `npm run docs` writes it beside the page as `openapi.json` and
 * `openapi.yaml` (the bundle the page was built from, not the docs copy with its samples and notices), and the
 * page's guides end with an "OpenAPI document" section (in the navigation) linking both. Relative links: they work
 * on GitHub Pages and from the unzipped pull-request artifact alike.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { stringify } from "yaml";
import { isObject, type OpenApiDoc } from "./openapi.js";

export const DOWNLOAD_SECTION = "OpenAPI document";
export const DOWNLOAD_JSON = "openapi.json";
export const DOWNLOAD_YAML = "openapi.yaml";

/** A copy of `doc` whose guides end with the download section. */
export function withDownloadLinks(bundle: OpenApiDoc): OpenApiDoc {
  const doc = structuredClone(bundle);
  if (isObject(doc.info)) {
    const intro = typeof doc.info.description === "string" ? doc.info.description.trimEnd() : "";
    doc.info.description =
      `${intro}\n\n## ${DOWNLOAD_SECTION}\n\n` +
      `The OpenAPI 3.1 document this page is built from, as one bundled file: ` +
      `[download ${DOWNLOAD_JSON}](${DOWNLOAD_JSON}) or [download ${DOWNLOAD_YAML}](${DOWNLOAD_YAML}).\n`;
  }
  return doc;
}

/** Writes the bundle beside the page in both forms; returns the files written. */
export async function writeDownloads(bundle: OpenApiDoc, outDir: string): Promise<string[]> {
  const json = path.join(outDir, DOWNLOAD_JSON);
  const yaml = path.join(outDir, DOWNLOAD_YAML);
  await writeFile(json, `${JSON.stringify(bundle, null, 2)}\n`);
  await writeFile(yaml, stringify(bundle, { aliasDuplicateObjects: false, lineWidth: 0 }));
  return [json, yaml];
}
