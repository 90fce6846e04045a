import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type FetchResponse,
  type MaybeOptionalInit,
  type Middleware,
} from "openapi-fetch";
import { authMiddleware, validateAuthOptions, type AuthMethod } from "./auth.js";
import { systemClock, type Clock } from "./clock.js";
import { readRateLimit, type RateLimit } from "./rate-limit.js";
import { createTransport, resolveRetryOptions, type FetchLike, type RetryConfig } from "./retry.js";
import type { paths } from "./schema.js";

export const DEFAULT_TIMEOUT_MS = 30_000;

export interface TalentGraphClientOptions {
  /** The service's base address, ending with the version segment, e.g. `https://api.talent-graph.example/v1`. */
  baseUrl: string;
  /** Sent on every request; never logged, never part of an error message. Keep it out of frontend bundles. */
  apiKey: string;
  /** `Authorization: Bearer <key>` (default) or `X-Api-Key: <key>`; only one is ever sent. */
  auth?: AuthMethod;
  /** Organization UUID sent as X-Service-Org-Id (platform keys); checked when the client is created. */
  orgId?: string;
  /** Replaces `globalThis.fetch` (tests, proxies, instrumentation). */
  fetch?: FetchLike;
  /** Retry policy for GET requests; `false` switches it off. */
  retry?: RetryConfig;
  /** Timeout of each attempt in ms, body included; 0 switches it off. Default 30000. */
  timeoutMs?: number;
  /** Time source for retry waits, poll intervals and checkpoints. */
  clock?: Clock;
  /** Random source in [0, 1) for the retry jitter. */
  random?: () => number;
}

type HttpMethod = "get" | "put" | "post" | "delete" | "patch";
// `{} extends Pick<T, K>` holds exactly when K is optional in T (openapi-fetch's own idiom).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type RequiredKeysOf<T> = { [K in keyof T]: {} extends Pick<T, K> ? never : K }[keyof T];
type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** Every result carries the response's rate-limit headers. */
export type WithRateLimit<Result> = Result & { rateLimit: RateLimit };

/** openapi-fetch's typed method (path, parameters, body and responses from the spec), plus `rateLimit`. */
export type TypedMethod<M extends HttpMethod> = <
  Path extends ClientPathsWithMethod<Client<paths>, M>,
  Init extends MaybeOptionalInit<paths[Path], M>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<WithRateLimit<OperationResult<paths[Path][M], Init>>>;

type OperationResult<Operation, Init> =
  // `any` as openapi-fetch constrains its own operation type: `unknown` would reject every generated operation.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  Operation extends Record<string | number, any> ? FetchResponse<Operation, Init, `${string}/${string}`> : never;

export interface TalentGraphClient {
  GET: TypedMethod<"get">;
  POST: TypedMethod<"post">;
  PUT: TypedMethod<"put">;
  PATCH: TypedMethod<"patch">;
  DELETE: TypedMethod<"delete">;
  /** Adds openapi-fetch middleware; it runs after the client's auth middleware. */
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
  /** The client's time source; the polling helpers take their pass times and waits from it. */
  readonly clock: Clock;
}

function assertBaseUrl(baseUrl: unknown): asserts baseUrl is string {
  let protocol = "";
  try {
    protocol = new URL(String(baseUrl)).protocol;
  } catch {
    // not absolute: reported below
  }
  if (typeof baseUrl !== "string" || (protocol !== "http:" && protocol !== "https:")) {
    throw new TypeError(`baseUrl must be an absolute http(s) URL ending with /v1, got ${JSON.stringify(baseUrl)}`);
  }
}

type AnyCall = (url: never, init?: never) => Promise<{ response: Response }>;

function withRateLimit(call: AnyCall): AnyCall {
  return async (url, init) => {
    const result = await call(url, init);
    return Object.assign(result, { rateLimit: readRateLimit(result.response.headers) });
  };
}

/**
 * Creates the typed Talent Graph client on openapi-fetch: one auth header, X-Service-Org-Id,
 * a per-attempt timeout, retries for reads and rate-limit info on every result. The pagination and
 * polling helpers are separate functions that take the client (`paginatePeople(client, ...)`,
 * `pollEventsOnce(client, ...)`), so an app that does not call them does not bundle them.
 * Invalid options throw a `TypeError` here, before any request.
 */
export function createTalentGraphClient(options: TalentGraphClientOptions): TalentGraphClient {
  assertBaseUrl(options.baseUrl);
  const auth = { apiKey: options.apiKey, auth: options.auth ?? "bearer", orgId: options.orgId };
  validateAuthOptions(auth);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new TypeError(`timeoutMs must be a non-negative number of milliseconds, got ${timeoutMs}`);
  }
  const clock = options.clock ?? systemClock;
  const transport = createTransport({
    fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    retry: resolveRetryOptions(options.retry),
    timeoutMs,
    clock,
    random: options.random ?? Math.random,
  });
  const raw = createClient<paths>({ baseUrl: options.baseUrl, fetch: transport });
  raw.use(authMiddleware(auth));

  return {
    GET: withRateLimit(raw.GET as AnyCall) as TypedMethod<"get">,
    POST: withRateLimit(raw.POST as AnyCall) as TypedMethod<"post">,
    PUT: withRateLimit(raw.PUT as AnyCall) as TypedMethod<"put">,
    PATCH: withRateLimit(raw.PATCH as AnyCall) as TypedMethod<"patch">,
    DELETE: withRateLimit(raw.DELETE as AnyCall) as TypedMethod<"delete">,
    use: (...middleware) => raw.use(...middleware),
    eject: (...middleware) => raw.eject(...middleware),
    clock,
  };
}
