/**
 * The only try-it code that runs with the page (a few hundred bytes minified): a "Try it" button in each operation
 * section Redoc renders, and `window.talentGraphSandbox`. The panel and the sandbox stay unparsed text in the page
 * (`<script type="text/plain" id="try-it-code">`) until the first "Try it" or the first `talentGraphSandbox` call,
 * which runs that text as an inline script: no file to fetch, so it works from a file, 127.0.0.1 or GitHub Pages.
 */

import { BUTTON_CLASS, CODE_ID } from "./styles.js";

/** What the panel bundle (panel.ts) puts on `window` once it runs. */
export interface TryItApi {
  open(sectionOperation: string, opener: HTMLElement): void;
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** The panel's last exchange, as sent and received (body as text): for scripts and the browser test. */
  lastExchange: {
    request: { method: string; url: string; headers: Record<string, string>; body: string | null };
    response: { status: number; headers: Record<string, string>; body: string };
  } | null;
}

declare global {
  interface Window {
    __talentGraphTryIt?: TryItApi;
    talentGraphSandbox?: { fetch: TryItApi["fetch"] };
  }
}

function load(): TryItApi {
  if (!window.__talentGraphTryIt) {
    const code = document.getElementById(CODE_ID);
    const script = document.createElement("script");
    script.textContent = code?.textContent ?? "";
    document.head.append(script);
  }
  return window.__talentGraphTryIt!;
}

/** Adds the button to every operation section that lacks it (Redoc renders and re-renders sections lazily). */
function addButtons(): void {
  for (const section of document.querySelectorAll<HTMLElement>('[data-item-kind="httpItem"][data-section-id]')) {
    if (section.querySelector(`.${BUTTON_CLASS}`)) continue;
    const heading = section.querySelector("h2");
    if (!heading) continue;
    const operation = section.getAttribute("data-section-id")!.split("/").pop()!;
    const button = document.createElement("button");
    button.type = "button";
    button.className = BUTTON_CLASS;
    button.textContent = "Try it";
    button.addEventListener("click", () => load().open(operation, button));
    const actions = section.querySelector('[data-testid="page-actions"]');
    if (actions) actions.prepend(button);
    else heading.after(button);
  }
}

window.talentGraphSandbox = { fetch: (input, init) => load().fetch(input, init) };
let queued = false;
new MutationObserver(() => {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    addButtons();
  });
}).observe(document.documentElement, { childList: true, subtree: true });
addButtons();
