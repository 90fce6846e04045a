/**
 * Only for the static mock (`npm run mock`): it answers every GET /events with the same first page
 * (has_more true and the same `next`), so a client following the cursor would never reach the
 * end. This middleware asks the mock for its `last_page` example whenever a cursor is sent. Do not
 * use it against the real service.
 */
import type { Middleware } from "openapi-fetch";

export const mockEventPaging: Middleware = {
  onRequest({ request, schemaPath }) {
    if (schemaPath === "/events" && new URL(request.url).searchParams.has("cursor")) {
      request.headers.set("Prefer", "example=last_page");
    }
    return request;
  },
};

/** True for a base URL on this machine (where `npm run mock` listens). */
export function isLocal(baseUrl: string): boolean {
  return ["127.0.0.1", "localhost", "[::1]"].includes(new URL(baseUrl).hostname);
}
