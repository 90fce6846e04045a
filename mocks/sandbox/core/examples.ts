/**
 * Stateless (examples) mode's answer step, as the static mock answers: the request validated, then the
 * example `Prefer` names, else the one the example matcher chooses for the request, else the default 2xx.
 */
import { queryRecord, type ExampleMatcher, type Preferences } from "../../../contract-core/portable.js";
import type { OperationSpec, SpecIndex } from "../contract/spec.js";
import { reply } from "./answer.js";
import type { CoreResponse } from "./exchange.js";
import { choosesExample, preferredReply } from "./prefer.js";
import type { RequestValidator } from "./validation.js";

/** Names the example for a request (contract-core's example matcher), or undefined for the default. */
export type ChooseExample = ExampleMatcher;

export function answerFromExamples(
  spec: SpecIndex,
  op: OperationSpec,
  validator: RequestValidator,
  request: { params: Record<string, string>; rawQuery: URLSearchParams; body: unknown; label: string },
  prefs: Preferences,
  choose: ChooseExample,
): CoreResponse {
  const { label, rawQuery } = request;
  validator(request.params, rawQuery, request.body);
  // The matcher is asked only when Prefer names neither a status nor an example.
  const path = label.slice(label.indexOf(" ") + 1 + spec.basePath.length);
  const chosen = choosesExample(prefs) ? undefined : choose(op.method, path, queryRecord(rawQuery), request.body);
  const answer = chosen ? { ...prefs, example: chosen.example, code: chosen.status } : prefs;
  return reply(preferredReply(spec, op, label, answer));
}
