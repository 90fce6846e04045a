/**
 * Links between the reference and the changelog `npm run docs` writes beside it (scripts/changelog/): a
 * "Changelog" guide section in the navigation, and at the end of each operation's description a link to that
 * operation's changes. Applied to the docs copy of the bundle, never to the bundle.
 */
import { FEED_FILE, PAGE_FILE, operationAnchor } from "../changelog/render.js";
import { isObject, listOperations, type OpenApiDoc } from "./openapi.js";

export const CHANGELOG_SECTION = "Changelog";
export const OPERATION_LINK_TEXT = "Changes to this operation";

/** A copy of `doc` with the changelog's section in `info.description` and a link on every operation. */
export function withChangelogLinks(bundle: OpenApiDoc): OpenApiDoc {
  const doc = structuredClone(bundle);
  if (isObject(doc.info)) {
    const intro = typeof doc.info.description === "string" ? doc.info.description.trimEnd() : "";
    doc.info.description =
      `${intro}\n\n## ${CHANGELOG_SECTION}\n\n` +
      `What changed in this API, newest first: every change of the contract, classified as breaking or not, with ` +
      `what it affects, in [the changelog](${PAGE_FILE}) and its [Atom feed](${FEED_FILE}).\n`;
  }
  for (const { operation } of listOperations(doc)) {
    if (typeof operation.operationId !== "string") continue;
    const text = typeof operation.description === "string" ? operation.description.trimEnd() : "";
    const link = `[${OPERATION_LINK_TEXT}](${PAGE_FILE}#${operationAnchor(operation.operationId)})`;
    operation.description = text ? `${text}\n\n${link}\n` : `${link}\n`;
  }
  return doc;
}
