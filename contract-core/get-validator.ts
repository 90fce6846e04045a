/**
 * The contract validator of a spec, compiled once per process (per path / per parsed document): the entry
 * (index.ts) exports it, and coverage marks use it without importing the entry.
 */
import { resolve } from "node:path";
import type { ContractValidator } from "./types.js";
import { DEFAULT_SPEC_PATH, loadSpec } from "./spec.js";
import type { OpenApiDocument } from "./servers.js";
import { compileModel } from "./model.js";
import { Validator } from "./validator.js";

const byPath = new Map<string, Validator>();
const byObject = new WeakMap<object, Validator>();

/**
 * A validator for `spec` (a path to a JSON/YAML OpenAPI 3.1 document, or the parsed document);
 * default `<repo>/generated/openapi.json`. Compiled once and cached per process (per path / per object).
 */
export function createContractValidator(spec: string | object = DEFAULT_SPEC_PATH): ContractValidator {
  return getValidator(spec);
}

/** Same cache as createContractValidator, typed with the internals (operations, basePath) for the CLI and tools. */
export function getValidator(spec: string | object = DEFAULT_SPEC_PATH): Validator {
  const path = typeof spec === "string" ? resolve(spec) : undefined;
  let validator = path === undefined ? byObject.get(spec as object) : byPath.get(path);
  if (validator) return validator;
  validator = new Validator(compileModel(path === undefined ? (spec as OpenApiDocument) : loadSpec(path)));
  if (path === undefined) byObject.set(spec as object, validator);
  else byPath.set(path, validator);
  return validator;
}
