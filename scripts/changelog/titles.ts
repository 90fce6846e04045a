/**
 * Titles in the API's words: a change as its operation's summary and the differ's description of what changed
 * (`Get a person (getPerson): response property "headline" removed`), an entry as its most important change.
 * Never a commit subject: those describe the work, not the API.
 */
import { type Obj, listOperations } from "../../contract-core/index.js";
import type { Change } from "../breaking/breaking.js";

/** Each operation's summary by operationId, from the bundles given (the newest last wins). */
export function operationSummaries(...docs: (Obj | undefined)[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const doc of docs)
    for (const { operation } of listOperations(doc ?? {}))
      if (typeof operation.operationId === "string" && typeof operation.summary === "string")
        out.set(operation.operationId, operation.summary);
  return out;
}

type Titled = Pick<Change, "operation" | "operationId" | "message" | "breaking" | "rule">;

/** `Get a person (getPerson): response property "headline" removed`. */
export function changeTitle(c: Titled, summaries: Map<string, string>): string {
  const summary = c.operationId ? summaries.get(c.operationId) : undefined;
  const who = summary ? `${summary} (${c.operationId})` : (c.operationId ?? c.operation);
  return `${who}: ${c.message}`;
}

const rank = (c: Titled): number =>
  c.breaking ? 0 : c.rule === "description-changed" ? 3 : c.rule === "deprecated" ? 2 : 1;

/** An entry's title: its first breaking change (else its first addition, …), and how many more it holds. */
export function entryTitle(changes: Titled[], summaries: Map<string, string>, first = false): string {
  if (first) return `The contract's first version: ${changes.length} operations`;
  const sorted = [...changes].sort((a, b) => rank(a) - rank(b));
  const head = sorted[0];
  if (!head) return "No change the policy classifies";
  const more = sorted.length - 1;
  return `${changeTitle(head, summaries)}${more > 0 ? ` (and ${more} more change${more === 1 ? "" : "s"})` : ""}`;
}
