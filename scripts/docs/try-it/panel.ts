/**
 * The try-it panel (loaded on the first "Try it", see loader.ts): one `<aside>` landmark with the operation's
 * parameters and body (a form that knows the schema: enums as selects, booleans three-way, integer bounds,
 * required marked, the request checked as you type in the sandbox's own words), ids prefilled from what exists in
 * the in-page sandbox for the chosen key (pickers beside the fields), a target (the in-page sandbox, one of the
 * spec's servers or a custom base URL, with a key typed in the page and kept in memory only), "Send", the answer
 * (status announced in an aria-live region, time, size, every header, the body highlighted, "use in" links for
 * the ids and cursor it holds, copy buttons), the request as curl and as a typed-client call exactly as sent, and
 * the in-page sandbox's controls (starting state, a fault for the next call, the job clock, Reset). Plain DOM,
 * native controls: it works by keyboard alone. No inline handler and no eval: it runs under a strict CSP.
 */
import bundledSpec from "../../../generated/openapi.json" with { type: "json" };
import { clientSample, operationParameters, sampleRequest } from "../code-samples.js";
import {
  isObject,
  listOperations,
  type Json,
  type JsonObject,
  type OpenApiDoc,
  type OperationRef,
} from "../openapi.js";
import { resolveServerVariables } from "../prepare-spec.js";
import type { OperationId } from "../../../mocks/sandbox/hosts/msw/msw-faults.js";
import {
  createPageSandbox,
  PAGE_STORAGE_KEY,
  PRESETS,
  type PageSandbox,
  type PageSandboxOptions,
} from "./page-sandbox.js";
import type { Choice, SandboxChoices } from "./choices.js";
import { TRY_IT_STYLES } from "./styles.js";
import { createDock, type Dock } from "./dock.js";
import { clearPageState, pageStateStorage } from "./page-store.js";
import type { StateStorage } from "../../../mocks/sandbox/contract/context.js";
import type { TryItApi } from "./loader.js";
import { readCapped, LIVE_BODY_CAP, LIVE_STALL_MS } from "./live-read.js";

declare global {
  interface Window {
    talentGraphSandboxOptions?: PageSandboxOptions;
  }
}

const doc = bundledSpec as unknown as OpenApiDoc;
const operations = listOperations(doc);
const PAGE_TARGET = "page";
const CUSTOM_TARGET = "custom";
/** The chosen test key (by its description: the published test keys themselves are not stored). */
const KEY_CHOICE = "talent-graph-reference-test-key";
/** What the reader typed, per operation, for this tab's session (no key is ever part of it). */
const EDITS = "talent-graph-reference-edits";
const KEY_ENV = "$TALENT_GRAPH_API_KEY";
const REASONS: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** The spec's servers with their variables at their defaults (the page's Servers panel shows the same). */
function servers(): { url: string; description: string }[] {
  const copy = { servers: structuredClone(doc.servers ?? []) } as OpenApiDoc;
  resolveServerVariables(copy);
  return (copy.servers as JsonObject[]).map((s) => ({ url: String(s.url), description: String(s.description ?? "") }));
}
const SERVERS = servers();
const LOCAL_SANDBOX = SERVERS.find((s) => s.url.includes(":4011/"))?.url ?? "http://127.0.0.1:4011/v1";

let sandboxPromise: Promise<PageSandbox> | undefined;
let storagePromise: Promise<StateStorage | null> | undefined;
let sandboxReady = false;
/**
 * The sandbox's stored state, read before it starts (it reads its state at once; IndexedDB answers later).
 * Started as the panel first opens, so the read runs while the panel is drawn.
 */
function pageStorage(): Promise<StateStorage | null> {
  storagePromise ??=
    window.talentGraphSandboxOptions?.persist === false ? Promise.resolve(null) : pageStateStorage(PAGE_STORAGE_KEY);
  return storagePromise;
}
/** The in-page sandbox, built on first use (the graph takes a moment). */
export function pageSandbox(): Promise<PageSandbox> {
  sandboxPromise ??= (async () => {
    const storage = await pageStorage();
    await new Promise((resolve) => setTimeout(resolve, 0));
    return createPageSandbox(window.talentGraphSandboxOptions ?? {}, storage);
  })();
  return sandboxPromise;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) if (value !== undefined) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

const fieldId = (place: string, name: string) => `try-it-${place}-${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
const text = (value: Json | undefined) =>
  value === undefined
    ? ""
    : typeof value === "string"
      ? value
      : Array.isArray(value)
        ? value.join(",")
        : JSON.stringify(value);
const opId = (op: OperationRef) => String(op.operation.operationId);
const summary = (op: OperationRef) => String(op.operation.summary ?? op.operation.operationId);

/** A schema with its `$ref`s (into this document) followed. */
function resolve(schema: Json | undefined): JsonObject {
  let s = schema;
  for (let i = 0; i < 10 && isObject(s) && typeof s.$ref === "string"; i++) {
    let at: Json | undefined = doc as unknown as Json;
    for (const part of s.$ref.replace(/^#\//, "").split("/"))
      at = isObject(at) ? at[part.replace(/~1/g, "/")] : undefined;
    s = at;
  }
  return isObject(s) ? s : {};
}

function schemaType(schema: JsonObject): string | undefined {
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== "null") as string | undefined;
  return undefined;
}

interface Panel {
  root: HTMLElement;
  title: HTMLElement;
  route: HTMLElement;
  fields: HTMLElement;
  form: HTMLFormElement;
  target: HTMLSelectElement;
  customUrl: HTMLInputElement;
  key: HTMLSelectElement;
  liveKey: HTMLInputElement;
  keyGoes: HTMLElement;
  check: HTMLElement;
  stop: HTMLButtonElement;
  status: HTMLElement;
  meta: HTMLElement;
  cut: HTMLElement;
  headers: HTMLElement;
  body: HTMLElement;
  offers: HTMLElement;
  curl: HTMLElement;
  curlTitle: HTMLElement;
  call: HTMLElement;
  faultStatus: HTMLSelectElement;
  note: HTMLElement;
  sandboxControls: HTMLElement;
  liveControls: HTMLElement;
  keyRow: HTMLElement;
}

let panel: Panel | undefined;
/** Where the panel sits and how wide it is (built with the panel). */
let dock: Dock | undefined;
let current: OperationRef | undefined;
let opener: HTMLElement | undefined;
/** The key typed for a live server: in this module's memory only (no storage, no page global): a reload forgets it. */
let typedKey = "";
/** The live request in flight, so "Stop" can end it. */
let inFlight: AbortController | undefined;
/** The ids of the panel just opened, once they are prefilled from the sandbox (Send waits for it). */
let prefilled: Promise<void> = Promise.resolve();

function readEdits(): Record<string, Record<string, string>> {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(EDITS) ?? "{}") as unknown;
    return isObject(parsed) ? (parsed as Record<string, Record<string, string>>) : {};
  } catch {
    return {};
  }
}
const edits = readEdits();
function keepEdit(field: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): void {
  if (!current || !field.id) return;
  (edits[opId(current)] ??= {})[field.id] = field.value;
  try {
    sessionStorage.setItem(EDITS, JSON.stringify(edits));
  } catch {
    // Storage full or refused: the edits stay in memory for this page.
  }
}

function button(label: string, onClick: () => void | Promise<void>, type: "button" | "submit" = "button") {
  const b = el("button", { type }, label);
  if (type === "button") b.addEventListener("click", () => void onClick());
  return b;
}

function copyButton(label: string, source: () => string): HTMLButtonElement {
  const b = button(label, async () => {
    try {
      await navigator.clipboard.writeText(source());
      b.dataset.copied = "yes";
      b.textContent = "Copied";
    } catch {
      b.textContent = "Copy refused by the browser: select the text";
    }
    setTimeout(() => (b.textContent = label), 1500);
  });
  b.classList.add("try-it-copy");
  return b;
}

const isLive = () => panel!.target.value !== PAGE_TARGET;
/** The base URL requests go to: the chosen server, the custom one, or (for the in-page sandbox) npm run sandbox's. */
function baseUrl(): string {
  const p = panel!;
  if (p.target.value === CUSTOM_TARGET) return p.customUrl.value.trim().replace(/\/+$/, "");
  return isLive() ? p.target.value : LOCAL_SANDBOX;
}

function sayWhereTheKeyGoes(): void {
  const p = panel!;
  if (!isLive()) {
    p.keyGoes.textContent = "The test key stays in this page: the in-page sandbox answers, nothing is sent.";
    return;
  }
  let origin: string;
  try {
    origin = new URL(baseUrl()).origin;
  } catch {
    origin = "";
  }
  p.keyGoes.textContent = origin
    ? `Send gives this key to ${origin} and to no other server; it is kept in this page's memory only.`
    : "Type the server's base URL (http:// or https://) first: no key is sent until it names a server.";
}

function build(): Panel {
  const style = el("style", { id: "try-it-styles" }, TRY_IT_STYLES);
  document.head.append(style);
  const title = el("h2", { id: "try-it-title", tabindex: "-1" });
  const route = el("p", { class: "try-it-route" });
  const target = el("select", { id: "try-it-target" });
  target.append(el("option", { value: PAGE_TARGET }, "In-page sandbox (nothing leaves the page)"));
  for (const s of SERVERS) target.append(el("option", { value: s.url }, `${s.description.split(":")[0]}: ${s.url}`));
  target.append(el("option", { value: CUSTOM_TARGET }, "Another server (a base URL you type)"));
  const customUrl = el("input", {
    id: "try-it-custom-url",
    type: "url",
    autocomplete: "off",
    spellcheck: "false",
  });
  const key = el("select", { id: "try-it-key" });
  const liveKey = el("input", { id: "try-it-live-key", type: "password", autocomplete: "off", spellcheck: "false" });
  const keyGoes = el("p", { id: "try-it-key-goes", class: "try-it-hint" });
  const customRow = el(
    "div",
    { class: "try-it-custom", hidden: "" },
    el("label", { for: "try-it-custom-url" }, "Base URL"),
    customUrl,
  );
  const liveControls = el(
    "div",
    { class: "try-it-live", hidden: "" },
    customRow,
    el("label", { for: "try-it-live-key" }, "API key"),
    liveKey,
  );
  const keyRow = el("div", { class: "try-it-page-key" }, el("label", { for: "try-it-key" }, "Test key"), key);
  const fields = el("div", { class: "try-it-fields" });
  const check = el("p", { id: "try-it-check", class: "try-it-check-line", "aria-live": "polite" });
  const stop = button("Stop", () => inFlight?.abort());
  stop.id = "try-it-stop";
  stop.hidden = true;
  const form = el(
    "form",
    { "aria-labelledby": "try-it-title", novalidate: "" },
    el("label", { for: "try-it-target" }, "Send to"),
    target,
    keyRow,
    liveControls,
    keyGoes,
    fields,
    check,
    el(
      "div",
      { class: "try-it-actions" },
      button("Send", () => undefined, "submit"),
      stop,
    ),
  );
  const status = el("p", { id: "try-it-status", role: "status", "aria-live": "polite" });
  const meta = el("p", { id: "try-it-meta", class: "try-it-hint" });
  const cut = el("p", { id: "try-it-cut", class: "try-it-check-line" });
  const headers = el("dl", { class: "try-it-headers", id: "try-it-headers" });
  const body = el("pre", { id: "try-it-body", tabindex: "0", "aria-label": "Response body" });
  body.addEventListener("click", foldToggle);
  const offers = el("div", { id: "try-it-offers" });
  const curl = el("pre", { id: "try-it-curl", tabindex: "0", "aria-label": "The request as curl" });
  const curlTitle = el("h3", { id: "try-it-curl-title" }, "The request with curl");
  const call = el("pre", { id: "try-it-call", tabindex: "0", "aria-label": "The request with the typed client" });
  const faultStatus = el("select", { id: "try-it-fault" });
  const preset = el("select", { id: "try-it-preset" });
  for (const p of PRESETS) preset.append(el("option", { value: p.name }, p.label));
  const speed = el("select", { id: "try-it-speed" });
  for (const factor of [1, 10, 60]) speed.append(el("option", { value: String(factor) }, `${factor}×`));
  speed.addEventListener("change", () => void pageSandbox().then((s) => s.speed(Number(speed.value))));
  const note = el("p", { class: "try-it-note", role: "status" });
  const say = (message: string) => (note.textContent = message);
  const clock = (label: string, ms: number, words: string) =>
    button(label, async () => {
      (await pageSandbox()).advance(ms);
      say(`The clock moved ${words}.`);
      void refreshChoices();
    });
  const sandboxControls = el(
    "fieldset",
    { class: "try-it-sandbox" },
    el("legend", {}, "In-page sandbox"),
    el("label", { for: "try-it-preset" }, "Starting state"),
    el(
      "div",
      { class: "try-it-row" },
      preset,
      button("Start from it", async () => {
        say("Building the starting state…");
        const sandbox = await pageSandbox();
        await sandbox.preset(preset.value).then(
          () => say(`Started from: ${preset.selectedOptions[0]?.textContent ?? preset.value}.`),
          (error: unknown) => say(String(error)),
        );
        await refreshChoices(true);
      }),
    ),
    el("label", { for: "try-it-fault" }, "Fault for the next call of this operation"),
    el(
      "div",
      { class: "try-it-row" },
      faultStatus,
      button("Fail the next call", async () => {
        const sandbox = await pageSandbox();
        const id = opId(current!);
        const chosen = faultStatus.value === "network" ? "network" : Number(faultStatus.value);
        sandbox.fail(id as OperationId, chosen);
        say(`The next ${id} call answers ${chosen === "network" ? "with a network error" : chosen}.`);
      }),
    ),
    el("p", { class: "try-it-label" }, "Job clock"),
    el(
      "div",
      { class: "try-it-row" },
      button("Next phase", async () => {
        const moved = (await pageSandbox()).nextPhase();
        say(
          moved.length === 0
            ? "No job is pending or running."
            : `Jobs moved one phase: ${moved.map((m) => m.phase ?? m.status).join(", ")}.`,
        );
        void refreshChoices();
      }),
      clock("+1 minute", 60_000, "1 minute"),
      clock("+1 hour", 3_600_000, "1 hour"),
      clock("+1 day", 86_400_000, "1 day"),
      el("label", { for: "try-it-speed" }, "Speed"),
      speed,
    ),
    el(
      "div",
      { class: "try-it-row" },
      button("Reset the sandbox", async () => {
        const sandbox = await pageSandbox();
        await sandbox.reset();
        say("Back to the seed: everything created in the page is gone.");
        await refreshChoices(true);
      }),
    ),
    note,
    el(
      "p",
      { class: "try-it-hint" },
      "For scripts: ",
      el("code", {}, 'talentGraphSandbox.fetch("/v1/me", { headers: { "x-api-key": "<test key>" } })'),
      " in the browser console answers from this sandbox as npm run sandbox would.",
    ),
  );
  dock = createDock();
  const root = el(
    "aside",
    { id: "try-it-panel", "aria-labelledby": "try-it-title", hidden: "" },
    dock.handle,
    el("div", { class: "try-it-head" }, title, button("Close", close)),
    route,
    form,
    el(
      "section",
      { "aria-label": "Answer" },
      el("h3", {}, "Answer"),
      status,
      meta,
      cut,
      el("details", {}, el("summary", {}, "Response headers"), headers),
      el(
        "div",
        { class: "try-it-row" },
        copyButton("Copy the body", () => body.dataset.text ?? body.textContent ?? ""),
      ),
      body,
      offers,
    ),
    curlTitle,
    el(
      "div",
      { class: "try-it-row" },
      copyButton("Copy the curl", () => curl.textContent ?? ""),
    ),
    curl,
    el("h3", {}, "The request with the typed client"),
    el(
      "div",
      { class: "try-it-row" },
      copyButton("Copy the call", () => call.textContent ?? ""),
    ),
    call,
    sandboxControls,
  );
  document.body.append(root);
  const showTarget = () => {
    const live = isLive();
    liveControls.hidden = !live;
    customRow.hidden = target.value !== CUSTOM_TARGET;
    keyRow.hidden = live;
    sandboxControls.hidden = live;
    sayWhereTheKeyGoes();
    showRequest();
  };
  target.addEventListener("change", showTarget);
  customUrl.addEventListener("input", () => {
    sayWhereTheKeyGoes();
    showRequest();
  });
  liveKey.addEventListener("input", () => (typedKey = liveKey.value));
  key.addEventListener("change", () => {
    const chosen = key.selectedOptions[0]?.textContent ?? "";
    localStorage.setItem(KEY_CHOICE, chosen);
    void refreshChoices(true);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void send();
  });
  fields.addEventListener("input", (event) => {
    const field = event.target as HTMLInputElement;
    keepEdit(field);
    if (field.id === "try-it-path-id") void refreshChoices(false, ["membershipId"]);
    showRequest();
    void checkForm();
  });
  fields.addEventListener("change", (event) => {
    const field = event.target as HTMLSelectElement;
    if (field.dataset.pickFor) {
      const input = document.getElementById(field.dataset.pickFor) as HTMLInputElement | null;
      if (input && field.value) {
        input.value = field.value;
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
    } else if (field.tagName === "SELECT") {
      keepEdit(field);
      showRequest();
      void checkForm();
    }
  });
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) form.requestSubmit();
  });
  const p: Panel = {
    root,
    title,
    route,
    fields,
    form,
    target,
    customUrl,
    key,
    liveKey,
    keyGoes,
    check,
    stop,
    status,
    meta,
    cut,
    headers,
    body,
    offers,
    curl,
    curlTitle,
    call,
    faultStatus,
    note,
    sandboxControls,
    liveControls,
    keyRow,
  };
  panel = p;
  showTarget();
  return p;
}

function close(): void {
  if (!panel) return;
  panel.root.hidden = true;
  dock?.hide();
  opener?.focus();
}

/** The picker kind of a path parameter: what in the sandbox's state it names. */
function pickKind(op: OperationRef, name: string): "list" | "membership" | "target" | "query" | null {
  if (name === "membershipId") return "membership";
  if (name !== "id") return null;
  if (op.path.startsWith("/lists/")) return "list";
  if (op.path.startsWith("/targets/")) return "target";
  if (op.path.startsWith("/queries/")) return "query";
  return null;
}

/** A control for a parameter that knows its schema: enum -> select, boolean -> three-way, integer bounds. */
function control(param: JsonObject, id: string): HTMLInputElement | HTMLSelectElement {
  const schema = resolve(param.schema);
  const type = schemaType(schema);
  const values = Array.isArray(schema.enum) ? schema.enum : null;
  if (values || type === "boolean") {
    const select = el("select", { id, name: String(param.name), "data-in": String(param.in) });
    select.append(el("option", { value: "" }, "(not sent)"));
    for (const v of values ?? [true, false]) select.append(el("option", { value: String(v) }, String(v)));
    return select;
  }
  const input = el("input", { id, name: String(param.name), "data-in": String(param.in), autocomplete: "off" });
  if (type === "integer" || type === "number") {
    input.type = "number";
    input.step = type === "integer" ? "1" : "any";
    if (typeof schema.minimum === "number") input.min = String(schema.minimum);
    if (typeof schema.maximum === "number") input.max = String(schema.maximum);
  }
  return input;
}

/** The form for one operation: its parameters (path, query, header) and its JSON body, prefilled. */
function fill(op: OperationRef, given: Record<string, string> = {}): void {
  const p = panel!;
  const sample = sampleRequest(doc, op, []);
  const kept = { ...(edits[opId(op)] ?? {}), ...given };
  if (Object.keys(given).length > 0) edits[opId(op)] = kept;
  p.title.textContent = `Try it: ${summary(op)}`;
  p.route.textContent = `${op.method.toUpperCase()} ${op.path}`;
  p.fields.replaceChildren();
  // Path and query first (what a reader changes), headers last.
  const order = (param: JsonObject) => ["path", "query", "header"].indexOf(String(param.in));
  for (const param of operationParameters(doc, op).sort((a, b) => order(a) - order(b))) {
    const name = String(param.name);
    const place = String(param.in);
    const value = place === "path" ? sample.pathParams[name] : place === "query" ? sample.query[name] : undefined;
    const id = fieldId(place, name);
    const input = control(param, id);
    input.value = kept[id] ?? text(value);
    if (param.required === true) input.required = true;
    const schema = resolve(param.schema);
    const bounds = [
      typeof schema.minimum === "number" ? `min ${schema.minimum}` : "",
      typeof schema.maximum === "number" ? `max ${schema.maximum}` : "",
    ].filter(Boolean);
    const hint = [place, param.required ? "required" : "optional", ...bounds].join(", ");
    p.fields.append(
      el("label", { for: id }, `${name}${param.required ? " *" : ""} `, el("span", { class: "try-it-in" }, hint)),
      input,
    );
    const kind = place === "path" ? pickKind(op, name) : null;
    if (kind) {
      const picker = el("select", {
        id: `try-it-pick-${name}`,
        "data-pick-for": id,
        "data-kind": kind,
        "aria-label": `${name}: one that exists in the in-page sandbox`,
      });
      p.fields.append(el("div", { class: "try-it-picker" }, picker, el("span", { class: "try-it-in" })));
    }
  }
  if (sample.body !== undefined) {
    const area = el("textarea", { id: "try-it-request-body", rows: "8", spellcheck: "false" });
    area.value = kept[area.id] ?? JSON.stringify(sample.body, null, 2);
    p.fields.append(el("label", { for: area.id }, "Request body (JSON) *"), area);
  }
  p.faultStatus.replaceChildren();
  const statuses = Object.keys(op.operation.responses ?? {}).flatMap((k) =>
    /^[45]\d\d$/.test(k) ? [k] : k === "5XX" ? ["503"] : [],
  );
  for (const s of statuses) p.faultStatus.append(el("option", { value: s }, `${s} ${REASONS[Number(s)] ?? ""}`.trim()));
  p.faultStatus.append(el("option", { value: "network" }, "Network error"));
  p.status.textContent = "";
  p.meta.textContent = "";
  p.cut.textContent = "";
  p.check.textContent = "";
  p.headers.replaceChildren();
  p.body.replaceChildren();
  delete p.body.dataset.text;
  p.offers.replaceChildren();
  p.note.textContent = "";
  showRequest();
}

/** The best existing value for a picker of this operation (null: none exists). */
function preferred(op: OperationRef, kind: string, options: Choice[], all: SandboxChoices): string | null {
  const id = opId(op);
  if (kind === "list") {
    const lists = all.lists;
    const own = lists.filter((l) => !l.isDefault);
    if (id === "deleteList") return own.at(-1)?.value ?? null;
    if (id === "updateListMember")
      return (lists.filter((l) => l.memberships.length > 0).at(-1) ?? lists.at(-1))?.value ?? null;
    if (id === "addListMembers") return (own.at(-1) ?? lists.find((l) => !l.targetList))?.value ?? null;
    return (own.at(-1) ?? lists.at(-1))?.value ?? null;
  }
  if (kind === "target") {
    const targets = all.targets;
    if (id === "retryTarget") return targets.filter((t) => t.finished).at(-1)?.value ?? null;
    if (id === "setTargetMemberStatus" || id === "listTargetMembers")
      return (targets.filter((t) => t.members.length > 0).at(-1) ?? targets.at(-1))?.value ?? null;
    return targets.at(-1)?.value ?? null;
  }
  return options[0]?.value ?? null;
}

/**
 * Reads what exists in the in-page sandbox for the chosen key and fills the pickers; a field the reader has not
 * edited gets the best existing value (`force`: every picked field, after a reset or a new key).
 */
async function refreshChoices(force = false, only?: string[]): Promise<void> {
  if (!panel || !current) return;
  const p = panel;
  const op = current;
  const sandbox = await pageSandbox();
  if (op !== current) return;
  const org = p.fields.querySelector<HTMLInputElement>('[data-in="header"]')?.value;
  const all = sandbox.choices(p.key.value, org || undefined);
  const kept = edits[opId(op)] ?? {};
  for (const picker of p.fields.querySelectorAll<HTMLSelectElement>("select[data-pick-for]")) {
    const input = document.getElementById(picker.dataset.pickFor!) as HTMLInputElement;
    if (only && !only.includes(input.name)) continue;
    const kind = picker.dataset.kind!;
    const listId = p.fields.querySelector<HTMLInputElement>("#try-it-path-id")?.value;
    const options: Choice[] =
      kind === "list"
        ? all.lists
        : kind === "target"
          ? all.targets
          : kind === "query"
            ? all.queries
            : (all.lists.find((l) => l.value === listId || l.label.startsWith(`${listId} (`))?.memberships ?? []);
    picker.replaceChildren(el("option", { value: "" }, options.length ? "Pick one that exists…" : "None exists yet"));
    for (const o of options) picker.append(el("option", { value: o.value }, o.label));
    const best = preferred(op, kind, options, all);
    const hint = picker.nextElementSibling as HTMLElement;
    hint.textContent = best === null ? emptyHint(kind) : "";
    if (best !== null && (force || kept[input.id] === undefined)) {
      input.value = best;
      picker.value = best;
      if (input.id === "try-it-path-id") void refreshChoices(false, ["membershipId"]);
    }
  }
  showRequest();
  void checkForm();
}

function emptyHint(kind: string): string {
  const create: Record<string, string> = {
    list: "createList",
    target: "createTarget",
    query: "createSavedQuery",
    membership: "addListMembers",
  };
  const from = operations.find((o) => opId(o) === create[kind]);
  return from ? `Nothing of this kind for this key yet: "${summary(from)}" makes one.` : "";
}

interface FormRequest {
  method: string;
  path: string;
  pathParams: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  bodyText?: string;
}

/** The request the form describes (values as typed; an empty optional field is not sent). */
function formRequest(): FormRequest {
  const op = current!;
  const pathParams: Record<string, string> = {};
  const query: [string, string][] = [];
  const headers: Record<string, string> = {};
  for (const input of panel!.fields.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-in]")) {
    if (input.value === "") continue;
    if (input.dataset.in === "path") pathParams[input.name] = input.value;
    else if (input.dataset.in === "query") query.push([input.name, input.value]);
    else if (input.dataset.in === "header") headers[input.name.toLowerCase()] = input.value;
  }
  const area = panel!.fields.querySelector<HTMLTextAreaElement>("#try-it-request-body");
  return {
    method: op.method.toUpperCase(),
    path: op.path,
    pathParams,
    query,
    headers,
    ...(area ? { bodyText: area.value } : {}),
  };
}

/** Path and query as sent: an empty path parameter stays visible as `{name}`, never "undefined". */
function pathAndQuery(request: FormRequest): string {
  const path = request.path.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    request.pathParams[name] === undefined ? whole : encodeURIComponent(request.pathParams[name]),
  );
  const qs = new URLSearchParams(request.query).toString();
  return `${path}${qs ? `?${qs}` : ""}`;
}

const shellQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/** The request as curl, exactly as sent (the body's bytes as typed), with the key from the environment. */
export function curlOf(request: FormRequest, base: string): string {
  const lines = [
    `curl -sS${request.method === "GET" ? "" : ` -X ${request.method}`} ${shellQuote(base + pathAndQuery(request))}`,
    `-H "Authorization: Bearer ${KEY_ENV}"`,
  ];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (request.bodyText !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`--data-binary ${shellQuote(request.bodyText)}`);
  }
  return lines.join(" \\\n  ");
}

/** The same request with the project's typed client (openapi-fetch call style), query values typed by the schema. */
function callOf(request: FormRequest, base: string): string {
  const op = current!;
  const query: JsonObject = {};
  for (const [name, raw] of request.query) {
    const param = operationParameters(doc, op).find((x) => x.in === "query" && x.name === name);
    const type = schemaType(resolve(param?.schema));
    query[name] =
      type === "integer" || type === "number"
        ? Number(raw)
        : type === "boolean"
          ? raw === "true"
          : type === "array"
            ? raw.split(",")
            : raw;
  }
  let body: Json | undefined;
  let broken = false;
  if (request.bodyText !== undefined) {
    try {
      body = JSON.parse(request.bodyText) as Json;
    } catch {
      broken = true;
    }
  }
  const headers = request.headers;
  const sample = clientSample({
    method: op.method,
    path: op.path,
    baseUrl: base,
    pathParams: request.pathParams,
    query,
    body,
    auth: undefined,
  });
  const lines = [sample];
  if (Object.keys(headers).length > 0)
    lines.push(
      `// Also sent: ${Object.entries(headers)
        .map(([n, v]) => `${n}: ${v}`)
        .join(", ")} (params.header).`,
    );
  if (broken) lines.push("// The body typed in the panel is not JSON: the typed client cannot send it as it was sent.");
  return lines.join("\n");
}

function showRequest(): void {
  if (!panel || !current) return;
  const base = baseUrl() || "<base URL>";
  const request = formRequest();
  panel.curlTitle.textContent = `The request with curl (to ${base})`;
  panel.curl.textContent = curlOf(request, base);
  panel.call.textContent = callOf(request, base);
}

/** The first violation of the form's request, in the sandbox's words, before anything is sent. */
async function checkForm(): Promise<void> {
  if (!panel || !current) return;
  const p = panel;
  const op = current;
  const request = formRequest();
  const sandbox = await pageSandbox();
  const problem = await sandbox.check(
    opId(op),
    request.pathParams,
    new URLSearchParams(request.query).toString(),
    request.bodyText,
  );
  if (op !== current) return;
  p.check.textContent = problem ? `The sandbox would answer 400: ${problem} (Send still sends it as it is.)` : "";
  p.fields
    .querySelector("#try-it-request-body")
    ?.setAttribute("aria-invalid", problem?.startsWith("body") || /JSON/.test(problem ?? "") ? "true" : "false");
}

/** A JSON scalar as JSON.stringify writes it, in a span for colour (string, number, or true/false/null). */
function scalarNode(value: unknown): Node {
  const cls = typeof value === "string" ? "s" : typeof value === "number" ? "n" : "l";
  return el("span", { class: `try-it-j${cls}` }, JSON.stringify(value));
}

/**
 * A parsed JSON answer as the text `JSON.stringify(value, null, 2)` writes, with keys and scalars in spans for
 * colour, and each non-empty object and array after a fold button (aria-expanded; its mark and, folded, the
 * count are CSS content, so the text stays the JSON). One listener on the body toggles them (foldToggle).
 */
function jsonNodes(value: unknown, indent = ""): Node[] {
  if (value === null || typeof value !== "object") return [scalarNode(value)];
  const array = Array.isArray(value);
  const entries: [string | null, unknown][] = array
    ? (value as unknown[]).map((v) => [null, v])
    : Object.entries(value as Record<string, unknown>);
  const [open, close] = array ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return [document.createTextNode(open + close)];
  const deeper = `${indent}  `;
  const inner = el("span", { class: "try-it-fold-inner" });
  entries.forEach(([key, v], i) => {
    inner.append(`\n${deeper}`);
    if (key !== null) inner.append(el("span", { class: "try-it-jk" }, JSON.stringify(key)), ": ");
    inner.append(...jsonNodes(v, deeper), i < entries.length - 1 ? "," : "");
  });
  inner.append(`\n${indent}`);
  const n = entries.length;
  const count = array ? `${n} item${n === 1 ? "" : "s"}` : `${n} key${n === 1 ? "" : "s"}`;
  const what = `${array ? "array" : "object"} (${count})`;
  const toggle = el("button", {
    type: "button",
    class: "try-it-fold",
    "aria-expanded": "true",
    "aria-label": `Fold this ${what}`,
    "data-what": what,
  });
  return [
    toggle,
    document.createTextNode(open),
    inner,
    el("span", { class: "try-it-fold-note", "data-note": ` ${count} ` }),
    document.createTextNode(close),
  ];
}

/** Folds or unfolds the object or array after a fold button of the answer body. */
function foldToggle(event: Event): void {
  const toggle = (event.target as Element).closest?.("button.try-it-fold");
  if (!toggle) return;
  const folding = toggle.getAttribute("aria-expanded") === "true";
  toggle.setAttribute("aria-expanded", String(!folding));
  toggle.setAttribute("aria-label", `${folding ? "Unfold" : "Fold"} this ${toggle.getAttribute("data-what")}`);
}

/** "Use in …" links for the ids and the cursor an answer holds. */
function showOffers(op: OperationRef, request: FormRequest, body: unknown): void {
  const p = panel!;
  p.offers.replaceChildren();
  const resource = op.path.split("/")[1] ?? "";
  const takers = operations.filter((o) => o.path.startsWith(`/${resource}/{id}`));
  const ids: string[] = [];
  const data = isObject(body) ? body.data : undefined;
  if (isObject(data) && typeof data.id === "string") ids.push(data.id);
  if (Array.isArray(data))
    for (const d of data.slice(0, 3)) if (isObject(d) && typeof d.id === "string") ids.push(d.id);
  if (request.pathParams.id && !ids.includes(request.pathParams.id)) ids.push(request.pathParams.id);
  const row = (label: string, value: string, targets: OperationRef[], field: string) => {
    if (targets.length === 0) return;
    const line = el("p", { class: "try-it-offer" }, `${label} `, el("code", {}, value), " — use in: ");
    for (const t of targets) {
      const b = button(summary(t), () => openWith(t, { [field]: value }));
      b.dataset.use = `${opId(t)}:${value}`;
      line.append(b, " ");
    }
    p.offers.append(line);
  };
  if (["lists", "targets", "queries"].includes(resource))
    for (const id of ids)
      row(
        "id",
        id,
        takers.filter((t) => t !== op),
        "try-it-path-id",
      );
  // Memberships a List answer holds: the List's id with each, for the operation that takes both.
  const listId =
    resource === "lists"
      ? isObject(data) && typeof data.id === "string"
        ? data.id
        : request.pathParams.id
      : undefined;
  const memberships =
    isObject(data) && Array.isArray(data.members)
      ? data.members
      : Array.isArray(data) && resource === "lists" && request.pathParams.id
        ? data
        : [];
  const update = operations.find((o) => o.path.includes("{membershipId}"));
  for (const m of memberships.slice(0, 3)) {
    if (!isObject(m) || typeof m.id !== "string" || !listId || !update) continue;
    const line = el("p", { class: "try-it-offer" }, "membership ", el("code", {}, m.id), " — use in: ");
    const b = button(summary(update), () =>
      openWith(update, { "try-it-path-id": listId, "try-it-path-membershipId": String(m.id) }),
    );
    b.dataset.use = `${opId(update)}:${m.id}`;
    line.append(b);
    p.offers.append(line);
  }
  const meta = isObject(body) ? body.meta : undefined;
  if (isObject(meta) && typeof meta.next === "string" && meta.next) {
    const cursorTakers = operations.filter((o) =>
      operationParameters(doc, o).some((x) => x.in === "query" && x.name === "cursor"),
    );
    const next = meta.next;
    const line = el("p", { class: "try-it-offer" }, "next page cursor ", el("code", {}, next), " — use in: ");
    for (const t of cursorTakers) {
      const given: Record<string, string> = { "try-it-query-cursor": next };
      // The same filters, so the cursor continues the same listing.
      if (t === op)
        for (const [name, value] of request.query) if (name !== "cursor") given[fieldId("query", name)] = value;
      const b = button(summary(t), () => openWith(t, given));
      b.dataset.use = `${opId(t)}:cursor`;
      line.append(b);
    }
    p.offers.append(line);
  }
}

function openWith(op: OperationRef, given: Record<string, string>): void {
  open(opId(op), opener ?? document.body, given);
}

async function send(): Promise<void> {
  const p = panel!;
  const live = isLive();
  // Ids must be prefilled before a request that takes one is sent; any other waits only for the sandbox's keys.
  if (!live) await (p.fields.querySelector("select[data-pick-for]") ? prefilled : fillKeys());
  const op = current!;
  const request = formRequest();
  const sentPath = pathAndQuery(request);
  const headers: Record<string, string> = { ...request.headers };
  const key = live ? typedKey : p.key.value;
  if (key) headers.authorization = `Bearer ${key}`;
  if (request.bodyText !== undefined) headers["content-type"] = "application/json";
  const init: RequestInit = { method: request.method, headers, body: request.bodyText ?? null };
  p.status.textContent = live || sandboxReady ? "Sending…" : "Starting the in-page sandbox, then sending…";
  p.cut.textContent = "";
  p.meta.textContent = "";
  p.offers.replaceChildren();
  const base = baseUrl();
  showRequest();
  const started = performance.now();
  let res: Response;
  const sandbox = live ? undefined : await pageSandbox();
  const sent = live ? base + sentPath : sandbox!.basePath + sentPath.replace(/^\//, "/");
  const controller = new AbortController();
  try {
    if (live) {
      if (!/^https?:\/\//.test(base)) throw new TypeError("no base URL");
      inFlight = controller;
      p.stop.hidden = false;
      res = await fetch(sent, { ...init, mode: "cors", credentials: "omit", signal: controller.signal });
    } else res = await sandbox!.fetch(sent, init);
  } catch (error) {
    inFlight = undefined;
    p.stop.hidden = true;
    p.headers.replaceChildren();
    p.body.replaceChildren();
    delete p.body.dataset.text;
    p.status.textContent = live
      ? controller.signal.aborted
        ? "Stopped before any answer came."
        : `No answer from ${base || "the server"}: the server is not running, or it does not allow requests from ` +
          "this page (CORS; npm run sandbox and npm run mock do). Try the curl below."
      : `Network error: ${(error as Error).message}`;
    return;
  }
  let textBody: string;
  let bytes: number;
  if (live) {
    const read = await readCapped(res, controller, LIVE_BODY_CAP, LIVE_STALL_MS);
    inFlight = undefined;
    p.stop.hidden = true;
    textBody = read.text;
    bytes = read.bytes;
    p.cut.textContent = read.ending ?? "";
  } else {
    textBody = await res.text();
    bytes = new TextEncoder().encode(textBody).length;
  }
  const ms = performance.now() - started;
  p.headers.replaceChildren();
  res.headers.forEach((value, name) => p.headers.append(el("dt", {}, name), el("dd", {}, value)));
  let parsed: unknown;
  let shown = textBody;
  try {
    parsed = JSON.parse(textBody) as unknown;
    shown = JSON.stringify(parsed, null, 2);
  } catch {
    // Not JSON (or cut): shown as received.
  }
  // A large answer stays plain text: colouring thousands of tokens would hold the tab.
  p.body.replaceChildren(...(parsed !== undefined && shown.length < 200_000 ? jsonNodes(parsed) : [shown]));
  p.body.dataset.text = shown;
  p.root.dataset.answerMs = ms.toFixed(1);
  p.meta.textContent = `${ms.toFixed(0)} ms · ${bytes.toLocaleString("en")} bytes · ${res.headers.get("content-type") ?? "no content type"}`;
  // For scripts and the browser test: the exchange with the key replaced by the variable's name.
  const shownHeaders = { ...headers, ...(key ? { authorization: `Bearer ${KEY_ENV}` } : {}) };
  api.lastExchange = {
    request: { method: request.method, url: sent, headers: shownHeaders, body: request.bodyText ?? null },
    response: { status: res.status, headers: Object.fromEntries(res.headers), body: textBody },
  };
  p.status.textContent = `${res.status} ${REASONS[res.status] ?? res.statusText}`.trim();
  if (parsed !== undefined) showOffers(op, request, parsed);
  if (!live) void refreshChoices();
}

async function fillKeys(): Promise<void> {
  const sandbox = await pageSandbox();
  const p = panel!;
  if (p.key.options.length > 0) return;
  const remembered = localStorage.getItem(KEY_CHOICE);
  for (const k of sandbox.keys) {
    const option = el("option", { value: k.key }, `${k.description} (${k.kind} key)`);
    if (option.textContent === remembered) option.selected = true;
    p.key.append(option);
  }
}

function open(sectionOperation: string, from: HTMLElement, given: Record<string, string> = {}): void {
  void pageStorage().catch(() => undefined);
  panel ??= build();
  const op = operations.find((o) => opId(o).toLowerCase() === sectionOperation.toLowerCase());
  if (!op) return;
  current = op;
  opener = from;
  fill(op, given);
  panel.root.hidden = false;
  dock?.show();
  const first =
    panel.fields.querySelector<HTMLElement>("input, select, textarea") ?? panel.form.querySelector("button");
  first?.focus();
  // The sandbox (its graph takes a moment) starts once the panel is on screen, while the reader reads the form.
  let started: () => void = () => undefined;
  prefilled = new Promise((resolve) => (started = resolve));
  requestAnimationFrame(() =>
    setTimeout(() => {
      const p = panel!;
      if (!sandboxReady) p.note.textContent = "Starting the in-page sandbox…";
      fillKeys().then(
        async () => {
          if (!sandboxReady) p.note.textContent = "The in-page sandbox is ready.";
          sandboxReady = true;
          await refreshChoices().catch(() => undefined);
          started();
        },
        (error: unknown) => {
          p.note.textContent = `The in-page sandbox did not start: ${String(error)}. What it stored is cleared: reload the page.`;
          void clearPageState(PAGE_STORAGE_KEY);
          sandboxPromise = undefined;
          storagePromise = undefined;
          started();
        },
      );
    }),
  );
}

const api: TryItApi = {
  open,
  fetch: async (input, init) => (await pageSandbox()).fetch(input, init),
  lastExchange: null,
};
window.__talentGraphTryIt = api;
