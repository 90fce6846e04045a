/**
 * The sandbox tried as an attacker and a careless client would try it, over real HTTP: one normalized path
 * for every decision, query integers in decimal digits, bounded `since`, authentication before the body,
 * bounded echoes of input, Node's parser refusals in the reference's shape, a cap on platform
 * organizations, CORS without credentials, documented answers that agree with their status, a bound on
 * nesting (all or nothing), control endpoints closed to other sites, and the 400 for an oversize body that
 * the client actually reads.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MAX_HEADER_BYTES,
  MAX_JSON_DEPTH,
  bodyTooDeepMessage,
  bodyTooLargeMessage,
  parseRawResponse,
  sendRaw,
  type RawResponse,
} from "../../../../contract-core/index.js";
import { startMock, type RunningMock } from "../../../prism/server.js";
import { KEYS, ORGS } from "../../contract/auth.js";
import { fixtureGraphInput } from "../../data/fixture.js";
import type { SandboxOptions } from "../../contract/options.js";
import { startSandbox, type RunningSandbox } from "./server.js";

const key = (prefix: string) => KEYS.find((k) => k.key.startsWith(prefix))!.key;
const ACME = key("tgsb_acme");
const INITECH = key("tgsb_initech");
const PLATFORM = key("tgsb_platform");

async function open(options: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  return startSandbox({
    host: "127.0.0.1",
    port: 0,
    graph: fixtureGraphInput(),
    jobSpeed: 0,
    rateLimit: false,
    ...options,
  });
}

async function call(sb: RunningSandbox, path: string, init: RequestInit & { key?: string | null } = {}) {
  const { key: k = ACME, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (k) headers.set("authorization", `Bearer ${k}`);
  const res = await fetch(sb.origin + path, { ...rest, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

describe("one normalized path for every decision", () => {
  let sb: RunningSandbox;
  beforeAll(async () => (sb = await open({ rateLimit: { max: 3, windowMs: 60_000 } })));
  afterAll(() => sb.close());

  it("rate-limits /%761/me and /v%31/me with /v1/me, and refuses a malformed escape with a 400", async () => {
    for (let i = 0; i < 3; i++) expect((await call(sb, "/v1/me")).status).toBe(200);
    for (const path of ["/v1/me", "/%761/me", "/v%31/me"]) {
      const res = await call(sb, path);
      expect(res.status, path).toBe(429);
      expect(res.headers.get("x-ratelimit-remaining"), path).toBe("0");
    }
  });

  it("answers a malformed percent-encoding with the reference's 400", async () => {
    const fresh = await open();
    try {
      const res = await call(fresh, "/v1/people/%ZZ");
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("invalid_request");
    } finally {
      await fresh.close();
    }
  });
});

describe("bounded input", () => {
  let sb: RunningSandbox;
  beforeAll(async () => (sb = await open({ maxPlatformOrgs: 2 })));
  afterAll(() => sb.close());

  it.each([
    ["/v1/people?limit=Infinity", "limit"],
    ["/v1/people?limit=1e2", "limit"],
    ["/v1/people?limit=-Infinity", "limit"],
    ["/v1/events?limit=1e309", "limit"],
    ["/v1/people?company_left_min_months_ago=Infinity", "company_left_min_months_ago"],
    ["/v1/events?since=819887478w", "since"],
    ["/v1/events?since=7403362w", "since"],
  ])("%s is a 400 naming %s", async (path, name) => {
    const res = await call(sb, path);
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe("invalid_request");
    expect(res.body.error.message.startsWith(`${name} `)).toBe(true);
  });

  it("still takes decimal integers and relative since within a century", async () => {
    expect((await call(sb, "/v1/people?limit=2")).body.meta.limit).toBe(2);
    expect((await call(sb, "/v1/events?since=5200w")).status).toBe(200);
  });

  it.each(["/v1/people/", "/v1/targets/x/"])(
    "echoes at most 200 characters of input in a message (%s<3,000 characters>)",
    async (prefix) => {
      const res = await call(sb, prefix + "x".repeat(3000));
      expect(res.status).toBe(404);
      expect(res.body.error.message.length).toBeLessThan(300);
      expect(res.body.error.message).toMatch(/x{150}\.\.\./);
    },
  );

  it("caps the platform key's organizations: the oldest untouched is evicted, then a 400", async () => {
    const org = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    const asOrg = (n: number, init: RequestInit = {}) =>
      call(sb, init.method === "POST" ? "/v1/lists" : "/v1/me", {
        ...init,
        key: PLATFORM,
        headers: { "x-service-org-id": org(n), "content-type": "application/json" },
      });
    expect((await asOrg(1)).status).toBe(200);
    expect((await asOrg(2)).status).toBe(200);
    expect((await asOrg(3)).status).toBe(200);
    expect(sb.state.org(org(1))).toBeUndefined();
    expect((await asOrg(2, { method: "POST", body: JSON.stringify({ name: "kept" }) })).status).toBe(201);
    expect((await asOrg(3, { method: "POST", body: JSON.stringify({ name: "kept" }) })).status).toBe(201);
    const refused = await asOrg(4);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/maximum of 2 platform organizations.*--max-platform-orgs/);
  });

  it("refuses a whitespace-padded organization UUID", async () => {
    const res = await sb.core.handle({
      method: "GET",
      url: "/v1/me",
      headers: { authorization: `Bearer ${PLATFORM}`, "x-service-org-id": ` ${ORGS.acme.id} ` },
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body!).error.message).toMatch(/X-Service-Org-Id/);
  });
});

describe("authenticate -> organization access -> validate -> handle", () => {
  let sb: RunningSandbox;
  beforeAll(async () => (sb = await open()));
  afterAll(() => sb.close());
  const post = (k: string | null, body: string, type = "application/json") =>
    call(sb, "/v1/lists", { method: "POST", key: k, body, headers: { "content-type": type } });
  const huge = "x".repeat(2 * 1024 * 1024);

  it("answers 401 without a key and 402 for a locked organization, whatever the body", async () => {
    for (const [k, status] of [
      [null, 401],
      [INITECH, 402],
    ] as const) {
      expect((await post(k, "{ not json")).status).toBe(status);
      expect((await post(k, "{}", "text/plain")).status).toBe(status);
      expect((await post(k, huge)).status).toBe(status);
    }
  });

  it("reads at most 1 MiB of a body, and says so in the reference's shape", async () => {
    const res = await post(ACME, huge);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ type: "invalid_request", message: "request body exceeds 1048576 bytes" });
    expect((await post(ACME, "{ not json")).body.error.message).toMatch(/^invalid JSON body/);
  });
});

describe("Node's parser refusals", () => {
  let sb: RunningSandbox;
  beforeAll(async () => (sb = await open()));
  afterAll(() => sb.close());
  const port = () => Number(new URL(sb.origin).port);

  it("headers over 16 KiB get the reference's 400, not an empty 431", async () => {
    const res = await sendRaw(
      port(),
      `GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(MAX_HEADER_BYTES)}\r\n\r\n`,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toMatchObject({
      type: "invalid_request",
      message: expect.stringMatching(/exceed 16384 bytes/),
    });
  });

  it("a malformed request gets the reference's 400", async () => {
    const res = await sendRaw(port(), "NOT A REQUEST\r\n\r\n");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.type).toBe("invalid_request");
  });
});

describe("headers and documented answers", () => {
  let sb: RunningSandbox;
  beforeAll(async () => (sb = await open()));
  afterAll(() => sb.close());

  it("allows any origin without credentials (keys travel in headers)", async () => {
    const res = await call(sb, "/v1/me", { headers: { origin: "https://evil.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("Prefer: code=500 answers a body saying 500; code=429 waits as long in its header as in its body", async () => {
    const failed = await call(sb, "/v1/me", { headers: { prefer: "code=500" } });
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ statusCode: 500, error: "Internal Server Error" });
    const limited = await call(sb, "/v1/me", { headers: { prefer: "code=429" } });
    expect(limited.status).toBe(429);
    const seconds = /retry in (\d+) seconds/.exec(limited.body.message)?.[1];
    expect(limited.headers.get("retry-after")).toBe(seconds);
  });
});

describe("every answer is all or nothing: a value nested deeper than the bound", () => {
  let sb: RunningSandbox;
  beforeAll(async () => (sb = await open()));
  afterAll(() => sb.close());
  // JSON text, not objects: an object 12,000 levels deep overflows JSON.stringify's stack on Node 22.
  const deep = (depth: number) => `${"[".repeat(depth)}"x"${"]".repeat(depth)}`;
  const post = (path: string, body: unknown) =>
    call(sb, path, {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "content-type": "application/json" },
    });

  it.each([
    ["/v1/queries", `{"name":"deep","query":{"company":${deep(12_000)}}}`],
    ["/v1/targets", `{"input":"Northwind Labs","app_query":{"keywords":${deep(12_000)}}}`],
    ["/v1/queries", `{"name":"just over","query":{"company":${deep(MAX_JSON_DEPTH)}}}`],
  ])("POST %s is a 400; the organization is intact and the next write is a 201", async (path, body) => {
    const res = await post(path, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ type: "invalid_request", message: bodyTooDeepMessage() });
    expect((await call(sb, "/v1/queries")).status).toBe(200);
    expect((await call(sb, "/v1/targets")).status).toBe(200);
    expect((await post("/v1/queries", { name: "next", query: { keywords: "x" } })).status).toBe(201);
  });
});

describe("control endpoints refuse cross-site requests", () => {
  let sb: RunningSandbox;
  beforeAll(async () => (sb = await open()));
  afterAll(() => sb.close());
  const lists = async () => (await call(sb, "/v1/lists")).body.data.map((l: { name: string }) => l.name);

  it("a reset from a foreign Origin is a 403, and one without a JSON content type a 400; nothing is wiped", async () => {
    const created = await call(sb, "/v1/lists", {
      method: "POST",
      body: JSON.stringify({ name: "Not wiped" }),
      headers: { "content-type": "application/json" },
    });
    expect(created.status).toBe(201);
    // What a page's no-cors form or fetch sends: no body, no JSON content type, its own Origin.
    const foreign = await call(sb, "/__sandbox/reset", {
      method: "POST",
      key: null,
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.message).toMatch(/only their own origin/);
    const foreignJson = await call(sb, "/__sandbox/reset", {
      method: "POST",
      key: null,
      headers: { origin: "https://evil.example", "content-type": "application/json" },
    });
    expect(foreignJson.status).toBe(403);
    const plain = await call(sb, "/__sandbox/reset", {
      method: "POST",
      key: null,
      headers: { "content-type": "text/plain" },
    });
    expect(plain.status).toBe(400);
    expect(plain.body.error.message).toMatch(/Content-Type: application\/json \(or an X-Sandbox-Control header\)/);
    expect(await lists()).toContain("Not wiped");
    // The sandbox's own origin, a command-line client (no Origin) with JSON or the header: accepted.
    const own = await call(sb, "/__sandbox/reset", {
      method: "POST",
      key: null,
      headers: { origin: sb.origin, "x-sandbox-control": "1" },
    });
    expect(own.status).toBe(200);
    expect(await lists()).not.toContain("Not wiped");
  });
});

/**
 * Writes a whole request on a raw socket and reads the answer: the status line first seen, the answer, and
 * the socket error the client met (a reset or EPIPE while it was still writing), if any.
 */
function exchange(
  port: number,
  head: string,
  body?: Buffer,
): Promise<{ first: string; response: RawResponse; error?: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let raw = "";
    let error: string | undefined;
    let written = body === undefined;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      socket.destroy();
      resolve({
        first: raw.split("\r\n")[0] ?? "",
        response: parseRawResponse(raw.replace(/^HTTP\/1\.1 100 [^\r]*\r\n\r\n/, "")),
        error,
      });
    };
    const complete = () => {
      const res = parseRawResponse(raw.replace(/^HTTP\/1\.1 100 [^\r]*\r\n\r\n/, ""));
      const length = Number(res.headers["content-length"]);
      return res.status >= 200 && Buffer.byteLength(res.body) >= length;
    };
    // Once the whole body is written and the whole answer read, wait a moment for a late reset.
    const check = () => {
      if (written && complete()) setTimeout(finish, 100);
    };
    socket.on("data", (chunk: Buffer) => {
      raw += chunk.toString("utf8");
      check();
    });
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error = e.code;
      finish();
    });
    socket.on("close", finish);
    socket.write(head);
    // The body in pieces, as a client on a real network sends it: the server answers while it still arrives.
    const piece = 64 * 1024;
    const send = (offset: number) => {
      if (body === undefined || finished) return;
      if (offset >= body.length) {
        written = true;
        check();
        return;
      }
      socket.write(body.subarray(offset, offset + piece), () => setTimeout(() => send(offset + piece), 1));
    };
    send(0);
  });
}

describe("a body over 1 MiB gets the documented 400 on both servers, over a real socket", () => {
  let sb: RunningSandbox;
  let mock: RunningMock;
  beforeAll(async () => {
    [sb, mock] = await Promise.all([open(), startMock({ port: 0, quiet: true })]);
  });
  afterAll(() => Promise.all([sb.close(), mock.close()]));
  const servers = () =>
    [
      ["sandbox", Number(new URL(sb.origin).port), ACME],
      ["mock", Number(new URL(mock.baseUrl).port), "test"],
    ] as const;
  const huge = Buffer.alloc(2 * 1024 * 1024, "x");
  const head = (key: string, extra: string) =>
    `POST /v1/lists HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${extra}\r\n`;

  it("a 2 MiB body sent whole: the client reads the 400, with no reset", async () => {
    for (const [name, port, key] of servers()) {
      const { response, error } = await exchange(port, head(key, `Content-Length: ${huge.length}\r\n`), huge);
      expect(error, name).toBeUndefined();
      expect(response.status, name).toBe(400);
      expect(JSON.parse(response.body).error, name).toEqual({
        type: "invalid_request",
        message: bodyTooLargeMessage(),
      });
    }
  });

  it("fetch sending 2 MiB, 10 MB and 50 MB bodies reads the 400 every time (no EPIPE, no reset)", async () => {
    const bodies = [huge, Buffer.alloc(10_000_000, "x"), Buffer.alloc(50_000_000, "x")];
    for (const [name, port, key] of servers()) {
      for (const body of [...bodies, ...bodies]) {
        const res = await fetch(`http://127.0.0.1:${port}/v1/lists`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body,
        }).then(
          async (r) => ({ status: r.status, text: await r.text() }),
          (e: Error) => ({ status: 0, text: String((e.cause as { code?: string } | undefined)?.code ?? e.message) }),
        );
        expect(res, `${name}, ${body.length} bytes`).toEqual({
          status: 400,
          text: JSON.stringify({ error: { type: "invalid_request", message: bodyTooLargeMessage() } }),
        });
      }
    }
  });

  it("a 2 MiB chunked body: the same 400, with no reset", async () => {
    const chunked = Buffer.concat([Buffer.from(`${huge.length.toString(16)}\r\n`), huge, Buffer.from("\r\n0\r\n\r\n")]);
    for (const [name, port, key] of servers()) {
      const { response, error } = await exchange(port, head(key, "Transfer-Encoding: chunked\r\n"), chunked);
      expect(error, name).toBeUndefined();
      expect(response.status, name).toBe(400);
    }
  });

  it("a declared 10 MB body with Expect: 100-continue gets the 400 at once, never 100 Continue", async () => {
    for (const [name, port, key] of servers()) {
      const { first, response } = await exchange(
        port,
        head(key, "Content-Length: 10000000\r\nExpect: 100-continue\r\n"),
      );
      expect(first, name).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(response.body).error.message, name).toBe(bodyTooLargeMessage());
    }
  });

  it("a body within the limit with Expect: 100-continue is continued and answered", async () => {
    const body = Buffer.from(JSON.stringify({ name: "continued" }));
    const { first } = await exchange(
      Number(new URL(sb.origin).port),
      head(ACME, `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n`),
      body,
    );
    expect(first).toBe("HTTP/1.1 100 Continue");
  });
});
