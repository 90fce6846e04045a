/**
 * Before a run against a deployment (the workflows, the fuzzer): one authenticated GET of the account
 * operation (`/me`) tells apart the mistakes that otherwise surface as dozens of unrelated failures: a server
 * that is not reachable, a key it refuses (401 or 403) and a base URL without the spec's base path. The
 * messages name the key's variable, never the key.
 */
import { errorSummary } from "./request-log.js";

export interface TargetCheckOptions {
  /** The spec's base path, e.g. `/v1` (serverBasePath of the spec). */
  basePath: string;
  /** Where the key came from, for the message: `TALENT_GRAPH_API_KEY`. */
  keySource: string;
}

const PROBE = "/me";

/** Why a fetch failed, in words: the system error code when there is one. */
function unreachableReason(error: unknown, url: URL): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code;
  const words: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "no such host",
    EAI_AGAIN: "the host name did not resolve",
    ECONNRESET: "the connection was reset",
    ETIMEDOUT: "the connection timed out",
    EHOSTUNREACH: "no route to the host",
  };
  if ((error as Error).name === "TimeoutError") return "no answer in time";
  // fetch refuses the ports browsers block (1, 7, 9, ... 6000), before any connection.
  if (cause?.message === "bad port") return `port ${url.port} is one that fetch refuses to use, as browsers do`;
  return (code && words[code]) ?? cause?.message ?? (error as Error).message;
}

/** The error type and message of an answer in the reference's error shape, when it is one. */
async function errorOf(response: Response): Promise<string> {
  const summary = errorSummary(await response.text().catch(() => ""));
  return summary ? ` (${summary})` : "";
}

/**
 * A sentence saying why a run against `baseUrl` cannot start, or undefined when the deployment accepted the
 * key. A URL that answers without the base path is taken as a deployment with another one.
 */
export async function checkTarget(
  baseUrl: string,
  key: string,
  options: TargetCheckOptions,
): Promise<string | undefined> {
  const base = baseUrl.replace(/\/+$/, "");
  const path = new URL(base).pathname.replace(/\/+$/, "");
  const withoutBasePath = options.basePath !== "" && !path.endsWith(options.basePath);
  let response: Response;
  try {
    response = await fetch(`${base}${PROBE}`, {
      headers: { authorization: `Bearer ${key}`, accept: "application/json" },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    return `${base} is not reachable (${unreachableReason(error, new URL(base))}); check that the server is running and the URL is right.`;
  }
  if (response.status === 401 || response.status === 403) {
    const named = response.status === 401 ? "401 Unauthorized" : "403 Forbidden";
    return (
      `${base} answered GET ${PROBE} with ${named}${await errorOf(response)}: the key in ${options.keySource} ` +
      "is missing, wrong, revoked or for another deployment."
    );
  }
  await response.body?.cancel();
  if (response.status === 404 && withoutBasePath)
    return (
      `GET ${base}${PROBE} answered 404 Not Found, and ${base} does not end with ${options.basePath}, the spec's ` +
      `base path: did you mean ${base}${options.basePath}?`
    );
  return undefined;
}
