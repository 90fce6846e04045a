/**
 * What a change touches in the project: the named examples that hold the changed element, the Arazzo workflow
 * steps and the recordings of its operation, the registered consumers' interactions that reach it, and the
 * typed-client call readers write for it.
 */
import { parse } from "yaml";
import type { ConsumerContract } from "../../contract-core/consumer-contract.js";
import { type Obj, deref, escapeToken, isObj, listOperations, unescapeToken } from "../../contract-core/index.js";
import { operationKey, type Change } from "../breaking/breaking.js";
import type { Revision } from "./history.js";

export interface Touches {
  /** `getPerson 200 dossier`: operationId, where (status or "request"), example name. */
  examples: string[];
  /** `lists.arazzo.yaml list-lifecycle › createList`. */
  steps: string[];
  /** Repository paths of the operation's recordings (for a response change, those of its status). */
  recordings: string[];
  /** `client.GET("/people/{slug}")`: the typed-client call of the operation. */
  client: string[];
  /** `examples-msw getPerson 200`: a registered consumer's interaction that reaches the changed element. */
  consumers: string[];
}

const segmentsOf = (pointer: string): string[] =>
  pointer === "" ? [] : pointer.split("/").slice(1).map(unescapeToken);

/** Whether an example value holds the element a schema path (after `.../schema`) names. */
function holds(value: unknown, schemaPath: string[]): boolean {
  const [head, next, ...rest] = schemaPath;
  if (head === undefined) return true;
  if (head === "properties" && next !== undefined)
    return isObj(value) && next in value ? holds(value[next], rest) : false;
  if (head === "items") return Array.isArray(value) && value.some((v) => holds(v, schemaPath.slice(1)));
  if ((head === "oneOf" || head === "anyOf" || head === "allOf") && next !== undefined) return holds(value, rest);
  if (head === "additionalProperties")
    return isObj(value) && Object.values(value).some((v) => holds(v, schemaPath.slice(1)));
  return true; // a keyword of the element itself (type, enum, pattern...): the element is there
}

/** The named examples of one media type object (`examples`, `$ref`s to components followed) holding the element. */
function namedExamples(doc: Obj, media: unknown, schemaPath: string[] | undefined): [string, unknown][] {
  const examples = deref<Obj>(doc, media)?.examples;
  if (!isObj(examples)) return [];
  return Object.entries(examples)
    .map(([name, raw]): [string, unknown] => [name, deref<Obj>(doc, raw)?.value])
    .filter(([, value]) => schemaPath === undefined || holds(value, schemaPath));
}

function examplesIn(doc: Obj | undefined, change: Change): string[] {
  if (!doc) return [];
  const op = listOperations(doc).find(
    (o) => operationKey(`${o.method.toUpperCase()} ${o.path}`) === operationKey(change.operation),
  );
  if (!op) return [];
  const id = change.operationId ?? change.operation;
  const segs = segmentsOf(change.location);
  const schemaAt = segs.indexOf("schema");
  const schemaPath = schemaAt >= 0 ? segs.slice(schemaAt + 1) : undefined;
  const found: string[] = [];
  const fromContent = (content: unknown, where: string, mediaType: string | undefined) => {
    const c = deref<Obj>(doc, content);
    if (!isObj(c)) return;
    for (const [type, media] of Object.entries(c))
      if (mediaType === undefined || type === mediaType)
        for (const [name] of namedExamples(doc, media, mediaType === undefined ? undefined : schemaPath))
          found.push(`${id} ${where} ${name}`);
  };
  const responses = deref<Obj>(doc, op.operation.responses) ?? {};
  if (segs[0] === "responses" && segs[1] !== undefined) {
    const response = deref<Obj>(doc, responses[segs[1]]);
    // A change to the content (schema) keeps to its media type; one to the response itself reaches every example.
    if (isObj(response)) fromContent(response.content, segs[1], segs[2] === "content" ? segs[3] : undefined);
  } else if (segs[0] === "requestBody") {
    const body = deref<Obj>(doc, op.operation.requestBody);
    if (isObj(body)) fromContent(body.content, "request", segs[1] === "content" ? segs[2] : undefined);
  } else if (segs.length === 0 || segs[0] === "operationId") {
    const body = deref<Obj>(doc, op.operation.requestBody);
    if (isObj(body)) fromContent(body.content, "request", undefined);
    for (const [status, response] of Object.entries(responses))
      fromContent(deref<Obj>(doc, response)?.content, status, undefined);
  }
  return found;
}

/**
 * The field a schema path (after `.../schema`) names in a body, as a consumer contract writes it (`/data/*\/slug`),
 * to the deepest point a contract can name: past an additionalProperties value or at a keyword of the element.
 */
function fieldOf(schemaPath: string[]): string {
  let field = "";
  for (let i = 0; i < schemaPath.length; i++) {
    const seg = schemaPath[i]!;
    if (seg === "properties" && schemaPath[i + 1] !== undefined) field += `/${escapeToken(schemaPath[++i]!)}`;
    else if (seg === "items") field += "/*";
    else if (seg === "oneOf" || seg === "anyOf" || seg === "allOf") i++;
    else break;
  }
  return field;
}

/**
 * The interactions of the revision's consumers that `change` reaches: those of its operation; for a response
 * change, those that received its status, and for a body field, those that received that field (or one in it);
 * for a request body change, those that sent a body.
 */
function consumersOf(change: Change, contracts: ConsumerContract[]): string[] {
  const key = operationKey(change.operation);
  const segs = segmentsOf(change.location);
  const schemaAt = segs.indexOf("schema");
  const field = schemaAt >= 0 ? fieldOf(segs.slice(schemaAt + 1)) : "";
  const has = (fields: Record<string, string>) =>
    field === "" || Object.keys(fields).some((f) => f === field || f.startsWith(`${field}/`));
  const status = segs[0] === "responses" ? segs[1] : undefined;
  const ofStatus = (received: number) =>
    status === undefined ||
    status === "default" ||
    (/^\dXX$/i.test(status) ? String(received)[0] === status[0] : String(received) === status);
  return contracts.flatMap((contract) =>
    contract.interactions
      .filter((i) =>
        change.operationId !== undefined ? i.operationId === change.operationId : operationKey(i.operation) === key,
      )
      .filter((i) => (status !== undefined ? ofStatus(i.status) && has(i.response) : true))
      .filter((i) => (segs[0] === "requestBody" ? i.request.body !== null && has(i.request.body) : true))
      .map((i) => `${contract.consumer.name} ${i.operationId} ${i.status}`),
  );
}

interface Step {
  file: string;
  workflowId: string;
  stepId: string;
  operationId?: string;
  /** operationKey of an `x-operation` call by URL (`POST /lists/{}/members`). */
  key?: string;
}

const stepsByFiles = new WeakMap<Map<string, string>, Step[]>();

/** The Arazzo steps of a revision's workflows (parsed once per revision). */
function stepsOf(files: Map<string, string>): Step[] {
  const known = stepsByFiles.get(files);
  if (known) return known;
  const steps: Step[] = [];
  stepsByFiles.set(files, steps);
  for (const [file, text] of files) {
    if (!file.endsWith(".arazzo.yaml")) continue;
    let doc: unknown;
    try {
      doc = parse(text);
    } catch {
      continue;
    }
    const workflows = isObj(doc) && Array.isArray(doc.workflows) ? doc.workflows : [];
    for (const wf of workflows.filter(isObj))
      for (const step of (Array.isArray(wf.steps) ? wf.steps : []).filter(isObj)) {
        const call = isObj(step["x-operation"]) ? step["x-operation"] : undefined;
        const url = typeof call?.url === "string" ? call.url.replace(/^\{[^}]*\}/, "") : undefined;
        steps.push({
          file: file.split("/").pop() ?? file,
          workflowId: String(wf.workflowId),
          stepId: String(step.stepId),
          ...(typeof step.operationId === "string" ? { operationId: step.operationId } : {}),
          ...(url && typeof call?.method === "string"
            ? { key: operationKey(`${call.method.toUpperCase()} ${url}`) }
            : {}),
        });
      }
  }
  return steps;
}

/** What `change` touches, looked up in the revision before and after it (a removed element is in the one before). */
export function touchesOf(change: Change, before: Revision | undefined, after: Revision): Touches {
  const examples = [...new Set([...examplesIn(before?.doc, change), ...examplesIn(after.doc, change)])];
  const key = operationKey(change.operation);
  const steps = stepsOf(after.files)
    .filter((s) => (change.operationId !== undefined && s.operationId === change.operationId) || s.key === key)
    .map((s) => `${s.file} ${s.workflowId} › ${s.stepId}`);
  const segs = segmentsOf(change.location);
  const status = segs[0] === "responses" ? segs[1] : undefined;
  const id = change.operationId;
  // Recordings are named by operation: `mock/<operationId>-<status>-<example>.json` or `<operationId>/<status>-...`.
  const ofStatus = (recorded: string | undefined) =>
    status === undefined ||
    (recorded !== undefined && (/^\dXX$/i.test(status) ? recorded[0] === status[0] : recorded === status));
  const recordings = id
    ? after.recordings.filter((file) => {
        if (!file.includes(id)) return false; // both ways of naming the operation hold its id
        const name = file.split("/").pop() ?? "";
        if (name.startsWith(`${id}-`)) return ofStatus(/^-(\d{3})-/.exec(name.slice(id.length))?.[1]);
        return file.split("/").includes(id) && ofStatus(/^(\d{3})-/.exec(name)?.[1]);
      })
    : [];
  const [method = "", ...pathParts] = change.operation.split(" ");
  const consumers = [...new Set(consumersOf(change, after.consumers ?? []))];
  // A webhook, a callback's server or the document (a server URL) is no call of the typed client.
  const client = /^[A-Z]+ \//.test(change.operation) ? [`client.${method}("${pathParts.join(" ")}")`] : [];
  return { examples, steps, recordings, client, consumers };
}

/** Everything several changes touch, each item once. */
export function mergeTouches(all: Touches[]): Touches {
  const union = (pick: (t: Touches) => string[]) => [...new Set(all.flatMap(pick))];
  return {
    examples: union((t) => t.examples),
    steps: union((t) => t.steps),
    recordings: union((t) => t.recordings),
    client: union((t) => t.client),
    consumers: union((t) => t.consumers),
  };
}
