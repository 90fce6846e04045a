/**
 * The Host step, first in the pipeline when the host asks for it (`allowedHosts`, the Node host always):
 * a request whose Host is not a loopback name, an IP address or a name the sandbox was told to serve is a
 * 403 on every route, before anything else is read, so a page on another site that rebinds its name to the
 * sandbox can neither read nor change it. A request without Host is the host's to refuse (the Node host's
 * 400, before the core): in-process requests carry none. The MSW host has no Host to check (the page's own
 * requests), so it gives no names.
 */
import { foreignHostProblem } from "../../../contract-core/portable.js";
import { header, type RequestHeaders } from "../contract/auth.js";
import { outsideOperations } from "../contract/errors.js";

export function refuseForeignHost(headers: RequestHeaders, allowedHosts: readonly string[] | null): void {
  if (allowedHosts === null) return;
  const host = header(headers, "host");
  const problem = host === undefined ? null : foreignHostProblem(host, allowedHosts);
  // The reference has no 403 error type (like the control step's refusal): the general one, with the status.
  if (problem !== null) throw outsideOperations.forbidden(problem);
}
