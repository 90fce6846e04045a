/** The ContractValidator: route, request side and response side checks of one exchange. */
import type { ErrorObject } from "ajv";
import type { ContractError, ContractValidator, Exchange, ExchangeResult, HeaderMap, RouteMatch } from "./types.js";
import type { ContractModel, Credential, MediaModel, OperationModel, ParamSet } from "./model.js";
import { fromAjv, locator } from "./errors.js";
import { join } from "./pointer.js";
import { coerceParams } from "./params.js";
import { parseUrl, Router } from "./route.js";

type Side = ContractError["side"];

const error = (side: Side, pointer: string, schemaPath: string, message: string): ContractError => ({
  side,
  pointer,
  schemaPath,
  message,
});

/** Lower-cased header names; multi-valued headers as arrays. */
function headerValues(headers: HeaderMap | undefined, key: string): string[] {
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== key || value === undefined) continue;
    return Array.isArray(value) ? value : [value];
  }
  return [];
}

/** `null`, `undefined` and `""` all mean "no body" in a recording. */
function hasBody(body: unknown): boolean {
  return body !== undefined && body !== null && body !== "";
}

function mediaTypeOf(headers: HeaderMap | undefined): string | null {
  const value = headerValues(headers, "content-type")[0];
  return value ? value.split(";")[0]!.trim().toLowerCase() : null;
}

function findMedia(media: MediaModel[], type: string): MediaModel | undefined {
  const [major] = type.split("/");
  return (
    media.find((m) => m.type === type) ??
    media.find((m) => m.type === `${major}/*`) ??
    media.find((m) => m.type === "*/*")
  );
}

export class Validator implements ContractValidator {
  private readonly router: Router<OperationModel>;
  private readonly locate: (error: ErrorObject) => string;
  declare private readonly model: ContractModel;

  constructor(model: ContractModel) {
    this.model = model;
    this.router = new Router(model.basePath, model.operations, (op) => ({ method: op.method, path: op.pathTemplate }));
    this.locate = locator(model.locations);
  }

  get operations(): readonly OperationModel[] {
    return this.model.operations;
  }

  get basePath(): string {
    return this.model.basePath;
  }

  matchRoute(method: string, url: string): RouteMatch | null {
    const route = this.router.find(method, url);
    return route.ok
      ? { operationId: route.route.operationId, pathTemplate: route.template, params: route.params }
      : null;
  }

  validate(exchange: Exchange): ExchangeResult {
    return this.check(exchange, true);
  }

  validateResponse(exchange: Exchange): ExchangeResult {
    return this.check(exchange, false);
  }

  private check(exchange: Exchange, withRequest: boolean): ExchangeResult {
    const { request, response } = exchange;
    const method = request.method.toUpperCase();
    const base = { method, url: request.url, status: response.status };
    const route = this.router.find(method, request.url);
    if (!route.ok)
      return { ...base, operationId: null, valid: false, errors: [error("request", "/url", "#/paths", route.message)] };
    const op = route.route;
    const errors = withRequest ? this.checkRequest(op, route.params, exchange) : [];
    errors.push(...this.checkResponse(op, exchange));
    return { ...base, operationId: op.operationId, valid: errors.length === 0, errors };
  }

  private checkParams(set: ParamSet, side: Side, base: string, lookup: (key: string) => string[]): ContractError[] {
    if (set.params.length === 0) return [];
    const values = coerceParams(set, lookup, this.model);
    if (set.validate(values)) return [];
    const locate = (error: ErrorObject): string => {
      const missing =
        error.keyword === "required"
          ? set.params.find((p) => p.key === (error.params as { missingProperty: string }).missingProperty)
          : undefined;
      return missing ? join(missing.pointer, "required") : this.locate(error);
    };
    return fromAjv(set.validate.errors, side, base, locate);
  }

  private checkBody(media: MediaModel, body: unknown, side: Side): ContractError[] {
    if (!media.validate || media.validate(body)) return [];
    return fromAjv(media.validate.errors, side, "/body", this.locate);
  }

  /** Content type and body against the documented media types (shared by both sides). */
  private checkContent(
    media: MediaModel[],
    headers: HeaderMap | undefined,
    body: unknown,
    side: Side,
    pointer: string,
    what: string,
  ): ContractError[] {
    const documented = `(documented: ${media.map((m) => m.type).join(", ")})`;
    const type = mediaTypeOf(headers);
    const match = type ? findMedia(media, type) : undefined;
    if (match) return this.checkBody(match, body, side);
    const message = type
      ? `content type ${type} is not documented for ${what} ${documented}`
      : `${what} has a body but no content-type header ${documented}`;
    return [error(side, "/headers/content-type", join(pointer, "content"), message)];
  }

  private checkCredentials(
    op: OperationModel,
    headers: HeaderMap | undefined,
    query: URLSearchParams,
  ): ContractError[] {
    if (op.security.length === 0) return [];
    const present = (c: Credential): boolean => {
      if (c.in === "query") return query.has(c.name);
      if (c.in === "cookie")
        return headerValues(headers, "cookie").some((v) => v.split(/;\s*/).some((kv) => kv.startsWith(`${c.name}=`)));
      const value = headerValues(headers, c.name)[0]?.trim() ?? "";
      return c.scheme
        ? value.toLowerCase().startsWith(`${c.scheme} `) && value.length > c.scheme.length + 1
        : value !== "";
    };
    if (op.security.some((alternative) => alternative.every(present))) return [];
    const expected = op.security.map((alt) => alt.map((c) => c.label).join(" + ") || "none").join(" or ");
    return [error("request", "/headers/authorization", op.securityPointer, `no credentials: send ${expected}`)];
  }

  private checkRequest(op: OperationModel, pathParams: Record<string, string>, { request }: Exchange): ContractError[] {
    const { query } = parseUrl(request.url);
    const errors = [
      ...this.checkParams(op.path, "request", "/path", (key) => (key in pathParams ? [pathParams[key]!] : [])),
      ...this.checkParams(op.query, "request", "/query", (key) => query.getAll(key)),
      ...this.checkParams(op.header, "request", "/headers", (key) => headerValues(request.headers, key)),
      ...this.checkCredentials(op, request.headers, query),
    ];
    const body = op.requestBody;
    if (!body) {
      if (hasBody(request.body))
        errors.push(
          error("request", "/body", op.pointer, `${op.operationId} documents no request body, but one was sent`),
        );
    } else if (!hasBody(request.body)) {
      if (body.required)
        errors.push(
          error("request", "/body", join(body.pointer, "required"), `${op.operationId} requires a request body`),
        );
    } else {
      errors.push(
        ...this.checkContent(
          body.media,
          request.headers,
          request.body,
          "request",
          body.pointer,
          `the ${op.operationId} request`,
        ),
      );
    }
    return errors;
  }

  private checkResponse(op: OperationModel, { response }: Exchange): ContractError[] {
    const status = String(response.status);
    const documented = op.responses.get(status) ?? op.responses.get(`${status[0]}XX`) ?? op.responses.get("DEFAULT");
    if (!documented) {
      const list = [...op.responses.values()].map((r) => r.key).join(", ");
      const message = `status ${status} is not documented for ${op.operationId} (documented: ${list})`;
      return [error("response", "/status", join(op.pointer, "responses"), message)];
    }
    const what = `${op.operationId} ${documented.key}`;
    const errors: ContractError[] = [];
    if (documented.media.length === 0) {
      if (hasBody(response.body))
        errors.push(
          error(
            "response",
            "/body",
            documented.pointer,
            `${what} is documented without content, but the response has a body`,
          ),
        );
    } else if (!hasBody(response.body)) {
      const types = documented.media.map((m) => m.type).join(", ");
      const message = `${what} documents ${types} content, but the response has no body`;
      errors.push(error("response", "/body", join(documented.pointer, "content"), message));
    } else {
      errors.push(
        ...this.checkContent(documented.media, response.headers, response.body, "response", documented.pointer, what),
      );
    }
    errors.push(
      ...this.checkParams(documented.headers, "response", "/headers", (key) => headerValues(response.headers, key)),
    );
    return errors;
  }
}
