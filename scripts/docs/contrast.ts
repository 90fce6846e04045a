/**
 * Colours for Redoc's own markup that reach WCAG AA contrast (4.5:1 for text) in its light and dark themes:
 * Redoc CE 3 draws code tokens, links, HTTP-method tags and secondary text from its palette variables, several of
 * which are lighter than AA allows on its near-white backgrounds (blue #3072db on #fbfbfc is 4.45:1, the PATCH tag
 * #f5c31d on white 1.65:1), and its dark theme's secondary grey #555761 on #22242b is 2.15:1. Redoc has no theme
 * option for these in a built page, so the build overrides the variables; selectors outrank Redoc's own
 * (`:root` / `:root.dark`) whatever order the styles arrive in.
 */
export const CONTRAST_STYLES = `<style id="contrast">
  :root:not(.dark) { --color-blue-5: #1d4ed8; --color-blue-6: #1d4ed8; --color-blue-7: #1d4ed8;
    --color-carrot-5: #9a3412; --color-carrot-7: #9a3412; --color-green-5: #15803d; --color-green-7: #15803d;
    --color-warm-grey-5: #686975; --color-warm-grey-7: #686975; }
  :root:not(.dark) .tag-get { --tag-color: #166534; }
  :root:not(.dark) .tag-post { --tag-color: #1d4ed8; }
  :root:not(.dark) .tag-put { --tag-color: #9a3412; }
  :root:not(.dark) .tag-patch { --tag-color: #854d0e; }
  :root:not(.dark) .tag-delete { --tag-color: #b91c1c; }
  :root:root.dark { --color-warm-grey-5: #a3a4b0; --color-warm-grey-7: #a3a4b0; }
</style>`;

export function withContrast(html: string): string {
  return html.includes('id="contrast"') ? html : html.replace(/<\/head>/i, () => `${CONTRAST_STYLES}\n</head>`);
}
