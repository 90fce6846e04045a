/**
 * The release a reference page shows: its version in the page's title, and the install line of the package of
 * that version at the top of the introduction (`npm install <name>@<version>`, the line the release notes print
 * and the registry test runs). One version for the contract and the package; the URL's `/v1` stays the service's.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../contract-core/index.js";
import { installLine } from "../release/version.js";
import { isObject, type OpenApiDoc } from "./openapi.js";

/** The package the reference's typed-client samples import (package.json's name). */
export const packageName = (): string =>
  (JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { name: string }).name;

/** The page title: the API's title and its version (`Talent Graph API 1.0.0`). */
export function versionedTitle(doc: OpenApiDoc): string | undefined {
  const info = isObject(doc.info) ? doc.info : {};
  if (typeof info.title !== "string") return undefined;
  return typeof info.version === "string" ? `${info.title} ${info.version}` : info.title;
}

/** A copy of `doc` whose introduction starts with the version and its install line. */
export function withReleaseInfo(bundle: OpenApiDoc, name = packageName()): OpenApiDoc {
  const doc = structuredClone(bundle);
  if (!isObject(doc.info) || typeof doc.info.version !== "string") return doc;
  const intro = typeof doc.info.description === "string" ? doc.info.description : "";
  doc.info.description =
    `**Version ${doc.info.version}** of the contract. The typed client and the Mock Service Worker kit of this ` +
    `version: \`${installLine(name, doc.info.version)}\`. The version follows the contract's changes (a major ` +
    `for a breaking one); the \`/v1\` in the URL is the service's own and does not change with it.\n\n${intro}`;
  return doc;
}
