/**
 * The one router (no Node API): strips the server base path and matches path templates segment by segment
 * (same segment count, literal segments win over parameters), URL-decoding parameter values. The contract
 * validator, the sandbox core, the mock and the example matcher all route through it.
 */

type Segment = { literal: string } | { param: string };

/** What a route is matched on: its method (any case) and its path template (`/people/{slug}`). */
export interface RouteKey {
  method: string;
  path: string;
}

interface Template<T> {
  template: string;
  segments: Segment[];
  byMethod: Map<string, T>;
}

export type RouteOutcome<T> =
  { ok: true; route: T; template: string; params: Record<string, string> } | { ok: false; message: string };

export interface ParsedUrl {
  path: string;
  query: URLSearchParams;
}

const PLACEHOLDER_ORIGIN = "http://recorded.invalid";

/** Accepts `/v1/people?x=1` or an absolute URL; the path stays percent-encoded so `%2F` stays inside a segment. */
export function parseUrl(url: string): ParsedUrl {
  const parsed = new URL(url, PLACEHOLDER_ORIGIN);
  return { path: parsed.pathname, query: parsed.searchParams };
}

function splitPath(path: string): string[] {
  return path.replace(/^\/+/, "").split("/");
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // malformed escapes are kept as sent; the parameter schema judges them
  }
}

/** Negative when `a` is more specific: at the first differing position a literal beats a parameter. */
function bySpecificity<T>(a: Template<T>, b: Template<T>): number {
  for (let i = 0; i < a.segments.length; i++) {
    const aLiteral = "literal" in a.segments[i]!;
    const bLiteral = "literal" in b.segments[i]!;
    if (aLiteral !== bLiteral) return aLiteral ? -1 : 1;
  }
  return 0;
}

export class Router<T> {
  private readonly templates: Template<T>[] = [];
  declare readonly basePath: string;

  /** `keyOf` names each route's method and path template (the first route of a method and template wins). */
  constructor(basePath: string, routes: readonly T[], keyOf: (route: T) => RouteKey) {
    this.basePath = basePath;
    const byTemplate = new Map<string, Template<T>>();
    for (const route of routes) {
      const { method, path } = keyOf(route);
      let template = byTemplate.get(path);
      if (!template) {
        const segments = splitPath(path).map((s): Segment => {
          const param = /^\{([^}]+)\}$/.exec(s);
          return param ? { param: param[1]! } : { literal: s };
        });
        template = { template: path, segments, byMethod: new Map() };
        byTemplate.set(path, template);
        this.templates.push(template);
      }
      const upper = method.toUpperCase();
      if (!template.byMethod.has(upper)) template.byMethod.set(upper, route);
    }
  }

  /** The path under the base path, or null when the URL is not under it. */
  stripBase(path: string): string | null {
    if (this.basePath === "") return path;
    if (path === this.basePath) return "/";
    return path.startsWith(`${this.basePath}/`) ? path.slice(this.basePath.length) : null;
  }

  /** The templates a path (under the base path, still percent-encoded) matches, most specific first. */
  private matching(local: string): { parts: string[]; templates: Template<T>[] } {
    const parts = splitPath(local);
    const templates = this.templates
      .filter((t) => t.segments.length === parts.length)
      .filter((t) => t.segments.every((s, i) => ("literal" in s ? s.literal === parts[i] : parts[i] !== "")))
      .sort(bySpecificity);
    return { parts, templates };
  }

  /** Every route, of any method, whose template matches `path` (under the base path), most specific first. */
  candidates(path: string): T[] {
    const local = this.stripBase(path);
    return local === null ? [] : this.matching(local).templates.flatMap((t) => [...t.byMethod.values()]);
  }

  /** The route for a method and URL (path and query, or absolute), with its decoded path parameters. */
  find(method: string, url: string): RouteOutcome<T> {
    return this.match(method, parseUrl(url).path);
  }

  /** The route for a method and a path (percent-encoded, no query), with its decoded path parameters. */
  match(method: string, path: string): RouteOutcome<T> {
    const local = this.stripBase(path);
    if (local === null)
      return { ok: false, message: `path ${path} is not under the server base path ${this.basePath}` };
    const { parts, templates } = this.matching(local);
    if (templates.length === 0)
      return { ok: false, message: `no path template matches ${local} (${method.toUpperCase()} ${path})` };
    const upper = method.toUpperCase();
    const template = templates.find((t) => t.byMethod.has(upper));
    if (!template) {
      const first = templates[0]!;
      return {
        ok: false,
        message: `${first.template} has no ${upper} operation (documented: ${[...first.byMethod.keys()].join(", ")})`,
      };
    }
    const params: Record<string, string> = {};
    template.segments.forEach((s, i) => {
      if ("param" in s) params[s.param] = decode(parts[i]!);
    });
    return { ok: true, route: template.byMethod.get(upper)!, template: template.template, params };
  }
}
