import type { Middleware } from "openapi-fetch";

/** How the API key is sent; the reference asks for exactly one method per request. */
export type AuthMethod = "bearer" | "x-api-key";

const ORG_HEADER = "X-Service-Org-Id";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function assertOrgId(value: string, where: string): void {
  if (!UUID.test(value)) {
    throw new TypeError(`${where} must be an organization UUID (header ${ORG_HEADER}), got ${JSON.stringify(value)}`);
  }
}

export interface AuthOptions {
  apiKey: string;
  auth: AuthMethod;
  orgId?: string | undefined;
}

/** Checks the options up front; messages never contain the key. */
export function validateAuthOptions(options: AuthOptions): void {
  if (typeof options.apiKey !== "string" || options.apiKey.trim() === "") {
    throw new TypeError("apiKey must be a non-empty string");
  }
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point of this check
  if (/[\s\u0000-\u001f\u007f]/.test(options.apiKey)) {
    throw new TypeError("apiKey must not contain whitespace or control characters");
  }
  if (options.auth !== "bearer" && options.auth !== "x-api-key") {
    throw new TypeError(`auth must be "bearer" or "x-api-key", got ${JSON.stringify(options.auth)}`);
  }
  if (options.orgId !== undefined) assertOrgId(options.orgId, "orgId");
}

/**
 * Sets the one auth header (and removes the other one if a caller passed it), and sets
 * X-Service-Org-Id from `orgId` unless the call passed its own value, which must be a UUID too.
 */
export function authMiddleware(options: AuthOptions): Middleware {
  const [header, value, other] =
    options.auth === "bearer"
      ? ["Authorization", `Bearer ${options.apiKey}`, "X-Api-Key"]
      : ["X-Api-Key", options.apiKey, "Authorization"];
  return {
    onRequest({ request }) {
      request.headers.delete(other);
      request.headers.set(header, value);
      const orgId = request.headers.get(ORG_HEADER);
      if (orgId !== null) assertOrgId(orgId, `The ${ORG_HEADER} header`);
      else if (options.orgId !== undefined) request.headers.set(ORG_HEADER, options.orgId);
      return request;
    },
  };
}
