/**
 * One exchange as contract-coverage marks: the operation it reached, the documented status cell its answer falls
 * in, the named examples its answer body equals, the documented parameters it sent with a valid or an invalid
 * value (as the contract validator judges the request), and whether the answer was forced rather than caused:
 * asked for with `Prefer: code=` (or its `__code` query stand-in) or by a test kit's fault, so that it says
 * nothing about what produces the status. Shared by `npm run coverage` and the sandbox's test harness.
 */
import { isDeepStrictEqual } from "node:util";
import { getValidator } from "./get-validator.js";
import { cellsOf, paramPointer, type OperationCells, type ParamCell } from "./coverage-cells.js";
import { preferencePairs } from "./prefer.js";
import { DEFAULT_SPEC_PATH, loadSpec } from "./spec.js";
import type { Exchange } from "./types.js";

export interface Mark {
  operationId: string;
  /** The documented status cell (`201`, `4XX`, `default`), or null when the spec documents none that fits. */
  status: string | null;
  examples: string[];
  /** Parameters by `paramPointer`. */
  valid: string[];
  invalid: string[];
  /** Present when the status was forced (`Prefer: code=`, a kit fault), not caused by the request. */
  forced?: true;
}

/** The cell an answer's status falls in: the exact code, else its range (`4XX`), else `default`. */
export function statusCell(statuses: readonly { status: string }[], answered: number): string | null {
  const documented = new Set(statuses.map((s) => s.status));
  const exact = String(answered);
  if (documented.has(exact)) return exact;
  const range = `${exact[0]}XX`;
  if (documented.has(range)) return range;
  return documented.has("DEFAULT") ? "DEFAULT" : null;
}

function header(exchange: Exchange, name: string): string | undefined {
  const headers = exchange.request.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value.join(",") : (value as string | undefined);
}

/** Whether the request asked for its status: `Prefer: code=…`, or the `__code` query parameter standing in for it. */
export function asksForStatus(exchange: Exchange, url = new URL(exchange.request.url, "http://recorded.invalid")) {
  return preferencePairs(header(exchange, "prefer")).has("code") || url.searchParams.has("__code");
}

function sent(param: ParamCell, exchange: Exchange, url: URL): boolean {
  if (param.in === "path") return true;
  if (param.in === "query") return url.searchParams.has(param.name);
  return header(exchange, param.name.toLowerCase()) !== undefined;
}

/** Marks exchanges of one spec (a path or the parsed bundle; default the bundled one), read once. */
export function createMarker(spec: string | object = DEFAULT_SPEC_PATH): {
  cells: OperationCells[];
  /** `forced`: the caller knows the answer was forced (a kit fault), whatever the request says. */
  mark(exchange: Exchange, forced?: boolean): Mark | null;
} {
  const doc = typeof spec === "string" ? loadSpec(spec) : spec;
  const validator = getValidator(spec);
  const cells = cellsOf(doc);
  const byId = new Map(cells.map((op) => [op.operationId, op]));
  return {
    cells,
    mark(exchange, forced = false) {
      const result = validator.validate(exchange);
      const op = result.operationId === null ? undefined : byId.get(result.operationId);
      if (!op) return null;
      const status = statusCell(op.statuses, exchange.response.status);
      const values = op.statuses.find((s) => s.status === status)?.values ?? new Map<string, unknown>();
      const matched = [...values].filter(([, v]) => isDeepStrictEqual(v, exchange.response.body)).map(([name]) => name);
      const url = new URL(exchange.request.url, "http://recorded.invalid");
      const requestErrors = result.errors.filter((e) => e.side === "request").map((e) => e.pointer);
      const valid: string[] = [];
      const invalid: string[] = [];
      for (const param of op.parameters) {
        if (!sent(param, exchange, url)) continue;
        const pointer = paramPointer(param);
        const bad = requestErrors.some((p) => p === pointer || p.startsWith(`${pointer}/`));
        (bad ? invalid : valid).push(pointer);
      }
      return {
        operationId: op.operationId,
        status,
        examples: matched,
        valid,
        invalid,
        ...(forced || asksForStatus(exchange, url) ? { forced: true as const } : {}),
      };
    },
  };
}
