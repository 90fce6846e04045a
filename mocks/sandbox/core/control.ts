/**
 * The control step: /__sandbox/* endpoints (reset, state file, time), served by the core for every host,
 * with no key and no rate limit. Control writes change or wipe every organization, so a page on another
 * site must not be able to send them: they need a JSON content type or an X-Sandbox-Control header
 * (neither passes without CORS approval, which the preflight never gives to a foreign origin for these
 * paths), and a request with a foreign Origin is a 403, a read as much as a write.
 */
import { header, type RequestHeaders } from "../contract/auth.js";
import type { Area, ControlRoute, SandboxContext } from "../contract/context.js";
import { outsideOperations } from "../contract/errors.js";
import { json } from "./answer.js";
import { fromOwnOrigin } from "./cors.js";
import { JSON_MEDIA, parseJsonBody } from "./body.js";
import type { CoreRequest, CoreResponse } from "./exchange.js";

/** Every control endpoint the areas serve, keyed `POST /__sandbox/reset`. */
export function controlRoutesOf(areas: readonly Area[]): Map<string, ControlRoute> {
  const control = new Map<string, ControlRoute>();
  for (const area of areas) for (const route of area.control ?? []) control.set(`${route.method} ${route.path}`, route);
  return control;
}

/** The reference has no 403 error type (control endpoints are outside it): the general one, with the status that says why. */
const forbidden = outsideOperations.forbidden;

/** A request with a foreign (or opaque) Origin is a 403, reads included: state and jobs are not another site's. */
export function refuseForeignOrigin(headers: RequestHeaders): void {
  const one = (name: string) => header(headers, name);
  const origin = one("origin");
  if (origin !== undefined && !fromOwnOrigin(headers))
    throw forbidden(
      origin === "null" || one("host") === undefined
        ? "Control endpoints answer only their own origin"
        : `Control endpoints answer only their own origin, not ${origin.slice(0, 200)}`,
    );
}

export function refuseCrossSite(headers: RequestHeaders): void {
  const one = (name: string) => header(headers, name);
  refuseForeignOrigin(headers);
  const media = (one("content-type") ?? "").split(";")[0]!.trim();
  if (!JSON_MEDIA.test(media) && one("x-sandbox-control") === undefined)
    throw outsideOperations.invalid(
      "Control writes need Content-Type: application/json (or an X-Sandbox-Control header)",
    );
}

/** A control endpoint's answer: a write refused from another site, then its JSON body handled. */
export async function answerControl(
  route: ControlRoute,
  request: CoreRequest,
  method: string,
  ctx: SandboxContext,
): Promise<CoreResponse> {
  if (method !== "GET" && method !== "HEAD") refuseCrossSite(request.headers);
  else refuseForeignOrigin(request.headers);
  return json(200, await route.handle(await parseJsonBody(method, request.headers, request.body), ctx));
}
