/**
 * The checks applied to every fuzzed exchange, after Schemathesis: no server error, status code documented,
 * response conforms to its schema, invalid data rejected, and the reference's error shape on every 4xx.
 */
import { isFrameworkErrorBody, isObj } from "../../contract-core/index.js";
import type { ContractError, ContractValidator, Exchange } from "../../contract-core/index.js";
import type { FuzzRequest } from "./requests.js";

export const CHECKS = [
  "not_a_server_error",
  "status_code_conformance",
  "response_schema_conformance",
  "negative_data_rejection",
  "error_shape",
] as const;
export type CheckName = (typeof CHECKS)[number];

export interface CheckFailure {
  check: CheckName;
  message: string;
}

export interface CheckOutcome {
  /** Whether the request was invalid: built invalid by construction, or rejected by the contract's request side. */
  invalid: boolean;
  failures: CheckFailure[];
}

/** Statuses where the reference allows the framework shape `{ statusCode, error, message }`. */
const FRAMEWORK_SHAPE_STATUSES = new Set([400, 429]);

/** `{ error: { type, message } }`, or `{ statusCode, error, message }` where the reference allows it. */
export function hasErrorShape(status: number, body: unknown): boolean {
  const error = isObj(body) ? body.error : undefined;
  if (isObj(error) && typeof error.type === "string" && typeof error.message === "string") return true;
  return FRAMEWORK_SHAPE_STATUSES.has(status) && isFrameworkErrorBody(body);
}

function describe(errors: ContractError[]): string {
  const shown = errors.slice(0, 3).map((e) => `${e.pointer}: ${e.message}`);
  return errors.length > 3 ? `${shown.join("; ")}; and ${errors.length - 3} more` : shown.join("; ");
}

/**
 * Applies every check to one exchange. `exchange.request.url` is the spec's path (base path included) of
 * the operation the request was built for; `canonicalUrl` routes to the same operation when the sent URL
 * cannot be routed (a bad percent-encoding), so that the response is still judged against that operation.
 */
export function runChecks(
  contract: ContractValidator,
  request: FuzzRequest,
  exchange: Exchange,
  canonicalUrl: string,
): CheckOutcome {
  const failures: CheckFailure[] = [];
  const { status, body } = exchange.response;
  const routed = contract.matchRoute(request.method, exchange.request.url)?.operationId === request.operationId;
  const judged: Exchange = routed ? exchange : { ...exchange, request: { ...exchange.request, url: canonicalUrl } };

  // One validation of both sides when the URL routes; the response side alone when it does not.
  const errors = (routed ? contract.validate(judged) : contract.validateResponse(judged)).errors;
  const requestErrors = errors.filter((e) => e.side === "request");
  const responseErrors = errors.filter((e) => e.side === "response");
  const invalid = request.invalidByConstruction === true || !routed || requestErrors.length > 0;

  if (status >= 500)
    failures.push({
      check: "not_a_server_error",
      message: `server error ${status}${isObj(body) ? `: ${JSON.stringify(body).slice(0, 200)}` : ""}`,
    });

  const statusErrors = responseErrors.filter((e) => e.pointer === "/status" || e.pointer === "/url");
  const bodyErrors = responseErrors.filter((e) => e.pointer !== "/status" && e.pointer !== "/url");
  if (statusErrors.length > 0) failures.push({ check: "status_code_conformance", message: describe(statusErrors) });
  if (bodyErrors.length > 0) failures.push({ check: "response_schema_conformance", message: describe(bodyErrors) });

  if (invalid && status >= 200 && status < 300) {
    const why = request.mutation ?? describe(requestErrors);
    failures.push({ check: "negative_data_rejection", message: `an invalid request (${why}) got ${status}` });
  }
  if (status >= 400 && status < 500 && !hasErrorShape(status, body)) {
    const shown =
      body === null || body === undefined || body === "" ? "an empty body" : JSON.stringify(body).slice(0, 200);
    failures.push({
      check: "error_shape",
      message: `${status} answered with ${shown}, not { error: { type, message } }${FRAMEWORK_SHAPE_STATUSES.has(status) ? " or { statusCode, error, message }" : ""}`,
    });
  }
  return { invalid, failures };
}
