/**
 * A scripted session against the stateful sandbox with the typed client: create a people Target, step its
 * discovery job to done through the control endpoint, accept proposed members by filter, see profile-change
 * events for them, and poll twice without losing or repeating an event.
 *
 *   npm run ts -- examples/sandbox-session.ts                      # starts a sandbox in-process on a free port
 *   SANDBOX_URL=http://127.0.0.1:4011/v1 npm run ts -- examples/sandbox-session.ts   # uses a running `npm run sandbox`
 *
 * Exits 0 when every step behaved as the reference says, 1 otherwise.
 */
import { createTalentGraphClient, pollEventsOnce, SeenIds, unwrap, type TalentGraphEvent } from "../client/index.js";
import { KEYS } from "../mocks/sandbox/contract/auth.js";
import { startSandbox, type RunningSandbox } from "../mocks/sandbox/hosts/node/server.js";

const ACME_KEY = KEYS.find((k) => k.key.startsWith("tgsb_acme_"))!.key;

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`check failed: ${message}`);
}

async function control<T>(origin: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${origin}/__sandbox${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST /__sandbox${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

async function session(baseUrl: string): Promise<void> {
  const origin = new URL(baseUrl).origin;
  const client = createTalentGraphClient({ baseUrl, apiKey: ACME_KEY });

  // 1. A people Target (kind people always creates a new Target; the job starts pending/queued).
  const created = await client.POST("/targets", {
    body: {
      kind: "people",
      input: "Backend engineers in Berlin",
      app_query: { keywords: "backend engineer", location: "Berlin" },
    },
  });
  const target = unwrap(created).data;
  console.log(
    `POST /targets -> ${created.response.status}: Target ${target.id} "${target.name}", job ${target.job.status}/${target.job.phase}`,
  );
  console.log(`  stored query.filters: ${JSON.stringify(target.query.filters)}`);
  check(
    created.response.status === 202 && target.job.status === "pending",
    "a new people Target answers 202 with a pending job",
  );

  // 2. Step its job to done, one phase at a time, through the control endpoint.
  for (let step = 1; step <= 10; step++) {
    await control(origin, "/jobs/advance", { target_id: target.id, outcome: "done" });
    const t = unwrap(await client.GET("/targets/{id}", { params: { path: { id: target.id } } })).data;
    console.log(
      `  advance ${step}: job ${t.job.status}/${t.job.phase}  members=${t.member_count} proposed=${t.proposed_count}`,
    );
    if (t.job.status === "done" || t.job.status === "failed") break;
  }
  const done = unwrap(await client.GET("/targets/{id}", { params: { path: { id: target.id } } })).data;
  check(done.job.status === "done" && (done.proposed_count ?? 0) > 0, "the job ends done with proposed members");

  // 3. Accept proposed members by filter: only the pending ones located in Berlin.
  const proposed = unwrap(
    await client.GET("/targets/{id}/members", { params: { path: { id: target.id }, query: { status: "proposed" } } }),
  );
  for (const m of proposed.data)
    console.log(`  proposed: ${m.full_name ?? "(stub, not enriched)"} | ${m.headline ?? "-"} | ${m.location ?? "-"}`);
  const accepted = unwrap(
    await client.POST("/targets/{id}/members", {
      params: { path: { id: target.id }, query: { status: "proposed", location: "Berlin" } },
      body: { status: "watching", apply: "filter" },
    }),
  ).data;
  console.log(
    `POST /targets/{id}/members?status=proposed&location=Berlin {status: watching, apply: filter} -> updated ${accepted.updated}`,
  );
  check(accepted.updated > 0, "the filter accepted members");
  const refresh = await control<{ job: { type: string; status: string } }[]>(origin, "/jobs/advance", {
    target_id: target.id,
    until: "finished",
    outcome: "done",
  });
  const watching = unwrap(
    await client.GET("/targets/{id}/members", { params: { path: { id: target.id }, query: { status: "watching" } } }),
  );
  console.log(
    `  ${refresh[0]?.job.type ?? "no"} job ${refresh[0]?.job.status ?? ""}; watching now: ${watching.data.map((m) => m.full_name).join(", ")}`,
  );
  check(watching.meta.count === accepted.updated, "the accepted members are watching");
  const me = unwrap(await client.GET("/me")).data as { quota?: { watch_slots?: { used?: number } } };
  console.log(
    `  GET /me quota.watch_slots.used = ${me.quota?.watch_slots?.used} (watching URLs outside the index graph)`,
  );

  // 4. Events for them: the Target's default List scopes GET /events to its watching members.
  const lists = unwrap(await client.GET("/lists")).data;
  const targetList = lists.find((l) => l.source_watch_id === target.id)!;
  console.log(`  default List "${targetList.name}" (${targetList.default_key}) has ${targetList.member_count} members`);
  const first = await control<TalentGraphEvent[]>(origin, "/events/emit", { target_id: target.id, count: 6 });
  const seen = new SeenIds();
  const show = (events: TalentGraphEvent[]) => {
    for (const e of events)
      console.log(`    ${e.seen_at} ${e.severity.padEnd(5)} ${e.source.padEnd(13)} ${e.field}: ${e.label}`);
  };
  console.log("poll pass 1 (no checkpoint yet):");
  const got1: string[] = [];
  const pass1 = await pollEventsOnce(client, {
    list: targetList.id,
    limit: 4,
    seen,
    onEvents: (events) => void (got1.push(...events.map((e) => e.id)), show(events)),
  });
  console.log(
    `  pass 1: ${pass1.delivered} events in ${pass1.pages} pages, ${pass1.duplicates} duplicates skipped, checkpoint ${pass1.checkpoint}`,
  );

  const second = await control<TalentGraphEvent[]>(origin, "/events/emit", { target_id: target.id, count: 3 });
  console.log("poll pass 2 (from pass 1's checkpoint minus the five-minute overlap):");
  const got2: string[] = [];
  const pass2 = await pollEventsOnce(client, {
    list: targetList.id,
    limit: 4,
    checkpoint: pass1.checkpoint,
    seen,
    onEvents: (events) => void (got2.push(...events.map((e) => e.id)), show(events)),
  });
  console.log(
    `  pass 2: ${pass2.delivered} new events in ${pass2.pages} pages, ${pass2.duplicates} re-read and skipped (the overlap), since ${pass2.since}`,
  );

  const emitted = [...first, ...second].map((e) => e.id);
  const delivered = [...got1, ...got2];
  const lost = emitted.filter((id) => !delivered.includes(id));
  const repeated = delivered.length - new Set(delivered).size;
  console.log(
    `result: ${emitted.length} events emitted, ${delivered.length} delivered, ${lost.length} lost, ${repeated} repeated`,
  );
  check(
    lost.length === 0 && repeated === 0 && got2.every((id) => !got1.includes(id)),
    "no event lost or repeated across the two passes",
  );
}

async function main(): Promise<void> {
  let sandbox: RunningSandbox | null = null;
  let baseUrl = process.env.SANDBOX_URL;
  if (!baseUrl) {
    sandbox = await startSandbox({ port: 0, jobSpeed: 0, rateLimit: false });
    baseUrl = sandbox.baseUrl;
    console.log(
      `sandbox started in-process at ${baseUrl} (${sandbox.graph.people.length} people, jobs moved only by /__sandbox/jobs/advance)`,
    );
  } else {
    console.log(`using the sandbox at ${baseUrl}`);
  }
  try {
    await session(baseUrl);
    console.log("session OK");
  } finally {
    await sandbox?.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
