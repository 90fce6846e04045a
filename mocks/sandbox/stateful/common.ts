/** Small helpers shared by the stateful areas. */
import type { OperationId, SandboxContext } from "../context.js";
import { ApiError, invalidRequest, notFound } from "../errors.js";

export const iso = (ms: number): string => new Date(ms).toISOString();

export function nowIso(ctx: SandboxContext): string {
  return iso(ctx.options.now());
}

/**
 * The answer for a resource that is not visible to the organization. The reference's 404 row names person,
 * company, Target and List-for-events lookups, and the spec documents 404 only there (spec/DECISIONS.md 18).
 * For an operation whose 404 is not documented (saved-query and List reads, List deletes, List member writes) the
 * sandbox answers the documented 400 `invalid_request` instead, naming the missing resource; as soon as the
 * spec documents 404 for the operation, the sandbox answers 404 without a code change.
 */
export function notVisible(ctx: SandboxContext, operationId: OperationId, message: string): ApiError {
  const op = ctx.spec.byId.get(operationId);
  return op?.responses["404"] ? notFound(message) : invalidRequest(message);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Trimmed string, or null when absent or blank. */
export function trimmed(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const t = value.trim();
  return t === "" ? null : t;
}

/** A required name, 1-`max` characters after trimming (saved queries, Lists). */
export function requiredName(value: unknown, max = 80): string {
  const name = trimmed(value);
  if (name === null) throw invalidRequest(`name must be 1-${max} characters after trimming`);
  if (name.length > max) throw invalidRequest(`name must be at most ${max} characters after trimming`);
  return name;
}
