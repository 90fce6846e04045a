/** Inlining Try it into the page: the panel's text cannot end its element, and both scripts land before the last </body>. */
import { describe, expect, it } from "vitest";
import { assertOffline } from "../build.js";
import { scriptText, withTryIt } from "./bundle.js";
import { CODE_ID } from "./styles.js";

const PAGE =
  "<html><head><title>t</title></head><body><div id=redoc></div>" +
  // Redoc's inlined code holds the same words as the page's own tags.
  '<script>const s = "<html><head></head><body>" + x + "</body>"; hydrate(__redoc_definition, {"disableTelemetry":true})</script>' +
  "</body></html>";
const PARTS = { loader: "window.loaded = 1;", panel: 'const t = "</script><script>alert(1)</script><!-- x";' };

describe("withTryIt", () => {
  const page = withTryIt(PAGE, PARTS);

  it("puts the panel (as text) and the loader before the page's last </body>, the button styles in its head", () => {
    expect(page.indexOf(`id="${CODE_ID}"`)).toBeGreaterThan(page.indexOf("hydrate(__redoc_definition"));
    expect(page.lastIndexOf("</body>")).toBeGreaterThan(page.indexOf("window.loaded = 1;"));
    expect(page.indexOf('<style id="try-it-button">')).toBeLessThan(page.indexOf("</head>"));
    expect(page.indexOf('<style id="try-it-button">')).toBeGreaterThan(0);
    expect(withTryIt(page, PARTS)).toBe(page);
    assertOffline(page);
  });

  it("keeps the panel's text from ending its script element or opening a comment (negative: the raw text would)", () => {
    const element = page.slice(page.indexOf(`id="${CODE_ID}">`));
    const text = element.slice(element.indexOf(">") + 1, element.indexOf("</script>"));
    expect(text).toBe(scriptText(PARTS.panel));
    expect(text).not.toMatch(/<\/script|<!--/i);
    // The escapes leave the code's meaning alone: the string is the same string.
    expect(new Function(`${text}; return t;`)()).toBe(new Function(`${PARTS.panel}; return t;`)());
    expect(PARTS.panel).toMatch(/<\/script/);
  });

  it("refuses a page without </body>", () => {
    expect(() => withTryIt("<html><head></head></html>", PARTS)).toThrow("no </body>");
  });
});
