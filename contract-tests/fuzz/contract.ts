/**
 * The fuzzer's one door to the shared contract library (validator, spec loading, pointers), so that the
 * rest of the fuzzer does not depend on where that library lives.
 */
export {
  DEFAULT_SPEC_PATH,
  createContractValidator,
  exchangeFromFetch,
  type ContractError,
  type ContractValidator,
  type Exchange,
} from "../lib/index.js";
export { loadSpecFile as loadSpec, serverBasePath, type OpenApiDocument } from "../lib/spec.js";
export { deref, isObj, resolvePointer, type Obj } from "../lib/pointer.js";
