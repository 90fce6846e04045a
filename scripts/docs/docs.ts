/**
 * `npm run docs`: publishes the API reference from the bundle, with the trace page and the changelog beside it.
 *   generated/openapi.json -> dist/docs/index.html (one self-contained page, opens offline)
 *   spec/trace.yaml and the API reference -> dist/docs/trace.html (linked from the page)
 *   the spec's git history -> dist/docs/changelog.html and changelog.xml (scripts/changelog/)
 * Options: --spec <bundle.json> --out <file.html> --title <text>
 */
import { COMMON_OPTIONS, escapeTerminalText, runCommand, type CommandSpec } from "../../contract-core/index.js";
import path from "node:path";
import { buildChangelog } from "../changelog/changelog.js";
import { hasCommit } from "../changelog/history.js";
import { buildDocs, DEFAULT_OUT, DEFAULT_SPEC, ROOT, displayPath } from "./build.js";
import { writeTracePage } from "./trace-page.js";

export const DOCS_COMMAND: CommandSpec = {
  name: "npm run docs",
  summary: "Builds the API reference: one self-contained HTML page that opens offline.",
  options: {
    spec: COMMON_OPTIONS.spec(displayPath(DEFAULT_SPEC)),
    out: COMMON_OPTIONS.out(displayPath(DEFAULT_OUT), "the page to write"),
    title: { type: "string", value: "<text>", description: "page title (default: the spec's info.title)" },
  },
};

await runCommand(DOCS_COMMAND, async ({ values }) => {
  const outFile = path.resolve(String(values.out));
  // The three are independent: the trace page and the changelog are written while Redocly renders the reference.
  // The changelog reads the spec's git history: a copy of the sources without it gets the reference only.
  const [result, trace, changelog] = await Promise.all([
    buildDocs({
      specPath: String(values.spec),
      outFile,
      ...(typeof values.title === "string" ? { title: values.title } : {}),
    }),
    writeTracePage(outFile),
    hasCommit(ROOT, "HEAD") ? buildChangelog({ outDir: path.dirname(outFile) }) : undefined,
  ]);
  // A warning quotes the spec: its control characters are shown, never sent to the terminal.
  for (const warning of result.warnings) console.warn(`warning: ${escapeTerminalText(warning)}`);
  console.log(`Trace: ${displayPath(trace)}`);
  console.log(
    `Docs: ${displayPath(result.outFile)} (${result.bytes} bytes, ${result.operations} operations, ` +
      `${result.shapeNotShown.size} with shapes not shown)`,
  );
  if (!changelog) {
    console.warn("warning: no changelog: this folder is not a git checkout, and the changelog reads its history");
    return;
  }
  if (changelog.shallow) console.warn(changelog.shallow);
  console.log(
    `Changelog: ${displayPath(changelog.page)} and ${displayPath(changelog.feed)} (${changelog.entries} entries)`,
  );
});
