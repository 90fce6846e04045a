/**
 * The Content-Security-Policy of the published pages, as a `<meta>` tag each page carries in its head (GitHub
 * Pages and a file opened from disk send no headers of ours). The changelog and trace pages run no script:
 * `default-src 'none'`, their one inline style by hash, the empty `data:` icon. The reference page's policy is
 * in scripts/docs/build.ts (its scripts by hash), built with `cspMeta` and `sourceHash` from here.
 */
import { createHash } from "node:crypto";

/** `'sha256-…'` of a script's or style element's text, as CSP matches it. */
export const sourceHash = (text: string): string =>
  `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** A policy from its directives (`{ "default-src": ["'none'"] }` -> `default-src 'none'`). */
export const policyText = (directives: Record<string, string[]>): string =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(" "))
    .join("; ");

export const cspMeta = (policy: string): string =>
  `<meta http-equiv="Content-Security-Policy" content="${policy.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}" />`;

/** The policy of a page without script: nothing loads but its inline styles (by hash) and `data:` images. */
export function staticPagePolicy(styles: string[]): string {
  return policyText({
    "default-src": ["'none'"],
    "style-src": styles.map(sourceHash),
    "img-src": ["data:"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
  });
}
