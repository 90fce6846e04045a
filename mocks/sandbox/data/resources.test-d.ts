/** The sandbox's resource types are assignable to the spec's generated types. */
import { expectTypeOf, test } from "vitest";
import type { components } from "../../../generated/schema.js";
import type { Orbit } from "../domain/companies.js";
import type { CompactPerson, Person } from "./resources.js";

type Schemas = components["schemas"];

test("Person, CompactPerson and the orbit fit the spec", () => {
  expectTypeOf<Person>().toExtend<Schemas["Person"]>();
  expectTypeOf<CompactPerson>().toExtend<Schemas["CompactPerson"]>();
  expectTypeOf<Orbit>().toExtend<Schemas["CompanyOrbit"]>();
});
