/**
 * The MSW host's consumer contract (contract-core/consumer-contract.ts): every answered request that named an
 * operation, reduced to its shape (parameter names, body fields and types, status, response fields and types)
 * and merged by shape, for the whole life of the handlers (reset() keeps it: a test run is many tests). One call
 * gives the contract, sorted and without timestamps or values, so the file diffs cleanly:
 *
 *   writeFileSync("consumers/my-app.json", JSON.stringify(sandbox.consumerContract({ name, version }), null, 2));
 */
import {
  CONSUMER_CONTRACT_FORMAT,
  fieldTypes,
  interactionKey,
  sortedFields,
  sortedInteractions,
  type ConsumerContract,
  type ConsumerInteraction,
} from "../../../../contract-core/portable.js";
import type { SpecIndex } from "../../contract/spec.js";
import { operationMatcher } from "./msw-operations.js";

function json(text: string | undefined): { ok: true; value: unknown } | { ok: false } {
  if (text === undefined || text === "") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export interface ContractRecorder {
  /** Records one answer (ignored when the request names no operation). */
  record(
    request: { method: string; url: string; headers: Record<string, unknown>; body?: string },
    response: { status: number; body?: string },
  ): void;
  contract(consumer: { name: string; version: string }): ConsumerContract;
}

export function createContractRecorder(spec: SpecIndex): ContractRecorder {
  const match = operationMatcher(spec);
  const interactions = new Map<string, ConsumerInteraction>();
  return {
    record(request, response) {
      const found = match(request.method, request.url);
      const op = found && spec.byId.get(found.operationId);
      if (!found || !op) return;
      const sent = new Set(Object.keys(request.headers).map((name) => name.toLowerCase()));
      const body = json(request.body);
      const shape = {
        operationId: op.operationId,
        operation: `${op.method} ${op.path}`,
        request: {
          path: Object.keys(found.params).sort(),
          query: [...new Set(found.url.searchParams.keys())].sort(),
          header: op.parameters
            .filter((p) => p.in === "header" && sent.has(p.name.toLowerCase()))
            .map((p) => p.name)
            .sort(),
          body: body.ok ? sortedFields(fieldTypes(body.value)) : null,
        },
        status: response.status,
      };
      const key = interactionKey(shape);
      const entry = interactions.get(key) ?? { ...shape, response: {} };
      const answer = json(response.body);
      if (answer.ok) entry.response = sortedFields(fieldTypes(answer.value, entry.response));
      interactions.set(key, entry);
    },
    contract({ name, version }) {
      if (typeof name !== "string" || !name.trim()) throw new TypeError("a consumer contract needs a name");
      if (typeof version !== "string") throw new TypeError("a consumer contract needs a version (a string)");
      return {
        format: CONSUMER_CONTRACT_FORMAT,
        consumer: { name, version },
        interactions: sortedInteractions(interactions.values()),
      };
    },
  };
}
