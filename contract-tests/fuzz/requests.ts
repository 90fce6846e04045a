/**
 * Seeded request generation: for every operation, valid requests (parameters and JSON bodies from the
 * schemas, seeded with the spec's examples and with values discovered on the server) and invalid ones
 * (one mutation each: wrong type, out of range, bad enum, missing required, non-finite integer, bad JSON,
 * wrong content type, huge value, bad percent-encoding, missing / malformed / revoked key).
 * The same seed, operations and seed values always give the same request sequence.
 */
import fc from "fast-check";
import { isObj, type Obj } from "../../contract-core/index.js";
import { SchemaArbitraries } from "./arbitraries.js";
import type { FuzzOperation, FuzzParam, FuzzSpec } from "./operations.js";

/** How a request authenticates: the run's key (two ways), none, a malformed header, or the revoked key. */
export type AuthMode = "bearer" | "x-api-key" | "none" | "malformed" | "revoked";

export interface FuzzRequest {
  /** Position in the run's sequence. */
  index: number;
  operationId: string;
  method: string;
  /** Path and query under the base URL, percent-encoded as sent (e.g. `/people?limit=3`). */
  path: string;
  /** Headers other than the key (the key is added when sending, so it never appears in a request record). */
  headers: Record<string, string>;
  auth: AuthMode;
  /** Raw body text as sent. */
  body?: string;
  /** Built to be valid, or built invalid by `mutation`. */
  intent: "valid" | "invalid";
  /** What was broken, e.g. `non_finite query limit=Infinity`. */
  mutation?: string;
  /** Invalid whatever the contract validator says (the validator cannot see these: bad JSON, encoding, revoked key, non-finite numbers). */
  invalidByConstruction?: boolean;
}

/** Values known to exist on the server, by `operationId` then path parameter name. */
export type SeedValues = Record<string, Record<string, string[]>>;

export interface GenerateOptions {
  seed: number;
  count: number;
  seeds?: SeedValues;
  /** Generate revoked-key requests (only when a revoked key is known). */
  revokedKey?: boolean;
  /** Restrict to these operation ids. */
  operations?: string[];
}

interface Draft {
  pathParams: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  auth: AuthMode;
  body?: string;
}

interface Mutation {
  name: string;
  byConstruction: boolean;
  auth: boolean;
  apply(draft: Draft): void;
}

const HUGE = 3000;
const NON_FINITE = ["Infinity", "-Infinity", "1e309", "NaN", "1.5"];
const MALFORMED_AUTH = ["Bearer", "Basic dGVzdDp0ZXN0", "Token abc123"];

const str = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));
const enc = (value: unknown): string => encodeURIComponent(str(value));

export class RequestGenerator {
  private readonly schemas: SchemaArbitraries;
  declare private readonly spec: FuzzSpec;

  constructor(spec: FuzzSpec) {
    this.spec = spec;
    this.schemas = new SchemaArbitraries(spec.doc);
  }

  generate(options: GenerateOptions): FuzzRequest[] {
    const ops = this.spec.operations.filter((op) => !options.operations || options.operations.includes(op.operationId));
    if (ops.length === 0 || options.count <= 0) return [];
    const perOp = Math.ceil(options.count / ops.length);
    const samples = ops.map((op, i) =>
      fc.sample(this.requestArb(op, options), { seed: (options.seed + i * 7919) | 0, numRuns: perOp }),
    );
    const out: FuzzRequest[] = [];
    for (let round = 0; out.length < options.count; round++) {
      for (let i = 0; i < ops.length && out.length < options.count; i++) out.push(samples[i]![round]!);
    }
    // Deletes go last, so that the resources found before the run stay there for the other operations.
    const ordered = [...out.filter((r) => r.method !== "DELETE"), ...out.filter((r) => r.method === "DELETE")];
    return ordered.map((request, index) => ({ ...request, index }));
  }

  private requestArb(op: FuzzOperation, options: GenerateOptions): fc.Arbitrary<FuzzRequest> {
    const valid = this.validDraft(op, options.seeds?.[op.operationId] ?? {});
    const mutations = this.mutations(op, options.revokedKey === true);
    if (mutations.length === 0) return valid.map((draft) => this.finish(op, draft, null));
    const auth = mutations.filter((m) => m.auth);
    const data = mutations.filter((m) => !m.auth);
    // Data mutations three times as often as key mutations, whatever the number of parameters.
    const mutation =
      auth.length === 0
        ? fc.constantFrom(...data)
        : data.length === 0
          ? fc.constantFrom(...auth)
          : fc.oneof(
              { arbitrary: fc.constantFrom(...data), weight: 3 },
              { arbitrary: fc.constantFrom(...auth), weight: 1 },
            );
    const invalid = fc.tuple(valid, mutation).map(([draft, mutation]) => {
      const copy = structuredClone(draft);
      mutation.apply(copy);
      return { draft: copy, mutation };
    });
    return fc.oneof(
      valid.map((draft) => this.finish(op, draft, null)),
      invalid.map(({ draft, mutation }) => this.finish(op, draft, mutation)),
    );
  }

  private finish(op: FuzzOperation, draft: Draft, mutation: Mutation | null): FuzzRequest {
    let path = op.pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => draft.pathParams[name] ?? "");
    if (draft.query.length > 0) path += `?${draft.query.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join("&")}`;
    const request: FuzzRequest = {
      index: 0,
      operationId: op.operationId,
      method: op.method,
      path,
      headers: draft.headers,
      auth: draft.auth,
      intent: mutation ? "invalid" : "valid",
    };
    if (draft.body !== undefined) request.body = draft.body;
    if (mutation) {
      request.mutation = mutation.name;
      if (mutation.byConstruction) request.invalidByConstruction = true;
    }
    return request;
  }

  private paramArb(param: FuzzParam, known: string[]): fc.Arbitrary<unknown> {
    const generated = this.schemas.valid(param.schema);
    const seeds = [...known, ...param.examples];
    if (seeds.length === 0) return generated;
    // Mostly values that exist, so that valid requests reach real data rather than 404s.
    return fc.oneof({ arbitrary: fc.constantFrom(...seeds), weight: 4 }, { arbitrary: generated, weight: 1 });
  }

  /** JSON text of valid bodies (the examples twice as often as generated ones), or no body when none is documented. */
  private bodyArb(op: FuzzOperation): fc.Arbitrary<string | undefined> {
    const body = op.body;
    if (!body) return fc.constant(undefined);
    const generated = this.schemas.valid(body.schema);
    const values =
      body.examples.length > 0
        ? fc.oneof({ arbitrary: fc.constantFrom(...body.examples), weight: 2 }, { arbitrary: generated, weight: 1 })
        : generated;
    const text = values.map((v) => JSON.stringify(v));
    return body.required ? text : fc.option(text, { nil: undefined });
  }

  private validDraft(op: FuzzOperation, known: Record<string, string[]>): fc.Arbitrary<Draft> {
    const pathParams = op.params.filter((p) => p.in === "path");
    const query = op.params.filter((p) => p.in === "query");
    const headers = op.params.filter((p) => p.in === "header");
    const requiredQuery = query.filter((p) => p.required);
    const optionalQuery = query.filter((p) => !p.required);
    const pathArb = fc.record(
      Object.fromEntries(pathParams.map((p) => [p.name, this.paramArb(p, known[p.name] ?? []).map(enc)])),
    );
    const queryArb = fc
      .subarray(optionalQuery, { maxLength: Math.min(3, optionalQuery.length) })
      .chain((chosen) =>
        fc.tuple(
          ...[...requiredQuery, ...chosen].map((p) =>
            this.paramArb(p, []).map((v): [string, string] => [p.name, enc(v)]),
          ),
        ),
      );
    const headerArb = fc
      .subarray(headers, { maxLength: Math.min(1, headers.length) })
      .chain((chosen) =>
        fc.tuple(
          ...chosen.map((p) => this.paramArb(p, []).map((v): [string, string] => [p.name.toLowerCase(), str(v)])),
        ),
      );
    const bodyArb = this.bodyArb(op);
    const authArb = fc.constantFrom<AuthMode>("bearer", "x-api-key");
    return fc
      .record({ pathParams: pathArb, query: queryArb, headerList: headerArb, body: bodyArb, auth: authArb })
      .map(({ pathParams: p, query: q, headerList, body: b, auth }) => {
        const draft: Draft = {
          pathParams: p as Record<string, string>,
          query: q,
          headers: Object.fromEntries(headerList),
          auth,
        };
        if (b !== undefined) {
          draft.body = b;
          draft.headers["content-type"] = op.body!.mediaType;
        }
        return draft;
      });
  }

  /** Every single-fault mutation that applies to the operation. */
  private mutations(op: FuzzOperation, revoked: boolean): Mutation[] {
    const out: Mutation[] = [];
    const add = (name: string, apply: (draft: Draft) => void, byConstruction = false): void => {
      out.push({ name, apply, byConstruction, auth: /_key\b/.test(name) });
    };
    for (const param of op.params) {
      if (param.in === "header") continue; // header parameters here are ignored for customer keys by the reference
      const schema = this.schemas.resolve(param.schema);
      const set = (value: string) => (draft: Draft) => {
        if (param.in === "path") draft.pathParams[param.name] = value;
        else {
          draft.query = draft.query.filter(([k]) => k !== param.name);
          draft.query.push([param.name, value]);
        }
      };
      for (const value of this.badValues(schema))
        add(
          `${value.kind} ${param.in} ${param.name}=${abbreviate(value.value)}`,
          set(value.encoded),
          value.byConstruction,
        );
      if (param.in === "path") add(`bad_percent_encoding path ${param.name}`, set("%ZZ"), true);
      if (param.in === "query" && param.required)
        add(`missing_required query ${param.name}`, (d) => void (d.query = d.query.filter(([k]) => k !== param.name)));
      // Not invalid by construction: servers may decode a query leniently; the contract validator decides.
      if (param.in === "query") add(`bad_percent_encoding query ${param.name}`, set("%E0%A4%A"));
    }
    if (op.body) {
      const body = op.body;
      const schema = this.schemas.resolve(body.schema);
      const withBody =
        (text: string, type = body.mediaType) =>
        (draft: Draft) => {
          draft.body = text;
          draft.headers["content-type"] = type;
        };
      add("bad_json body", withBody('{"name": '), true);
      add("wrong_content_type body text/plain", (d) => withBody(d.body ?? "{}", "text/plain")(d), true);
      if (body.required)
        add("missing_required body", (d) => {
          delete d.body;
          delete d.headers["content-type"];
        });
      if (this.schemas.types(schema).includes("object")) {
        add("wrong_type body=[]", withBody("[]"));
        const properties = isObj(schema.properties) ? schema.properties : {};
        const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
        const edit = (fn: (obj: Obj) => void) => (draft: Draft) => {
          let obj: unknown;
          try {
            obj = JSON.parse(draft.body ?? "{}");
          } catch {
            obj = {};
          }
          const target = isObj(obj) ? obj : {};
          fn(target);
          withBody(JSON.stringify(target))(draft);
        };
        for (const name of required)
          add(
            `missing_required body ${name}`,
            edit((obj) => void delete obj[name]),
          );
        for (const [name, raw] of Object.entries(properties)) {
          const prop = this.schemas.resolve(raw);
          if (prop.readOnly === true) continue;
          const wrong = this.wrongJsonType(prop);
          if (wrong !== undefined)
            add(
              `wrong_type body ${name}=${abbreviate(JSON.stringify(wrong))}`,
              edit((obj) => void (obj[name] = wrong)),
            );
          for (const value of this.badBodyValues(prop))
            add(
              `${value.kind} body ${name}=${abbreviate(JSON.stringify(value.value))}`,
              edit((obj) => void (obj[name] = value.value)),
            );
        }
        if (schema.additionalProperties === false)
          add(
            "unknown_property body",
            edit((obj) => void (obj.__fuzz_unknown__ = 1)),
          );
      }
    }
    if (op.secured) {
      add("missing_key", (d) => void (d.auth = "none"));
      for (const value of MALFORMED_AUTH)
        add(`malformed_key authorization=${value.split(" ")[0]}`, (d) => {
          d.auth = "malformed";
          d.headers.authorization = value;
        });
      if (revoked) add("revoked_key", (d) => void (d.auth = "revoked"), true);
    }
    return out;
  }

  /** Query/path strings the schema rejects, with how they break it. */
  private badValues(schema: Obj): { kind: string; value: string; encoded: string; byConstruction: boolean }[] {
    const out: { kind: string; value: string; encoded: string; byConstruction: boolean }[] = [];
    const push = (kind: string, value: string, byConstruction = false) =>
      out.push({ kind, value, encoded: encodeURIComponent(value), byConstruction });
    const types = this.schemas.types(schema);
    if (Array.isArray(schema.enum)) push("bad_enum", "not-a-documented-value");
    if (types.includes("integer") || types.includes("number")) {
      push("wrong_type", "abc");
      if (types.includes("integer")) for (const value of NON_FINITE) push("non_finite", value, true);
      if (typeof schema.minimum === "number") push("out_of_range", String(schema.minimum - 1));
      if (typeof schema.maximum === "number") push("out_of_range", String(schema.maximum + 1));
    }
    if (types.includes("boolean")) push("wrong_type", "maybe");
    if (types.includes("string")) {
      if (typeof schema.minLength === "number" && schema.minLength > 0) push("empty_value", "");
      if (schema.format === "uuid" || schema.format === "date-time" || schema.format === "date")
        push("wrong_format", "not-a-valid-value");
      // Invalid only beyond a maxLength or a format; either way it probes how far an answer echoes its input.
      push("huge_value", "x".repeat(HUGE));
    }
    return out;
  }

  private badBodyValues(schema: Obj): { kind: string; value: unknown }[] {
    const out: { kind: string; value: unknown }[] = [];
    const types = this.schemas.types(schema);
    if (Array.isArray(schema.enum)) out.push({ kind: "bad_enum", value: "not-a-documented-value" });
    if (types.includes("integer") || types.includes("number")) {
      if (typeof schema.minimum === "number") out.push({ kind: "out_of_range", value: schema.minimum - 1 });
      if (typeof schema.maximum === "number") out.push({ kind: "out_of_range", value: schema.maximum + 1 });
    }
    if (types.includes("string") && !Array.isArray(schema.enum))
      out.push({ kind: "huge_value", value: "x".repeat(HUGE) });
    if (types.includes("array") && typeof schema.maxItems === "number")
      out.push({ kind: "out_of_range", value: Array.from({ length: schema.maxItems + 1 }, () => null) });
    return out;
  }

  /** A JSON value of a type the schema does not allow, or undefined when it allows any. */
  private wrongJsonType(schema: Obj): unknown {
    const types = this.schemas.types(schema);
    if (types.length === 0) return undefined;
    if (!types.includes("object")) return { fuzz: true };
    if (!types.includes("integer") && !types.includes("number")) return 12345;
    return "not-a-number";
  }
}

function abbreviate(value: string): string {
  return value.length > 24 ? `${value.slice(0, 12)}…(${value.length} chars)` : value;
}
