/**
 * The fuzzer's one door to the contract core (validator, spec loading, pointers, command line), so that the
 * rest of the fuzzer does not depend on where that library lives.
 */
export {
  checkTarget,
  COMMON_OPTIONS,
  keyFromEnv,
  DEFAULT_SPEC_PATH,
  UsageError,
  createContractValidator,
  formatUsage,
  isMain,
  parseCommandLine,
  usageError,
  type CommandSpec,
  deref,
  exchangeFromFetch,
  isObj,
  loadSpec,
  resolvePointer,
  serverBasePath,
  type ContractError,
  type ContractValidator,
  type Exchange,
  type Obj,
  type OpenApiDocument,
} from "../../contract-core/index.js";
