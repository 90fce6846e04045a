/**
 * The authenticate step, first for every operation (before the body is read): the key names the caller
 * and its organization; a missing, unknown or revoked key is a 401 whatever else the request holds. In
 * stateless (examples) mode any presented key passes and no organization is named.
 */
import { authenticate, presentedKey, type AuthContext } from "../contract/auth.js";
import type { RequestHeaders } from "../contract/context.js";
import { unauthorized } from "../contract/errors.js";
import type { SandboxState } from "../contract/state.js";

export function authenticateRequest(headers: RequestHeaders, state: SandboxState): AuthContext {
  return authenticate(headers, state);
}

/** Examples mode: a key must be presented, any key will do. */
export function requireAnyKey(headers: RequestHeaders): void {
  if (!presentedKey(headers)) throw unauthorized();
}
