/**
 * The try-it panel (loaded on the first "Try it", see loader.ts): one `<aside>` landmark with the operation's
 * parameters and body prefilled from the spec's examples (the code samples' own choice, code-samples.ts), a
 * target (the in-page sandbox, or one of the spec's servers with a key typed in the page), a key chooser (the
 * sandbox's test keys), "Send", the answer (status announced in an aria-live region, the headers that matter,
 * the body), the equivalent curl against `npm run sandbox`, and the in-page sandbox's controls (starting state,
 * a fault for the next call, the job clock, Reset). Plain DOM, native controls: it works by keyboard alone.
 */
import bundledSpec from "../../../generated/openapi.json" with { type: "json" };
import { curlSample, operationParameters, requestUrl, sampleRequest, type SampleRequest } from "../code-samples.js";
import { listOperations, type Json, type JsonObject, type OpenApiDoc, type OperationRef } from "../openapi.js";
import { resolveServerVariables } from "../prepare-spec.js";
import type { OperationId } from "../../../mocks/sandbox/hosts/msw/msw-faults.js";
import {
  createPageSandbox,
  PAGE_STORAGE_KEY,
  PRESETS,
  type PageSandbox,
  type PageSandboxOptions,
} from "./page-sandbox.js";
import { TRY_IT_STYLES } from "./styles.js";
import type { TryItApi } from "./loader.js";

declare global {
  interface Window {
    talentGraphSandboxOptions?: PageSandboxOptions;
  }
}

const doc = bundledSpec as unknown as OpenApiDoc;
const operations = listOperations(doc);
const PAGE_TARGET = "page";
const KEY_MEMORY = "talent-graph-reference-live-key";
/** The headers a reader acts on. */
const SHOWN_HEADERS = ["location", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"];
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
let sandboxReady = false;
/** The in-page sandbox, built on first use (the graph takes a moment). */
export function pageSandbox(): Promise<PageSandbox> {
  sandboxPromise ??= new Promise((resolve, reject) =>
    setTimeout(() => {
      try {
        resolve(createPageSandbox(window.talentGraphSandboxOptions ?? {}));
      } catch (error) {
        reject(error as Error);
      }
    }, 0),
  );
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

interface Panel {
  root: HTMLElement;
  title: HTMLElement;
  route: HTMLElement;
  fields: HTMLElement;
  form: HTMLFormElement;
  target: HTMLSelectElement;
  key: HTMLSelectElement;
  liveKey: HTMLInputElement;
  remember: HTMLInputElement;
  status: HTMLElement;
  headers: HTMLElement;
  body: HTMLElement;
  curl: HTMLElement;
  faultStatus: HTMLSelectElement;
  note: HTMLElement;
  sandboxControls: HTMLElement;
  liveControls: HTMLElement;
}

let panel: Panel | undefined;
let current: OperationRef | undefined;
let opener: HTMLElement | undefined;
/** The key typed for a live server: in memory only, unless the reader asks to remember it. */
let typedKey = "";

function button(label: string, onClick: () => void | Promise<void>, type: "button" | "submit" = "button") {
  const b = el("button", { type }, label);
  if (type === "button") b.addEventListener("click", () => void onClick());
  return b;
}

function build(): Panel {
  const style = el("style", { id: "try-it-styles" }, TRY_IT_STYLES);
  document.head.append(style);
  const title = el("h2", { id: "try-it-title", tabindex: "-1" });
  const route = el("p", { class: "try-it-route" });
  const target = el("select", { id: "try-it-target" });
  target.append(el("option", { value: PAGE_TARGET }, "In-page sandbox (nothing leaves the page)"));
  for (const s of SERVERS) target.append(el("option", { value: s.url }, `${s.description.split(":")[0]}: ${s.url}`));
  const key = el("select", { id: "try-it-key" });
  const liveKey = el("input", { id: "try-it-live-key", type: "password", autocomplete: "off", spellcheck: "false" });
  liveKey.value = typedKey = localStorage.getItem(KEY_MEMORY) ?? "";
  const remember = el("input", { id: "try-it-remember", type: "checkbox" });
  remember.checked = typedKey !== "";
  const liveControls = el(
    "div",
    { class: "try-it-live", hidden: "" },
    el("label", { for: "try-it-live-key" }, "API key (sent only to the server chosen above)"),
    liveKey,
    el("label", { class: "try-it-check" }, remember, " Remember the key in this browser"),
  );
  const keyRow = el("div", { class: "try-it-page-key" }, el("label", { for: "try-it-key" }, "Test key"), key);
  const fields = el("div", { class: "try-it-fields" });
  const form = el(
    "form",
    { "aria-labelledby": "try-it-title" },
    el("label", { for: "try-it-target" }, "Send to"),
    target,
    keyRow,
    liveControls,
    fields,
    el(
      "div",
      { class: "try-it-actions" },
      button("Send", () => undefined, "submit"),
    ),
  );
  const status = el("p", { id: "try-it-status", role: "status", "aria-live": "polite" });
  const headers = el("dl", { class: "try-it-headers" });
  const body = el("pre", { id: "try-it-body", tabindex: "0", "aria-label": "Response body" });
  const curl = el("pre", { id: "try-it-curl", tabindex: "0", "aria-label": "Equivalent curl" });
  const faultStatus = el("select", { id: "try-it-fault" });
  const preset = el("select", { id: "try-it-preset" });
  for (const p of PRESETS) preset.append(el("option", { value: p.name }, p.label));
  const speed = el("select", { id: "try-it-speed" });
  for (const factor of [1, 10, 60]) speed.append(el("option", { value: String(factor) }, `${factor}×`));
  speed.addEventListener("change", () => void pageSandbox().then((s) => s.speed(Number(speed.value))));
  const note = el("p", { class: "try-it-note" });
  const say = (message: string) => (note.textContent = message);
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
      }),
    ),
    el("label", { for: "try-it-fault" }, "Fault for the next call of this operation"),
    el(
      "div",
      { class: "try-it-row" },
      faultStatus,
      button("Fail the next call", async () => {
        const sandbox = await pageSandbox();
        const id = String(current!.operation.operationId);
        const chosen = faultStatus.value === "network" ? "network" : Number(faultStatus.value);
        sandbox.fail(id as OperationId, chosen);
        say(`The next ${id} call answers ${chosen === "network" ? "with a network error" : chosen}.`);
      }),
    ),
    el("p", { class: "try-it-label" }, "Job clock"),
    el(
      "div",
      { class: "try-it-row" },
      button("+1 minute", async () => {
        (await pageSandbox()).advance(60_000);
        say("The clock moved 1 minute.");
      }),
      button("+1 hour", async () => {
        (await pageSandbox()).advance(3_600_000);
        say("The clock moved 1 hour.");
      }),
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
  const root = el(
    "aside",
    { id: "try-it-panel", "aria-labelledby": "try-it-title", hidden: "" },
    el("div", { class: "try-it-head" }, title, button("Close", close)),
    route,
    form,
    el("section", { "aria-label": "Answer" }, el("h3", {}, "Answer"), status, headers, body),
    el("h3", {}, "The same request with curl against npm run sandbox"),
    curl,
    sandboxControls,
  );
  document.body.append(root);
  target.addEventListener("change", () => {
    const live = target.value !== PAGE_TARGET;
    liveControls.hidden = !live;
    keyRow.hidden = live;
    sandboxControls.hidden = live;
  });
  liveKey.addEventListener("input", () => {
    typedKey = liveKey.value;
    if (remember.checked) localStorage.setItem(KEY_MEMORY, typedKey);
  });
  remember.addEventListener("change", () => {
    if (remember.checked) localStorage.setItem(KEY_MEMORY, liveKey.value);
    else localStorage.removeItem(KEY_MEMORY);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void send();
  });
  form.addEventListener("input", () => showCurl());
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) form.requestSubmit();
  });
  return {
    root,
    title,
    route,
    fields,
    form,
    target,
    key,
    liveKey,
    remember,
    status,
    headers,
    body,
    curl,
    faultStatus,
    note,
    sandboxControls,
    liveControls,
  };
}

function close(): void {
  if (!panel) return;
  panel.root.hidden = true;
  opener?.focus();
}

/** The form for one operation: its parameters (path, query, header) and its JSON body, prefilled. */
function fill(op: OperationRef): void {
  const p = panel!;
  const sample = sampleRequest(doc, op, []);
  p.title.textContent = `Try it: ${String(op.operation.summary ?? op.operation.operationId)}`;
  p.route.textContent = `${op.method.toUpperCase()} ${op.path}`;
  p.fields.replaceChildren();
  // Path and query first (what a reader changes), headers last.
  const order = (param: JsonObject) => ["path", "query", "header"].indexOf(String(param.in));
  for (const param of operationParameters(doc, op).sort((a, b) => order(a) - order(b))) {
    const name = String(param.name);
    const place = String(param.in);
    const value = place === "path" ? sample.pathParams[name] : place === "query" ? sample.query[name] : undefined;
    const input = el("input", { id: fieldId(place, name), name, "data-in": place, autocomplete: "off" });
    input.value = text(value);
    if (param.example !== undefined && value === undefined) input.placeholder = text(param.example);
    if (param.required === true) input.required = true;
    p.fields.append(
      el(
        "label",
        { for: input.id },
        `${name} `,
        el("span", { class: "try-it-in" }, `${place}${param.required ? ", required" : ""}`),
      ),
      input,
    );
  }
  if (sample.body !== undefined) {
    const area = el("textarea", { id: "try-it-request-body", rows: "8", spellcheck: "false" });
    area.value = JSON.stringify(sample.body, null, 2);
    p.fields.append(el("label", { for: area.id }, "Request body (JSON)"), area);
  }
  p.faultStatus.replaceChildren();
  const statuses = Object.keys(op.operation.responses ?? {}).flatMap((k) =>
    /^[45]\d\d$/.test(k) ? [k] : k === "5XX" ? ["503"] : [],
  );
  for (const s of statuses) p.faultStatus.append(el("option", { value: s }, `${s} ${REASONS[Number(s)] ?? ""}`.trim()));
  p.faultStatus.append(el("option", { value: "network" }, "Network error"));
  p.status.textContent = "";
  p.headers.replaceChildren();
  p.body.textContent = "";
  p.note.textContent = "";
  showCurl();
}

/** The request the form describes, as the code samples model it. */
function formRequest(baseUrl: string): SampleRequest & { headers: Record<string, string>; bodyText?: string } {
  const op = current!;
  const pathParams: JsonObject = {};
  const query: JsonObject = {};
  const headers: Record<string, string> = {};
  for (const input of panel!.fields.querySelectorAll<HTMLInputElement>("input[data-in]")) {
    if (input.value === "") continue;
    if (input.dataset.in === "path") pathParams[input.name] = input.value;
    else if (input.dataset.in === "query") query[input.name] = input.value;
    else if (input.dataset.in === "header") headers[input.name] = input.value;
  }
  const area = panel!.fields.querySelector<HTMLTextAreaElement>("#try-it-request-body");
  let body: Json | undefined;
  if (area) {
    try {
      body = JSON.parse(area.value) as Json;
    } catch {
      body = area.value;
    }
  }
  return {
    method: op.method,
    path: op.path,
    baseUrl,
    pathParams,
    query,
    body,
    auth: { name: "Authorization", value: "Bearer $TALENT_GRAPH_API_KEY" },
    headers,
    ...(area ? { bodyText: area.value } : {}),
  };
}

function showCurl(): void {
  const request = formRequest(LOCAL_SANDBOX);
  const lines = Object.entries(request.headers).map(
    ([name, value]) => ` \\\n  -H '${name}: ${value.replace(/'/g, `'\\''`)}'`,
  );
  panel!.curl.textContent = `${curlSample(request)}${lines.join("")}`;
}

async function send(): Promise<void> {
  const p = panel!;
  const live = p.target.value !== PAGE_TARGET;
  if (!live) await fillKeys();
  const request = formRequest(live ? p.target.value : "");
  const url = requestUrl(request);
  const headers: Record<string, string> = { ...request.headers };
  const key = live ? typedKey : p.key.value;
  if (key) headers.authorization = `Bearer ${key}`;
  if (request.bodyText !== undefined) headers["content-type"] = "application/json";
  const init: RequestInit = { method: request.method.toUpperCase(), headers, body: request.bodyText ?? null };
  p.status.textContent = live || sandboxReady ? "Sending…" : "Starting the in-page sandbox, then sending…";
  const started = performance.now();
  let res: Response;
  const sent = live ? url : (await pageSandbox()).basePath + url;
  try {
    if (live) res = await fetch(url, { ...init, mode: "cors", credentials: "omit" });
    else res = await (await pageSandbox()).fetch(sent, init);
  } catch (error) {
    p.headers.replaceChildren();
    p.body.textContent = "";
    p.status.textContent = live
      ? `No answer from ${p.target.value}: the server is not running, or it does not allow requests from this page ` +
        "(CORS; npm run sandbox and npm run mock do). Try the curl below."
      : `Network error: ${(error as Error).message}`;
    return;
  }
  const ms = performance.now() - started;
  const textBody = await res.text();
  p.headers.replaceChildren();
  for (const name of SHOWN_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) p.headers.append(el("dt", {}, name), el("dd", {}, value));
  }
  let shown = textBody;
  try {
    shown = JSON.stringify(JSON.parse(textBody), null, 2);
  } catch {
    // Not JSON: shown as received.
  }
  p.body.textContent = shown;
  p.root.dataset.answerMs = ms.toFixed(1);
  api.lastExchange = {
    request: { method: init.method!, url: sent, headers, body: request.bodyText ?? null },
    response: { status: res.status, headers: Object.fromEntries(res.headers), body: textBody },
  };
  p.status.textContent = `${res.status} ${REASONS[res.status] ?? res.statusText}`.trim();
}

async function fillKeys(): Promise<void> {
  const sandbox = await pageSandbox();
  const p = panel!;
  if (p.key.options.length > 0) return;
  for (const k of sandbox.keys) p.key.append(el("option", { value: k.key }, `${k.description} (${k.kind} key)`));
}

function open(sectionOperation: string, from: HTMLElement): void {
  panel ??= build();
  const op = operations.find((o) => String(o.operation.operationId).toLowerCase() === sectionOperation.toLowerCase());
  if (!op) return;
  current = op;
  opener = from;
  fill(op);
  panel.root.hidden = false;
  const first = panel.fields.querySelector<HTMLElement>("input, textarea") ?? panel.form.querySelector("button");
  first?.focus();
  // The sandbox (its graph takes a moment) starts once the panel is on screen, while the reader reads the form.
  requestAnimationFrame(() =>
    setTimeout(() => {
      const p = panel!;
      if (!sandboxReady) p.note.textContent = "Starting the in-page sandbox…";
      fillKeys().then(
        () => {
          if (!sandboxReady) p.note.textContent = "The in-page sandbox is ready.";
          sandboxReady = true;
        },
        (error: unknown) => {
          p.note.textContent = `The in-page sandbox did not start: ${String(error)}. What it stored is cleared: reload the page.`;
          localStorage.removeItem(PAGE_STORAGE_KEY);
          sandboxPromise = undefined;
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
