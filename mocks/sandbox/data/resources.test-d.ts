/** The sandbox's resource types fit the spec's generated types, and a person carries every key the spec lists. */
import { expectTypeOf, test } from "vitest";
import type { components } from "../../../generated/schema.js";
import type { Orbit } from "../domain/companies.js";
import type { CompactPerson, Person, Position } from "./resources.js";

type Schemas = components["schemas"];
/** The keys of T that are not optional. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

test("Person, CompactPerson and the orbit fit the spec", () => {
  expectTypeOf<Person>().toExtend<Schemas["Person"]>();
  expectTypeOf<CompactPerson>().toExtend<Schemas["CompactPerson"]>();
  expectTypeOf<Orbit>().toExtend<Schemas["CompanyOrbit"]>();
});

test("every key of the spec's Person and Position is a required key of the sandbox's (a new field fails tsc)", () => {
  expectTypeOf<RequiredKeys<Person>>().toEqualTypeOf<keyof Schemas["Person"]>();
  expectTypeOf<RequiredKeys<Position>>().toEqualTypeOf<keyof Schemas["Position"]>();
});
