/**
 * The Host step, first in the pipeline when the host asks for it (`allowedHosts`, the Node host always):
 * a request whose Host is not a loopback name, an IP address or a name the sandbox was told to serve is a
 * 403 on every route, before anything else is read, so a page on another site that rebinds its name to the
 * sandbox can neither read nor change it; a request without Host is a 400. The MSW host has no Host to check
 * (the page's own requests), so it gives none.
 */
import { foreignHostProblem } from "../../../contract-core/portable.js";
import { header, type RequestHeaders } from "../contract/auth.js";
import { ApiError, invalidRequest } from "../contract/errors.js";

export function refuseForeignHost(headers: RequestHeaders, allowedHosts: readonly string[] | null): void {
  if (allowedHosts === null) return;
  const host = header(headers, "host");
  const problem = foreignHostProblem(host, allowedHosts);
  if (problem === null) return;
  // The reference has no 403 error type (like the control step's refusal): the general one, with the status.
  throw host === undefined || host === "" ? invalidRequest(problem) : new ApiError(403, "invalid_request", problem);
}
