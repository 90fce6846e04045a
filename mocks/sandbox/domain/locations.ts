/** Place matching: a place is a city, region, country or continent (continents expand to countries). */
import { countriesOf } from "../data/geo.js";
import type { LowerLocation } from "../data/graph.js";

export type { LowerLocation };

/** "Berlin, Germany" -> every comma-separated part must match the location; places are ORed. */
export type PlaceMatcher = (location: LowerLocation) => boolean;

function partMatcher(part: string): PlaceMatcher {
  const list = countriesOf(part);
  const countries = list === null ? null : new Set(list);
  return (loc) =>
    loc.city === part ||
    loc.region === part ||
    loc.country === part ||
    (countries !== null && loc.country !== null && countries.has(loc.country));
}

/** Compiles `;`-parsed places; the matcher is true when any place matches. */
export function compilePlaces(places: readonly string[]): PlaceMatcher {
  const compiled = places
    .map((place) =>
      place
        .toLowerCase()
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
        .map(partMatcher),
    )
    .filter((parts) => parts.length > 0);
  return (loc) => compiled.some((parts) => parts.every((m) => m(loc)));
}
