/**
 * Route matching: strip the server base path, match path templates segment by segment
 * (same segment count, literal segments win over parameters), URL-decode parameter values.
 */
import type { OperationModel } from "./model.js";

type Segment = { literal: string } | { param: string };

interface Template {
  template: string;
  segments: Segment[];
  byMethod: Map<string, OperationModel>;
}

export type RouteOutcome =
  { ok: true; operation: OperationModel; params: Record<string, string> } | { ok: false; message: string };

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
function bySpecificity(a: Template, b: Template): number {
  for (let i = 0; i < a.segments.length; i++) {
    const aLiteral = "literal" in a.segments[i]!;
    const bLiteral = "literal" in b.segments[i]!;
    if (aLiteral !== bLiteral) return aLiteral ? -1 : 1;
  }
  return 0;
}

export class Router {
  private readonly templates: Template[] = [];
  declare readonly basePath: string;

  constructor(basePath: string, operations: OperationModel[]) {
    this.basePath = basePath;
    const byTemplate = new Map<string, Template>();
    for (const operation of operations) {
      let template = byTemplate.get(operation.pathTemplate);
      if (!template) {
        const segments = splitPath(operation.pathTemplate).map((s): Segment => {
          const param = /^\{([^}]+)\}$/.exec(s);
          return param ? { param: param[1]! } : { literal: s };
        });
        template = { template: operation.pathTemplate, segments, byMethod: new Map() };
        byTemplate.set(operation.pathTemplate, template);
        this.templates.push(template);
      }
      template.byMethod.set(operation.method, operation);
    }
  }

  /** The path under the base path, or null when the URL is not under it. */
  stripBase(path: string): string | null {
    if (this.basePath === "") return path;
    if (path === this.basePath) return "/";
    return path.startsWith(`${this.basePath}/`) ? path.slice(this.basePath.length) : null;
  }

  find(method: string, url: string): RouteOutcome {
    const { path } = parseUrl(url);
    const local = this.stripBase(path);
    if (local === null)
      return { ok: false, message: `path ${path} is not under the server base path ${this.basePath}` };
    const parts = splitPath(local);
    const candidates = this.templates
      .filter((t) => t.segments.length === parts.length)
      .filter((t) => t.segments.every((s, i) => ("literal" in s ? s.literal === parts[i] : parts[i] !== "")))
      .sort(bySpecificity);
    if (candidates.length === 0)
      return { ok: false, message: `no path template matches ${local} (${method.toUpperCase()} ${path})` };
    const upper = method.toUpperCase();
    const template = candidates.find((t) => t.byMethod.has(upper));
    if (!template) {
      const first = candidates[0]!;
      return {
        ok: false,
        message: `${first.template} has no ${upper} operation (documented: ${[...first.byMethod.keys()].join(", ")})`,
      };
    }
    const params: Record<string, string> = {};
    template.segments.forEach((s, i) => {
      if ("param" in s) params[s.param] = decode(parts[i]!);
    });
    return { ok: true, operation: template.byMethod.get(upper)!, params };
  }
}
