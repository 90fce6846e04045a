/**
 * Organizations and API keys of the sandbox (test keys: printed at start, listed in the README).
 * Resolution follows the reference's Authentication section.
 */
import { header, presentedKey, type RequestHeaders } from "../../../contract-core/portable.js";
import { invalidRequest, paymentRequired, unauthorized, type DocumentedOperation } from "./errors.js";
import type { OrgInfo, OrgState, SandboxState } from "./state.js";

/** Request headers with lower-case names, as every host hands them to the core (contract-core's reading). */
export { header, presentedKey, type RequestHeaders };

export const ORGS = {
  acme: {
    id: "0b8f6c1e-4d2a-4f3b-9a61-2c7e5d9f1a01",
    name: "Acme Recruiting",
    plan: "unlimited",
    accessAllowed: true,
    watchSlotsMax: 1000,
  },
  globex: {
    id: "5e3a9d27-81c4-4b6e-b0f2-7d4c1a8e6b02",
    name: "Globex Talent",
    plan: "index",
    accessAllowed: true,
    watchSlotsMax: 250,
  },
  initech: {
    id: "9c1d4e8a-2b7f-4a3c-8e5d-6f0b3a2c9d03",
    name: "Initech (trial ended)",
    plan: "free",
    accessAllowed: false,
    watchSlotsMax: 1000,
  },
} as const satisfies Record<string, OrgInfo>;

export const SEED_ORGS: readonly OrgInfo[] = Object.values(ORGS);

export type KeyKind = "customer" | "platform" | "revoked";

export interface SandboxKey {
  key: string;
  kind: KeyKind;
  /** Customer keys: their organization. */
  orgId?: string;
  description: string;
}

export const KEYS: readonly SandboxKey[] = [
  {
    key: "tgsb_acme_3f7a91c2d8e64b05",
    kind: "customer",
    orgId: ORGS.acme.id,
    description: "Acme Recruiting (Unlimited plan)",
  },
  {
    key: "tgsb_globex_b82e4d6a1c9f3075",
    kind: "customer",
    orgId: ORGS.globex.id,
    description: "Globex Talent (Index plan)",
  },
  {
    key: "tgsb_initech_5d0c7e2b9a4f1836",
    kind: "customer",
    orgId: ORGS.initech.id,
    description: "Initech: locked after its trial (402 except GET /me)",
  },
  {
    key: "tgsb_platform_e41b6f9d2c7a8053",
    kind: "platform",
    description: "Platform key: needs X-Service-Org-Id: <organization UUID>",
  },
  { key: "tgsb_revoked_7a2d9c4e1f6b3058", kind: "revoked", description: "Revoked key (401)" },
];

const byKey = new Map(KEYS.map((k) => [k.key, k]));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AuthContext {
  org: OrgState;
  keyKind: "customer" | "platform";
}

/** Resolves the organization of a request or throws 401 / 400 in the reference's shape. */
export function authenticate(headers: RequestHeaders, state: SandboxState): AuthContext {
  const key = presentedKey(headers);
  const entry = key ? byKey.get(key) : undefined;
  if (!entry || entry.kind === "revoked") throw unauthorized();
  if (entry.kind === "customer") {
    // X-Service-Org-Id is ignored for customer keys.
    const org = state.org(entry.orgId!);
    if (!org) throw unauthorized();
    return { org, keyKind: "customer" };
  }
  // Exactly a UUID: a padded value is not the organization's id.
  const orgId = header(headers, "x-service-org-id") ?? "";
  if (!UUID.test(orgId)) throw invalidRequest("X-Service-Org-Id header must be an organization UUID");
  return { org: state.orgForService(orgId), keyKind: "platform" };
}

/** Stateless (examples) mode: a key must be presented, any key will do. */
export function requireAnyKey(headers: RequestHeaders): void {
  if (!presentedKey(headers)) throw unauthorized();
}

/** A locked organization answers 402 to every operation except getAccount (which tells it why). */
export function requireOrganizationAccess(org: OrgState, operationId: DocumentedOperation): void {
  if (!org.info.accessAllowed && operationId !== "getAccount") throw paymentRequired({ operationId });
}
