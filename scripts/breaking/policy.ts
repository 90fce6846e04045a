/**
 * The breaking-change policy: every rule the detector reports, with its verdict and why it breaks clients (or,
 * for a non-breaking rule that exempts a difference, why no client can see it).
 */

export interface RuleDef {
  breaking: boolean;
  title: string;
  /** Why the change breaks existing clients (breaking rules only). */
  why?: string;
  /** The safety net: a difference no rule classified. Breaking by default, shown as "needs review". */
  review?: true;
}

/** The sentence every unclassified change carries. */
export const UNCLASSIFIED_WHY = "the detector does not know what this does to clients: review it";

export const POLICY = {
  "unclassified-change": {
    breaking: true,
    review: true,
    title: "A difference no rule classifies (the safety net: every other difference of the two documents)",
    why: UNCLASSIFIED_WHY,
  },
  "operation-removed": {
    breaking: true,
    title: "Operation removed",
    why: "clients calling it fail",
  },
  "operation-id-changed": {
    breaking: true,
    title: "operationId changed",
    why: "generated SDKs and typed `operations[...]` lookups are keyed by operationId",
  },
  "response-status-removed": {
    breaking: true,
    title: "Response status removed",
    why: "clients handling that status lose its documented shape",
  },
  "response-media-type-removed": {
    breaking: true,
    title: "Response media type removed",
    why: "clients that parse that media type can no longer rely on it",
  },
  "response-header-removed": {
    breaking: true,
    title: "Response header removed or no longer always sent",
    why: "clients reading the header get nothing",
  },
  "response-property-removed": {
    breaking: true,
    title: "Response property removed",
    why: "clients reading the property get undefined",
  },
  "response-property-optional": {
    breaking: true,
    title: "Response property made optional",
    why: "clients assume the key is always present",
  },
  "response-property-nullable": {
    breaking: true,
    title: "Response value made nullable",
    why: "clients do not expect null and crash or mis-handle it",
  },
  "response-enum-value-added": {
    breaking: true,
    title: "New enum value in a response",
    why: "exhaustive client switches and strict decoders reject the unknown value",
  },
  "response-variant-added": {
    breaking: true,
    title: "New oneOf/anyOf variant in a response",
    why: "clients may receive a shape they do not handle",
  },
  "response-type-changed": {
    breaking: true,
    title: "Response type changed or widened",
    why: "clients decode the old type",
  },
  "response-constraint-widened": {
    breaking: true,
    title:
      "Response constraint widened (a bound lowered/raised outward or removed, pattern/format/enum/uniqueItems/contains/not removed or replaced, a subschema widened)",
    why: "clients relying on the documented bounds (strict decoders, UIs sized to maxLength, response validators) get values they reject",
  },
  "request-type-changed": {
    breaking: true,
    title: "Request type changed or narrowed",
    why: "values clients send today are rejected",
  },
  "request-parameter-required": {
    breaking: true,
    title: "Request parameter added as required, or made required",
    why: "existing calls omit it and get 400",
  },
  "request-property-required": {
    breaking: true,
    title: "Request body property added as required, or made required",
    why: "existing bodies omit it and get 400",
  },
  "request-body-required": {
    breaking: true,
    title: "Request body added as required, or made required",
    why: "existing calls send no body and get 400",
  },
  "request-constraint-narrowed": {
    breaking: true,
    title:
      "Request constraint narrowed (a bound tightened or added; pattern/format/multipleOf/enum/uniqueItems/contains/not/dependentRequired/readOnly added or replaced; additionalProperties closed; a subschema at any depth narrowed)",
    why: "values clients send today are rejected",
  },
  "request-default-changed": {
    breaking: true,
    title: "Default of a request parameter or property added, changed or removed",
    why: "clients that omit the value get a different behaviour than the one they rely on",
  },
  "discriminator-changed": {
    breaking: true,
    title: "discriminator added, removed or changed (propertyName or mapping)",
    why: "clients pick the oneOf/anyOf variant by it: they decode a body as the wrong variant or fail to pick one",
  },
  "request-enum-value-removed": {
    breaking: true,
    title: "Request enum value removed",
    why: "clients sending that value get 400",
  },
  "request-variant-removed": {
    breaking: true,
    title: "oneOf/anyOf variant removed from a request",
    why: "bodies of that shape are rejected",
  },
  "request-parameter-removed": {
    breaking: true,
    title: "Request parameter removed",
    why: "clients sending it get it ignored or rejected; typed clients stop compiling",
  },
  "request-property-removed": {
    breaking: true,
    title: "Request body property removed",
    why: "clients sending it get it ignored or rejected; typed clients stop compiling",
  },
  "request-body-removed": {
    breaking: true,
    title: "Request body removed",
    why: "the body clients send is no longer accepted",
  },
  "request-media-type-removed": {
    breaking: true,
    title: "Request media type removed",
    why: "requests with that content type are no longer accepted",
  },
  "parameter-location-changed": {
    breaking: true,
    title: "Parameter location changed (e.g. query to header)",
    why: "clients send it where the server no longer reads it",
  },
  "parameter-renamed": {
    breaking: true,
    title: "Parameter renamed",
    why: "clients send the old name",
  },
  "parameter-serialization-changed": {
    breaking: true,
    title: "Parameter style/explode/allowReserved changed",
    why: "clients serialize the value the old way",
  },
  "webhook-removed": {
    breaking: true,
    title: "Webhook (or one of its operations) removed",
    why: "clients waiting for it are never called; their handlers are dead code",
  },
  "callback-removed": {
    breaking: true,
    title: "Callback (or one of its operations) removed",
    why: "clients waiting for it are never called; their handlers are dead code",
  },
  "security-requirement-added": {
    breaking: true,
    title: "Security requirement added (an operation that needed no scheme, or fewer, now needs one more)",
    why: "calls authenticated the documented way are refused with 401/403",
  },
  "security-scope-added": {
    breaking: true,
    title: "Security scope added to a requirement",
    why: "tokens granted the documented scopes are refused with 403",
  },
  "security-scheme-changed": {
    breaking: true,
    title: "Security scheme changed (type, header or query name, HTTP scheme, flows)",
    why: "clients send credentials the way the server no longer reads them",
  },
  "server-removed": {
    breaking: true,
    title: "Server URL removed",
    why: "clients configured with that base URL call nothing",
  },
  "operation-added": { breaking: false, title: "Operation added" },
  "response-status-added": { breaking: false, title: "Response status added" },
  "response-header-added": { breaking: false, title: "Response header added" },
  "response-property-added": { breaking: false, title: "Response property added (clients ignore additional fields)" },
  "response-property-required": { breaking: false, title: "Response property made required" },
  "response-property-non-nullable": { breaking: false, title: "Response value no longer nullable" },
  "response-enum-value-removed": { breaking: false, title: "Response enum value removed or enum introduced" },
  "response-variant-removed": { breaking: false, title: "oneOf/anyOf variant removed from a response" },
  "response-type-narrowed": { breaking: false, title: "Response type narrowed" },
  "response-constraint-narrowed": {
    breaking: false,
    title: "Response constraint narrowed (the server promises values within tighter bounds)",
  },
  "response-default-changed": {
    breaking: false,
    title: "Default of a response value changed (an annotation: the server sends the value)",
  },
  "request-parameter-added": { breaking: false, title: "Optional request parameter added" },
  "request-property-added": { breaking: false, title: "Optional request body property added" },
  "request-body-added": { breaking: false, title: "Optional request body added" },
  "request-parameter-optional": { breaking: false, title: "Request parameter made optional" },
  "request-property-optional": { breaking: false, title: "Request body property made optional" },
  "request-body-optional": { breaking: false, title: "Request body made optional" },
  "request-constraint-widened": { breaking: false, title: "Request constraint widened" },
  "request-enum-value-added": { breaking: false, title: "Request enum value added" },
  "request-variant-added": { breaking: false, title: "oneOf/anyOf variant added to a request" },
  "request-type-widened": { breaking: false, title: "Request type widened (e.g. integer to number, null allowed)" },
  "media-type-added": { breaking: false, title: "Request or response media type added" },
  "webhook-added": { breaking: false, title: "Webhook (or one of its operations) added" },
  "callback-added": { breaking: false, title: "Callback (or one of its operations) added" },
  "security-requirement-relaxed": {
    breaking: false,
    title: "Security requirement relaxed (a scheme or scope no longer needed, or an alternative added)",
  },
  "server-added": { breaking: false, title: "Server URL added" },
  "component-added": { breaking: false, title: "Component added that no operation uses yet (only types gain it)" },
  "description-changed": { breaking: false, title: "Description or summary changed (exempt: prose only)" },
  "annotation-changed": {
    breaking: false,
    title:
      "Annotation changed (exempt: title, $comment, tags, externalDocs, info, annotation-only x- extensions listed in spec/EXTENSIONS.md)",
  },
  "example-changed": { breaking: false, title: "Example changed (exempt: example, examples)" },
  deprecated: { breaking: false, title: "Marked deprecated, or no longer deprecated" },
} satisfies Record<string, RuleDef>;

export type RuleId = keyof typeof POLICY;

export interface Change {
  rule: RuleId;
  breaking: boolean;
  /** "METHOD /path" (head path when the operation exists in head). */
  operation: string;
  operationId: string | undefined;
  /** JSON pointer relative to the operation ("" = the operation itself). */
  location: string;
  /** Pointer inside a named component when the change is in one, e.g. #/components/schemas/Person/properties/slug. */
  component?: string;
  message: string;
  why?: string;
  /** For an unclassified change: the value before and after, as compact JSON (absent when it did not exist). */
  before?: string;
  after?: string;
}

/** Whether a change needs a reviewer's judgement (the detector could not classify it); it counts as breaking. */
export const needsReview = (change: Pick<Change, "rule">): boolean => (POLICY[change.rule] as RuleDef).review === true;

/**
 * x- extensions that only annotate (documentation, lint, mock examples, generated constants of an open list):
 * a change to one cannot reach a client. Each is described as such in spec/EXTENSIONS.md (tested). Any other
 * x- extension (x-requires, x-shape-not-shown) is compared by the safety net.
 */
export const ANNOTATION_EXTENSIONS: readonly string[] = [
  "x-tagGroups",
  "x-internal",
  "x-generated",
  "x-codeSamples",
  "x-property-case",
  "x-mock-match",
  "x-limit-not-in-reference",
  "x-known-values",
];
