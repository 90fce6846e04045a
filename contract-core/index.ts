/**
 * The contract core: the one public entry for everything the parts share about the contract (spec loading,
 * pointers, operations, Redocly, Ajv, violation wording, the error vocabulary, the Prefer grammar, the CLI
 * convention, HTTP limits; the node-free part is `portable.ts`, re-exported here) and the contract validator:
 * does a recorded HTTP exchange match the Talent Graph API contract?
 *
 *   import { createContractValidator, exchangeFromFetch, formatErrors } from "../contract-core/index.js";
 *   const contract = createContractValidator();            // generated/openapi.json, compiled once per process
 *   const result = contract.validate(await exchangeFromFetch(req, res));
 *   expect(result.valid, formatErrors(result)).toBe(true);
 */

export type {
  ContractError,
  ContractValidator,
  Exchange,
  ExchangeResult,
  HeaderMap,
  RecordedRequest,
  RecordedResponse,
  RouteMatch,
} from "./types.js";
export { exchangeFromFetch, type FetchRequestInfo } from "./fetch.js";
export { formatError, formatErrors } from "./format.js";
export * from "./portable.js";
export { createAjv, createSpecCompiler, type SpecCompiler } from "./ajv.js";
export {
  DEFAULT_SPEC_PATH,
  REPO_ROOT,
  RUN_TYPESCRIPT,
  SPEC_ROOT_PATH,
  SpecLoadError,
  loadSpec,
  openApiDocument,
  readSpec,
} from "./spec.js";
export { BundleError, REDOCLY_ENV, bundleSpec, redocly } from "./redocly.js";
export * from "./cli.js";
export { assertPortFree, portHolder } from "./port-probe.js";
export { checkTarget, type TargetCheckOptions } from "./target.js";
export {
  controlCharacters,
  escapeLogText,
  escapeTerminalText,
  requestLogLine,
  type LoggedRequest,
} from "./request-log.js";
export {
  MAX_BODY_BYTES,
  MAX_HEADER_BYTES,
  answerClientError,
  bodyTooLargeMessage,
  continueWithin,
  drainBody,
  readBodyWithin,
  clientErrorResponse,
  type ClientError,
} from "./http-limits.js";
export { openRaw, parseRawResponse, sendRaw, type RawResponse } from "./raw-http.js";
export { checkRecorded, loadRecordings, RecordingError, type LoadedExchange } from "./recordings.js";
export type { Validator } from "./validator.js";
export { createContractValidator, getValidator } from "./get-validator.js";
export { cellsOf, paramPointer, type OperationCells, type ParamCell, type StatusCell } from "./coverage-cells.js";
export { asksForStatus, createMarker, statusCell, type Mark } from "./coverage-marks.js";
export { SUITE_LOG_DIR, logSuiteExchange } from "./suite-log.js";
