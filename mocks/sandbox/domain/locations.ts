/** Place matching: a place is a city, region, country or continent (continents expand to countries). */
import { countriesOf } from "../data/geo.js";
import type { PersonLocation } from "../data/model.js";

function partMatches(location: PersonLocation, part: string): boolean {
  const country = location.country?.toLowerCase() ?? null;
  if (location.city?.toLowerCase() === part || location.region?.toLowerCase() === part || country === part) return true;
  const countries = countriesOf(part);
  return countries !== null && country !== null && countries.includes(country);
}

/** "Berlin" or "Berlin, Germany": every comma-separated part must match the location. */
export function matchesPlace(location: PersonLocation, place: string): boolean {
  const parts = place.toLowerCase().split(",").map((s) => s.trim()).filter(Boolean);
  return parts.length > 0 && parts.every((p) => partMatches(location, p));
}

export function matchesAnyPlace(location: PersonLocation, places: readonly string[]): boolean {
  return places.some((p) => matchesPlace(location, p));
}
