/**
 * The graph's records, derived from the spec's schemas in generated/schema.d.ts. The sandbox fills every key
 * the spec lists (`Filled`), so a field added to a schema fails `tsc` in the generator and the fixture until
 * they carry it. `resources.test-d.ts` checks the records still fit the spec.
 */
import type { components } from "../../../generated/schema.js";

type Schemas = components["schemas"];

/**
 * T with every key present, all the way down (arrays and `| null` kept), except the keys named in `Absent`,
 * which stay optional: the spec lets them be left out and the sandbox does.
 */
export type Filled<T, Absent extends PropertyKey = never> = T extends readonly (infer E)[]
  ? Filled<E, Absent>[]
  : T extends object
    ? { [K in keyof T as K extends Absent ? never : K]-?: Filled<Exclude<T[K], undefined>, Absent> } & {
        [K in keyof T as K extends Absent ? K : never]?: T[K];
      }
    : T;

/** Evidence says `source: "snapshot"` only when it came from a snapshot. */
type MaybeAbsent = "source";

/** The spec's own type: a generated person may know only a country, or no place at all. */
export type PersonLocation = Schemas["PersonLocation"];
export type Position = Filled<Schemas["Position"]>;
export type Education = Filled<Schemas["Education"]>;
export type Certification = Filled<Schemas["Certification"]>;
export type Codehost = NonNullable<Filled<Schemas["Codehost"]>>;
export type Social = NonNullable<Filled<Schemas["Social"]>>;
export type ExploringReason = Filled<Schemas["ExploringReason"]>;
export type ExploringEvidence = Filled<Schemas["ExploringEvidence"], MaybeAbsent>;

/** Match metadata: the spec's own types (every key optional: each read names its own). */
export type Match = Schemas["Match"];
export type MatchRole = Schemas["MatchRole"];

/** A person as the graph holds it: every key of the spec's Person filled but its place, and the answer's match. */
export type Person = Filled<Omit<Schemas["Person"], "location" | "match">, MaybeAbsent> & {
  location: PersonLocation;
  match: Match;
};

export type CompactPerson = Schemas["CompactPerson"];

/**
 * A company of the graph: its key and profile URL as the orbit shows them, its name, and its web domain
 * (the reference matches companies by domain but shows no company resource).
 */
export type Company = Pick<Schemas["CompanyOrbit"]["company"], "key" | "network_url"> & {
  name: string;
  domain: string | null;
};
