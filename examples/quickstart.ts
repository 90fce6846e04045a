/**
 * Quickstart: a people search, a dossier, a new List and one pass over the event stream.
 *
 *   npm run mock                      # in one terminal (http://127.0.0.1:4010/v1)
 *   npm run ts -- examples/quickstart.ts    # in another
 *
 * Against a deployment: TALENT_GRAPH_BASE_URL=https://.../v1 TALENT_GRAPH_API_KEY=... (the mock
 * accepts any key). In your application import from "talent-graph-api-contract/client"
 * (after `npm run build:client`); this example imports the source so it runs without a build.
 */
import { createTalentGraphClient, pollEventsOnce, unwrap } from "../client/index.js";

const baseUrl = process.env.TALENT_GRAPH_BASE_URL ?? "http://127.0.0.1:4010/v1";
const apiKey = process.env.TALENT_GRAPH_API_KEY ?? "mock-key";

const client = createTalentGraphClient({ baseUrl, apiKey });

// 1. Search people (GET /people): the first page of a natural-language search.
const search = unwrap(
  await client.GET("/people", { params: { query: { nl: "staff engineers in Berlin", limit: 5 } } }),
);
const first = search.data[0];
console.log(
  `search: ${search.meta.count} rows on the page; first: ${first?.slug ?? "(none)"} - ${first?.headline ?? ""}`,
);

// 2. A dossier (GET /people/{slug}); `error` carries the error body, `rateLimit` the rate headers.
const {
  data: dossier,
  error,
  rateLimit,
} = await client.GET("/people/{slug}", {
  params: { path: { slug: "priya-raman" } },
});
if (error) throw new Error(`dossier failed: ${JSON.stringify(error)}`);
console.log(
  `dossier: ${dossier.data.full_name} (${dossier.data.headline ?? "no headline"}); rate limit remaining: ${rateLimit.remaining ?? "n/a"}`,
);

// 3. Create a List (POST /lists). Mutations are never retried automatically.
const { data: list } = unwrap(await client.POST("/lists", { body: { name: "Berlin staff engineers" } }));
console.log(`list: created "${list.name}" (${list.id})`);

// 4. One pass over the event stream. Store `checkpoint` and pass it to the next pass.
const pass = await pollEventsOnce(client, {
  checkpoint: new Date(Date.now() - 24 * 60 * 60 * 1000),
  onEvents: (events) => {
    for (const event of events)
      console.log(`event: ${event.seen_at} ${event.field} ${event.person.name ?? event.person.network_url}`);
  },
});
console.log(
  `events pass: ${pass.delivered} events on ${pass.pages} pages since ${pass.since}; next checkpoint ${pass.checkpoint}`,
);
