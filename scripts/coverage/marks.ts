/**
 * One exchange as coverage marks: the operation it reached, the documented status cell its answer falls in, the
 * named examples its answer body equals, and the documented parameters it sent with a valid or an invalid value
 * (as the contract validator judges the request).
 */
import { isDeepStrictEqual } from "node:util";
import { DEFAULT_SPEC_PATH, getValidator, loadSpec, type Exchange } from "../../contract-core/index.js";
import { cellsOf, paramPointer, type OperationCells, type ParamCell } from "./cells.js";

export interface Mark {
  operationId: string;
  /** The documented status cell (`201`, `4XX`, `default`), or null when the spec documents none that fits. */
  status: string | null;
  examples: string[];
  /** Parameters by `paramPointer`. */
  valid: string[];
  invalid: string[];
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

function sent(param: ParamCell, exchange: Exchange, url: URL): boolean {
  if (param.in === "path") return true;
  if (param.in === "query") return url.searchParams.has(param.name);
  const headers = exchange.request.headers ?? {};
  return Object.keys(headers).some((k) => k.toLowerCase() === param.name.toLowerCase());
}

/** Marks exchanges of one spec (a path or the parsed bundle; default the bundled one), read once. */
export function createMarker(spec: string | object = DEFAULT_SPEC_PATH): {
  cells: OperationCells[];
  mark(exchange: Exchange): Mark | null;
} {
  const doc = typeof spec === "string" ? loadSpec(spec) : spec;
  const validator = getValidator(spec);
  const cells = cellsOf(doc);
  const byId = new Map(cells.map((op) => [op.operationId, op]));
  return {
    cells,
    mark(exchange) {
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
      };
    },
  };
}
