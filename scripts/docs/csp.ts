/**
 * The reference page's Content-Security-Policy: one `<meta>` tag right after `<head>`, written here and
 * nowhere else (the page is served by GitHub Pages or opened from disk, neither sends a header of ours). The
 * tightest policy the page lives with, checked in Chromium (scripts/docs/csp.test.ts):
 * - scripts: only the page's own inline scripts, each by its SHA-256 (Redoc's bundle and hydration, the try-it
 *   loader, and the try-it panel kept as text until the loader runs it); no eval, no other source;
 * - no eval: Redoc's search probes for it (`Function(...)` in a try, to build its index in a worker) and, refused,
 *   indexes in the page instead (the one violation the page reports; the test checks search still finds);
 * - connections: the origins of the spec's servers, and what Try it's "another server" may name (CUSTOM_TARGETS:
 *   any https origin, http only on loopback), since an integrator types that base URL in the page;
 * - styles: inline (Redoc's styled-components and React `style` attributes need `'unsafe-inline'`);
 * - images and fonts: `data:` only; no base URL, form target, frame, object or anything else.
 * `frame-ancestors` cannot be set from a `<meta>` tag, so framing is up to the host's headers.
 */
import { cspMeta, policyText, sourceHash } from "../escape/csp.js";
import type { OpenApiDoc } from "./openapi.js";
import { resolveServerVariables } from "./prepare-spec.js";

const META = /<meta http-equiv="Content-Security-Policy" content="[^"]*" \/>\n?/g;
/** Every `<script>` element's text (none can hold `</script>`: it would end the element). */
const SCRIPTS = /<script\b[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The connect sources a base URL typed in Try it may reach: any https origin (a staging or live deployment), and
 * http only on this machine (`npm run mock`, `npm run sandbox` or a proxy on another port). A plain-http remote
 * server is refused by the page, as a browser would refuse it from an https page anyway.
 */
export const CUSTOM_TARGETS = ["https:", "http://127.0.0.1:*", "http://localhost:*"] as const;

/** The origins the spec's servers name (their variables at their defaults). */
export function serverOrigins(doc: OpenApiDoc): string[] {
  const copy = { servers: structuredClone(doc.servers ?? []) } as OpenApiDoc;
  resolveServerVariables(copy);
  const origins = new Set<string>();
  for (const server of Array.isArray(copy.servers) ? copy.servers : []) {
    const url = (server as { url?: unknown }).url;
    if (typeof url !== "string") continue;
    try {
      const { origin, protocol } = new URL(url);
      if (protocol === "http:" || protocol === "https:") origins.add(origin);
    } catch {
      // A relative or templated URL names no origin of its own.
    }
  }
  return [...origins];
}

/** The policy for `html` as it is now: the hash of each of its scripts, connections to `connect` only. */
export function referencePolicy(html: string, connect: readonly string[]): string {
  const hashes = new Set([...html.replace(META, "").matchAll(SCRIPTS)].map((m) => sourceHash(m[1] ?? "")));
  return policyText({
    "default-src": ["'none'"],
    "script-src": [...hashes],
    "connect-src": connect.length > 0 ? [...connect] : ["'none'"],
    "style-src": ["'unsafe-inline'"],
    "img-src": ["data:"],
    "font-src": ["data:"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
  });
}

/** The `connect-src` sources of the page's policy (empty when it has none). */
export function connectSources(html: string): string[] {
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? "";
  const directive = policy.split(";").find((d) => d.trim().startsWith("connect-src "));
  return (directive?.trim().split(/\s+/).slice(1) ?? []).filter((s) => s !== "'none'");
}

/** The page with its policy (re)written for its scripts as they are now; `connect` replaces the connect sources. */
export function withReferenceCsp(html: string, connect: readonly string[]): string {
  const page = html.replace(META, "");
  const meta = cspMeta(referencePolicy(page, connect));
  const head = /<head\b[^>]*>/i.exec(page);
  if (!head) throw new Error("The docs page has no <head>");
  const at = head.index + head[0].length;
  return `${page.slice(0, at)}\n${meta}${page.slice(at)}`;
}
