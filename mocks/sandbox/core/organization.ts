/**
 * The organization step, right after authentication: an organization whose plan no longer allows access
 * answers 402 to every operation except getAccount (which tells it why), whatever the body or Prefer header.
 */
import type { OperationId } from "../contract/context.js";
import { paymentRequired } from "../contract/errors.js";
import type { OrgState } from "../contract/state.js";

export function requireOrganizationAccess(org: OrgState, operationId: OperationId | string): void {
  if (!org.info.accessAllowed && operationId !== "getAccount") throw paymentRequired();
}
