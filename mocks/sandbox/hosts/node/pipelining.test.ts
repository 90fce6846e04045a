/**
 * HTTP/1.1 pipelining over a raw socket: a valid POST sent in the same packet as a malformed request is applied
 * and answered (its 201 and its log line) before the 400 for the malformed one and the close, on both servers.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../../prism/server.js";
import { KEYS } from "../../contract/auth.js";
import { fixtureGraphInput } from "../../data/fixture.js";
import { startSandbox, type RunningSandbox } from "./server.js";

const ACME = KEYS.find((k) => k.key.startsWith("tgsb_acme"))!.key;
const sandboxLog: string[] = [];
const mockLog: string[] = [];
let mock: RunningMock;
let sandbox: RunningSandbox;

beforeAll(async () => {
  [mock, sandbox] = await Promise.all([
    startMock({ port: 0, quiet: true, requestLog: (line) => mockLog.push(line) }),
    startSandbox({
      graph: fixtureGraphInput(),
      host: "127.0.0.1",
      port: 0,
      rateLimit: false,
      jobSpeed: 0,
      requestLog: (line) => sandboxLog.push(line),
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), sandbox?.close()]);
});

/** Writes `payload` in one go; resolves with every byte the server sent once it closed the connection. */
function exchange(port: number, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error(`no close after 10 s; got: ${Buffer.concat(chunks).toString("utf8")}`));
    });
    socket.write(payload);
  });
}

const statusLines = (raw: string) => raw.match(/HTTP\/1\.1 \d{3}/g) ?? [];

function pipelined(port: number, name: string): string {
  const body = JSON.stringify({ name });
  return (
    `POST /v1/lists HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${ACME}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` +
    "GARBAGE\r\n\r\n"
  );
}

describe("a valid POST pipelined before a malformed request", () => {
  it("the sandbox answers the POST (201, logged) before the 400 and the close", async () => {
    const port = Number(new URL(sandbox.origin).port);
    const raw = await exchange(port, pipelined(port, "Pipelined"));
    expect(statusLines(raw)).toEqual(["HTTP/1.1 201", "HTTP/1.1 400"]);
    expect(raw).toContain('"name":"Pipelined"');
    expect(raw).toMatch(/malformed HTTP request/);
    expect(
      sandboxLog.some((line) => /POST \/v1\/lists 201/.test(line)),
      sandboxLog.join("\n"),
    ).toBe(true);
  });

  it("the mock answers the POST (201, logged) before the 400 and the close", async () => {
    const port = Number(new URL(mock.baseUrl).port);
    const raw = await exchange(port, pipelined(port, "Pipelined"));
    expect(statusLines(raw)).toEqual(["HTTP/1.1 201", "HTTP/1.1 400"]);
    expect(raw).toMatch(/malformed HTTP request/);
    expect(
      mockLog.some((line) => /POST \/v1\/lists 201/.test(line)),
      mockLog.join("\n"),
    ).toBe(true);
  });

  it("two valid pipelined requests are both answered in order (near miss)", async () => {
    const port = Number(new URL(sandbox.origin).port);
    const get = `GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ACME}\r\n\r\n`;
    const last = `GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ACME}\r\nConnection: close\r\n\r\n`;
    const raw = await exchange(port, get + last);
    expect(statusLines(raw)).toEqual(["HTTP/1.1 200", "HTTP/1.1 200"]);
  });
});
