/**
 * Profile synthesis on the generator's vocabularies: names, places, titles and profile texts for people and
 * changes the seeded graph does not hold. The graph generator draws its names here; the stateful side draws
 * off-graph profiles (Target discovery) and profile changes (event diffs) here, so every invented profile
 * comes from one vocabulary and one PRNG discipline (the caller owns and seeds the Prng).
 */
import { COUNTRIES, type CountryInfo } from "./geo.js";
import type { LowerLocation } from "./graph.js";
import type { Prng } from "./prng.js";
import { EXPLORING_CUES, FAMILIES, NAMES } from "./vocab.js";

/** A first and last name from the country's name pool (first drawn first). */
export function pickName(rng: Prng, country: CountryInfo): { first: string; last: string } {
  const pool = NAMES[country.names];
  return { first: rng.pick(pool.first), last: rng.pick(pool.last) };
}

export interface SyntheticPerson {
  fullName: string;
  city: string;
  region: string | null;
  country: string;
}

/** Every city of the vocabulary with its country, and its location in lower case (what place filters read). */
const ALL_CITIES = COUNTRIES.flatMap((country) =>
  country.cities.map(([city, region]) => ({
    country,
    city,
    region,
    lower: { city: city.toLowerCase(), region: region?.toLowerCase() ?? null, country: country.name.toLowerCase() },
  })),
);

/** Each country's cities, as ALL_CITIES lists them. */
const CITIES_BY_COUNTRY = COUNTRIES.map((country) => ALL_CITIES.filter((c) => c.country === country));

/**
 * A person drawn as country, city, then name: anywhere in the world, or in a city `within` accepts (a Target's
 * places); anywhere when no city of the vocabulary is accepted.
 */
export function synthesizePerson(rng: Prng, within?: (place: LowerLocation) => boolean): SyntheticPerson {
  const cities = within ? ALL_CITIES.filter((c) => within(c.lower)) : [];
  const { country, city, region } = rng.pick(cities.length > 0 ? cities : rng.pick(CITIES_BY_COUNTRY));
  const { first, last } = pickName(rng, country);
  return { fullName: `${first} ${last}`, city, region, country: country.name };
}

/** Every family's job titles, in vocabulary order. */
export const ALL_TITLES: readonly string[] = Object.values(FAMILIES).flatMap((f) => f.titles);

/** The job titles of a role family, or undefined for a family the vocabulary does not know. */
export const familyTitles = (family: string): readonly string[] | undefined => FAMILIES[family]?.titles;

const ABOUTS = [
  "Building reliable systems and the teams behind them.",
  "Curious about data, people and the products in between.",
  ...EXPLORING_CUES.filter(([field]) => field === "about").map(([, , after]) => after),
];
const ROLE_DESCRIPTIONS = [
  "Own the roadmap and delivery for the core platform.",
  "Lead a cross-functional team shipping customer-facing features.",
  ...EXPLORING_CUES.filter(([field]) => field === "role_description").map(([, , after]) => after),
];
const HEADLINE_SUFFIXES = [
  "Open to new opportunities",
  "Exploring platform roles",
  "Independent consultant",
  "Hiring!",
];

/** A changed headline: the current one (or the title, or a vocabulary title) with a new suffix; never `before`. */
export function synthesizeHeadline(rng: Prng, before: string | null, title: string | null): string {
  const base =
    (before ?? title ?? rng.pick(Object.values(FAMILIES)).titles[0] ?? "Professional").split(" | ")[0] ??
    "Professional";
  const after = `${base} | ${rng.pick(HEADLINE_SUFFIXES)}`;
  return after === before ? base : after;
}

/** A new about section or role description, different from `before`. */
export function synthesizeProfileText(rng: Prng, field: "about" | "role_description", before: string | null): string {
  return rng.pick((field === "about" ? ABOUTS : ROLE_DESCRIPTIONS).filter((s) => s !== before));
}
