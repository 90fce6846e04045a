/**
 * Typed Talent Graph API client (`<package>/client`): openapi-fetch with the generated spec types,
 * plus the client behaviour the API reference asks for (auth, org header, timeouts, retries of
 * reads, errors, rate-limit info), and pagination and event polling as separate functions so that
 * an app bundles only the ones it calls. Every module is free of side effects.
 */
export { createTalentGraphClient, DEFAULT_TIMEOUT_MS } from "./client.js";
export type { TalentGraphClient, TalentGraphClientOptions, TypedMethod, WithRateLimit } from "./client.js";
export { TalentGraphError, isTalentGraphError, unwrap } from "./errors.js";
export type { KnownErrorType, ResultLike } from "./errors.js";
export { readRateLimit } from "./rate-limit.js";
export type { RateLimit } from "./rate-limit.js";
export { DEFAULT_RETRY, backoffDelay, isRetryableStatus } from "./retry.js";
export type { FetchLike, RetryConfig, RetryOptions } from "./retry.js";
export { DEFAULT_OVERLAP_MS, DEFAULT_SEEN_CAPACITY, SeenIds, pollEvents, pollEventsOnce } from "./events.js";
export type { EventPageInfo, PollClient, PollEventsOnceOptions, PollEventsOptions, PollPassResult } from "./events.js";
export { paginatePeople, paginateTargetMembers } from "./pagination.js";
export type { GetClient, PageOptions } from "./pagination.js";
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
