/**
 * Puts "Try it" into the built page: esbuild bundles the loader (runs with the page) and the panel with the in-page
 * sandbox (kept as unparsed text until the first "Try it"), and `withTryIt(html)` inlines both and the buttons'
 * styles, so the page stays one self-contained file.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { CODE_ID, TRY_IT_BUTTON_STYLES } from "./styles.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [path.join(HERE, entry)],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** Text that may sit inside a `<script>` element: nothing in it can end the element or open a comment there. */
export function scriptText(code: string): string {
  return code.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

export interface TryItParts {
  loader: string;
  panel: string;
}

export async function bundleTryIt(): Promise<TryItParts> {
  const [loader, panel] = await Promise.all([bundle("loader.ts"), bundle("panel.ts")]);
  return { loader, panel };
}

/**
 * The page with the try-it buttons' styles in its head and the loader and the panel's text before its last
 * `</body>` (the inlined Redoc bundle has the same words inside its code, earlier).
 */
export function withTryIt(html: string, parts: TryItParts): string {
  if (html.includes(`id="${CODE_ID}"`)) return html;
  const end = Math.max(html.lastIndexOf("</body>"), html.lastIndexOf("</BODY>"));
  if (end < 0) throw new Error("The docs page has no </body>");
  const tail =
    `<script type="text/plain" id="${CODE_ID}">${scriptText(parts.panel)}</script>\n` +
    `<script>${scriptText(parts.loader)}</script>\n`;
  const page = html.slice(0, end) + tail + html.slice(end);
  return page.replace(/<\/head>/i, () => `${TRY_IT_BUTTON_STYLES}\n</head>`);
}
