/**
 * The requests the benchmarks send: many distinct ones, as users send them, never one request repeated.
 *   - search: a spread of the golden file's people searches (filters alone and mixed, nl, views, paging);
 *   - mixed: those searches, dossiers of different people (with coworkers and similar people), and every
 *     other read operation of the API (companies, suggest, account, saved queries, Lists, Targets, members,
 *     events, preferences), the ones that read one record on a record made for the run.
 * Paths are relative to the base URL (`/people?...`); only those answering 2xx on the server are kept.
 */
import { goldenPaths } from "../../mocks/sandbox/testing/golden-queries.js";
import { answering } from "./harness.js";

/** Searches taken from the golden file (every n-th, so the spread covers its sections). */
const SEARCHES = 60;
/** People whose dossiers are read; the first DOSSIERS_WIDE also with coworkers and similar people. */
const DOSSIERS = 30;
const DOSSIERS_WIDE = 10;

export interface Workload {
  search: string[];
  mixed: string[];
}

/**
 * Golden searches, spread evenly over the file's list, each at the API's default page size (the golden file
 * asks for small pages to stay readable; a user's list view asks for the default page).
 */
export function goldenSearches(count = SEARCHES): string[] {
  const atDefaultPage = (path: string) => {
    const url = new URL(path, "http://golden.invalid");
    url.searchParams.delete("limit");
    return url.pathname + url.search;
  };
  const searches = [
    ...new Set(
      goldenPaths()
        .filter((p) => p.startsWith("/people?"))
        .map(atDefaultPage),
    ),
  ];
  const step = searches.length / count;
  return Array.from({ length: count }, (_, i) => searches[Math.floor(i * step)]!);
}

async function json(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  const res = await fetch(url, init);
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return body;
}

/** The workload of a running sandbox at `baseUrl` (creates one saved query, List and Target to read). */
export async function sandboxWorkload(baseUrl: string, headers: Record<string, string>): Promise<Workload> {
  const post = async (path: string, body: unknown) => {
    const answer = await json(baseUrl + path, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return (answer.data as { id: string }).id;
  };
  const query = await post("/queries", { name: "Northwind engineers", query: { company: "northwind" } });
  const list = await post("/lists", { name: "Backend shortlist" });
  const target = await post("/targets", { input: "Northwind Labs", kind: "company" });
  const people = (await json(`${baseUrl}/people?limit=${DOSSIERS}&offset=7`, { headers })).data as {
    slug: string | null;
  }[];
  const slugs = people.flatMap((p) => (p.slug ? [p.slug] : []));
  const companies = ((await json(`${baseUrl}/companies`, { headers })).data as { key: string }[])
    .slice(0, 5)
    .map((c) => c.key);
  const search = goldenSearches();
  const reads = [
    ...slugs.map((slug) => `/people/${slug}`),
    ...slugs
      .slice(0, DOSSIERS_WIDE)
      .flatMap((slug) => [
        `/people/${slug}?include=coworkers,similar`,
        `/people/${slug}/coworkers`,
        `/people/${slug}/similar`,
      ]),
    ...companies.map((key) => `/companies/${key}`),
    "/companies",
    "/companies?q=labs",
    "/suggest?q=cloud",
    "/suggest?q=north",
    "/me",
    "/queries",
    `/queries/${query}`,
    "/lists",
    `/lists/${list}`,
    "/targets",
    `/targets/${target}`,
    `/targets/${target}/members`,
    "/events",
    "/signals/preferences",
  ];
  const ok = (paths: string[]) => answering(baseUrl, paths, headers);
  const searchOk = await ok(search);
  // Interleaved, so every stretch of the load mixes searches with the other reads.
  const readsOk = await ok(reads);
  const mixed: string[] = [];
  for (let i = 0; i < Math.max(searchOk.length, readsOk.length); i++) {
    if (i < searchOk.length) mixed.push(searchOk[i]!);
    if (i < readsOk.length) mixed.push(readsOk[i]!);
  }
  return { search: searchOk, mixed };
}
