/**
 * Typed Talent Graph API client (`<package>/client`): openapi-fetch with the generated spec types,
 * plus the client behaviour the API reference asks for (auth, org header, timeouts, retries of
 * reads, errors, rate-limit info, pagination and event polling).
 */
export { createTalentGraphClient, DEFAULT_TIMEOUT_MS } from "./client.js";
export type { TalentGraphClient, TalentGraphClientOptions, TypedMethod, WithRateLimit } from "./client.js";
export { TalentGraphError, isTalentGraphError, unwrap } from "./errors.js";
export type { KnownErrorType, ResultLike } from "./errors.js";
export { readRateLimit } from "./rate-limit.js";
export type { RateLimit } from "./rate-limit.js";
export { DEFAULT_RETRY, backoffDelay, isRetryableStatus } from "./retry.js";
export type { FetchLike, RetryConfig, RetryOptions } from "./retry.js";
export { DEFAULT_OVERLAP_MS, DEFAULT_SEEN_CAPACITY, SeenIds } from "./events.js";
export type { EventPageInfo, PollEventsOnceOptions, PollEventsOptions, PollPassResult } from "./events.js";
export type { PageOptions } from "./pagination.js";
export type { AuthMethod } from "./auth.js";
export { systemClock } from "./clock.js";
export type { Clock } from "./clock.js";
export type {
  EventsPage,
  EventsQuery,
  PeoplePage,
  PeopleQuery,
  TalentGraphEvent,
  TargetMembersPage,
  TargetMembersQuery,
  components,
  operations,
  paths,
} from "./schema.js";
