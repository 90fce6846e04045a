// The shared rules for raw HTTP input: integer query parameters, the normalized request path, and the
// answer to what Node's HTTP parser refuses (clientError), on a real node:http server.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MAX_HEADER_BYTES,
  answerClientError,
  clientErrorResponse,
  isErrorBody,
  normalizeRequestPath,
  parseQueryInteger,
  parseRawResponse,
  sendRaw,
} from "./index.js";

describe("parseQueryInteger", () => {
  it.each([
    ["25", 25],
    ["0", 0],
    ["-0", 0],
    ["-3", -3],
    ["007", 7],
    ["9007199254740991", Number.MAX_SAFE_INTEGER],
  ])("accepts %j", (raw, value) => {
    expect(parseQueryInteger("limit", raw)).toEqual({ ok: true, value });
  });

  it.each(["Infinity", "-Infinity", "1e309", "1e2", "0x10", "0b1", " 5", "5 ", "+5", "5.0", "1_000", "", "NaN", "٣"])(
    "refuses %j naming the parameter",
    (raw) => {
      const result = parseQueryInteger("limit", raw);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toBe("limit must be integer");
    },
  );

  it("refuses digits beyond a safe integer, naming the bound and never echoing the value", () => {
    expect(parseQueryInteger("offset", "9".repeat(400))).toEqual({
      ok: false,
      message: "offset must be <= 9007199254740991",
    });
    expect(parseQueryInteger("offset", "-9007199254740992")).toEqual({
      ok: false,
      message: "offset must be >= -9007199254740991",
    });
  });
});

describe("normalizeRequestPath", () => {
  it("decodes escaped unreserved characters, so every spelling of a path is one path", () => {
    expect(normalizeRequestPath("/%761/me")).toEqual({ ok: true, path: "/v1/me" });
    expect(normalizeRequestPath("/v%31/me")).toEqual({ ok: true, path: "/v1/me" });
    expect(normalizeRequestPath("/v1/people/priya%2draman")).toEqual({ ok: true, path: "/v1/people/priya-raman" });
  });

  it("keeps other escapes, in upper case, so %2F stays inside its segment", () => {
    expect(normalizeRequestPath("/v1/lists/a%2fb")).toEqual({ ok: true, path: "/v1/lists/a%2Fb" });
    expect(normalizeRequestPath("/v1/lists/caf%c3%a9")).toEqual({ ok: true, path: "/v1/lists/caf%C3%A9" });
  });

  it.each(["/v1/people/%ZZ", "/v1/people/%", "/v1/people/%4", "/v1/people/%C3", "/v1/people/%FF%FE"])(
    "refuses %j",
    (path) => {
      expect(normalizeRequestPath(path)).toMatchObject({
        ok: false,
        message: expect.stringContaining("malformed percent-encoding"),
      });
    },
  );
});

describe("clientErrorResponse", () => {
  const parserError = (code: string) => Object.assign(new Error("Parse Error"), { code });

  it("answers a parser error with a 400 in the reference's error shape, and closes", () => {
    const raw = clientErrorResponse(parserError("HPE_HEADER_OVERFLOW"));
    expect(raw).not.toBeNull();
    const response = parseRawResponse(raw!);
    expect(response.status).toBe(400);
    expect(response.headers).toMatchObject({ "content-type": "application/json", connection: "close" });
    expect(Number(response.headers["content-length"])).toBe(Buffer.byteLength(response.body));
    const body = JSON.parse(response.body) as unknown;
    expect(isErrorBody(body, "invalid_request")).toBe(true);
    expect(JSON.stringify(body)).toContain(`exceed ${MAX_HEADER_BYTES} bytes`);
  });

  it("names the parser's code for any other malformed request", () => {
    expect(parseRawResponse(clientErrorResponse(parserError("HPE_INVALID_METHOD"))!).body).toContain(
      "malformed HTTP request (HPE_INVALID_METHOD)",
    );
  });

  it.each(["ECONNRESET", "ERR_HTTP_REQUEST_TIMEOUT"])("sends nothing for %s (the connection just closes)", (code) => {
    expect(clientErrorResponse(parserError(code))).toBeNull();
  });
});

describe("answerClientError on a node:http server", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (_req, res) => res.writeHead(204).end());
    server.on("clientError", answerClientError);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const expectInvalidRequest = (response: { status: number; body: string }) => {
    expect(response.status).toBe(400);
    expect(isErrorBody(JSON.parse(response.body), "invalid_request")).toBe(true);
  };

  it("headers over the limit: 400 invalid_request, not Node's empty 431", async () => {
    expectInvalidRequest(
      await sendRaw(port, `GET / HTTP/1.1\r\nhost: x\r\nx-big: ${"a".repeat(MAX_HEADER_BYTES)}\r\n\r\n`),
    );
  });

  it("a URL over the limit: 400 invalid_request", async () => {
    expectInvalidRequest(await sendRaw(port, `GET /${"a".repeat(MAX_HEADER_BYTES)} HTTP/1.1\r\nhost: x\r\n\r\n`));
  });

  it("a malformed request: 400 invalid_request, not Node's empty 400", async () => {
    expectInvalidRequest(await sendRaw(port, "NOT A REQUEST\r\n\r\n"));
    expectInvalidRequest(await sendRaw(port, "GET / HTTP/1.1\r\nhost: x\r\ncontent-length: abc\r\n\r\n"));
  });

  it("an ordinary request is untouched", async () => {
    expect((await sendRaw(port, "GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")).status).toBe(204);
  });
});
