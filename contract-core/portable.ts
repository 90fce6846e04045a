/**
 * The contract core's node-free entry: what a browser bundle (the sandbox core under MSW) may import. No
 * `node:` module is reachable from here; file loading, Redocly, the CLI convention and the contract validator
 * stay in `index.ts`, which re-exports all of this.
 */
export { serverBasePath, serverUrl, type OpenApiDocument } from "./servers.js";
export { Router } from "./route.js";
export { exampleMatcher, pastLastPage, type ExampleMatcher, type MockMatch } from "./example-match.js";
export { deref, escapeToken, followRef, isObj, resolvePointer, unescapeToken, type Obj } from "./pointer.js";
export { HTTP_METHODS, OPERATIONS, listOperations, operationKey, type HttpMethod } from "./operations.js";
export { createSpecChecker, type SchemaCheck, type SchemaError, type SpecChecker } from "./schema-check.js";
export {
  describeViolation,
  describeViolations,
  mustBeOneOf,
  patternWording,
  requestWording,
  violationFromAjv,
  type Violation,
  type ViolationLocation,
} from "./violations.js";
export * from "./error-vocabulary.js";
export { header, presentedKey, type RequestHeaders } from "./api-key.js";
export * from "./prefer.js";
export { parseQueryInteger } from "./query-integer.js";
export { normalizeRequestPath } from "./request-path.js";
export { NO_HOST_MESSAGE, foreignHostProblem } from "./host-guard.js";
export { queryRecord, queryValues, singleQueryValue } from "./query-values.js";
export { brokenDependency, paramDependencies, sentIn, type ParamDependency } from "./param-dependencies.js";
export { termListRule, termsOf, type TermListRule, type TermSplit, type TermsResult } from "./term-list.js";
export { MAX_JSON_DEPTH, bodyTooDeepMessage, jsonTooDeep } from "./json-depth.js";
export { invalidUtf8At, jsonTextOf, type JsonText } from "./json-text.js";
export * from "./consumer-contract.js";
