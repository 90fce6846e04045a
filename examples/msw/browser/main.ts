/**
 * The example page's script: starts MSW's service worker with the sandbox handlers, then uses the typed
 * client against this page's own origin. `?persist=1` keeps the sandbox's state in localStorage across
 * reloads. In your app import from the package ("talent-graph-api-contract/msw" and "/client").
 */
import { setupWorker } from "msw/browser";
import { createTalentGraphClient, isTalentGraphError, unwrap } from "../../../client/index.js";
import { createSandboxHandlers } from "../../../mocks/sandbox/hosts/msw/msw.js";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const baseUrl = `${location.origin}/v1`;
const persist = new URLSearchParams(location.search).get("persist") === "1";

const t0 = performance.now();
const sandbox = createSandboxHandlers({ baseUrl, persist });
const handlersMs = performance.now() - t0;
// For tests that drive the page (Playwright): page.evaluate(() => window.__sandbox.reset()), .fail(...), .seedState(...).
(window as unknown as { __sandbox: typeof sandbox }).__sandbox = sandbox;
const worker = setupWorker(...sandbox.handlers);
await worker.start({ onUnhandledFrame: "bypass", quiet: true, serviceWorker: { url: "./mockServiceWorker.js" } });
const workerMs = performance.now() - t0 - handlersMs;
const client = createTalentGraphClient({
  baseUrl,
  apiKey: sandbox.keys.acme,
});

async function showLists(): Promise<void> {
  const lists = unwrap(await client.GET("/lists")).data;
  $("lists").replaceChildren(...lists.map((l) => Object.assign(document.createElement("li"), { textContent: l.name })));
}

async function search(keywords: string): Promise<void> {
  const people = unwrap(await client.GET("/people", { params: { query: { keywords, limit: 5 } } })).data;
  $("results").replaceChildren(
    // Rows without a slug (not in the index graph) have no dossier to open.
    ...people
      .flatMap(({ slug }) => (slug ? [slug] : []))
      .map((slug) => {
        const button = Object.assign(document.createElement("button"), { className: "slug", textContent: slug });
        button.onclick = async () => {
          const person = unwrap(await client.GET("/people/{slug}", { params: { path: { slug } } })).data;
          $("dossier").textContent = person.full_name ?? slug;
        };
        return button;
      }),
  );
}

$("search-form").onsubmit = (event) => {
  event.preventDefault();
  void search($<HTMLInputElement>("search").value);
};
$("list-form").onsubmit = async (event) => {
  event.preventDefault();
  // A refused write (an empty name is the API's 400) shows the API's message where the user sees it.
  try {
    unwrap(await client.POST("/lists", { body: { name: $<HTMLInputElement>("list-name").value } }));
    $("error").textContent = "";
  } catch (error) {
    if (!isTalentGraphError(error)) throw error;
    $("error").textContent = error.message;
  }
  await showLists();
};

await showLists();
// Read by the browser test and `npm run bench`: handlers created -> first answer on the page, and its parts
// (the graph inside createSandboxHandlers, the worker's start, the first request's round trip).
const totalMs = performance.now() - t0;
document.body.dataset.firstAnswerParts = JSON.stringify({
  graph: Math.round(sandbox.core.graphMs),
  handlers: Math.round(handlersMs),
  worker: Math.round(workerMs),
  answer: Math.round(totalMs - handlersMs - workerMs),
});
document.body.dataset.firstAnswerMs = String(Math.round(totalMs));
$("status").textContent = `ready (${persist ? "state kept in localStorage" : "state resets on reload"})`;
