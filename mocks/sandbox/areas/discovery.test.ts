/**
 * What a people Target discovers on the default generated graph: people as they are now. The README's
 * "Backend engineers in Berlin" Target admits only backend engineers in Berlin (in and off the graph), and a
 * role family admits only people whose current position is in it.
 */
import { describe, expect, it } from "vitest";
import { generatedGraph } from "../data/generate.js";
import { countriesOf } from "../data/geo.js";
import { DEFAULT_OPTIONS } from "../contract/options.js";
import { normalizeProfileUrl } from "../data/urls.js";
import { loadSpec } from "../../../contract-core/index.js";
import { QUERY_KEYS } from "../domain/filters.js";
import { profileKeywordTokens } from "../domain/search.js";
import { hasWordPrefix } from "../data/text.js";
import {
  mapPeopleFilters,
  peopleCandidates,
  TARGET_FILTER_MAPPING,
  type Candidate,
  type FilterMapping,
} from "./discovery.js";

const graph = generatedGraph(DEFAULT_OPTIONS);
const SALT = "5f1c2a4e-8b0d-4c9a-9e21-3b7d6f0a1c55";

function discover(input: string, app: Record<string, unknown>): Candidate[] {
  return peopleCandidates(graph, mapPeopleFilters(input, app, {}), SALT, 4000);
}

/** The current titles of a graph candidate (its enriched headline for an off-graph one). */
function currentTitles(c: Candidate): string[] {
  const rec = graph.byUrl.get(normalizeProfileUrl(c.network_url)!);
  if (!rec) return [c.enrichment.profile.headline ?? ""];
  return rec.stints.filter((s) => s.current).map((s) => s.title ?? "");
}

describe("people Target discovery", () => {
  it('"Backend engineers in Berlin" admits only backend engineers in Berlin', () => {
    const found = discover("Backend engineers in Berlin", { keywords: "backend engineer", location: "Berlin" });
    expect(found.filter((c) => c.in_graph).length).toBeGreaterThan(0);
    expect(found.some((c) => !c.in_graph)).toBe(true);
    for (const c of found) {
      expect(c.enrichment.profile.location, c.key).toMatch(/^Berlin\b/);
      expect(
        currentTitles(c).some((t) => /\bbackend engineer/i.test(t)),
        c.key,
      ).toBe(true);
    }
  });

  it("a role family admits people whose current position is in it, in the Target's places", () => {
    const found = discover("Data", { roles: [{ family: "data" }], location: "Europe" });
    expect(found.filter((c) => c.in_graph).length).toBeGreaterThan(0);
    for (const c of found.filter((x) => x.in_graph)) {
      const rec = graph.byUrl.get(normalizeProfileUrl(c.network_url)!)!;
      expect(
        rec.stints.some((s) => s.current && s.familyLc === "data"),
        c.key,
      ).toBe(true);
    }
    const offGraph = found.filter((x) => !x.in_graph);
    expect(offGraph.length).toBeGreaterThan(0);
    for (const c of offGraph) {
      const country = c.enrichment.profile.location!.split(", ").at(-1)!;
      expect(countriesOf("Europe"), c.key).toContain(country.toLowerCase());
    }
  });
});

describe("the Target filter mapping", () => {
  it("off-graph members honour the provider's seniorities and current employers, as graph members do", () => {
    const junior = peopleCandidates(graph, mapPeopleFilters("", {}, { seniorities: ["junior"] }), SALT, 4000);
    expect(junior.filter((c) => !c.in_graph).length).toBeGreaterThan(0);
    for (const c of junior)
      expect(
        currentTitles(c).some((t) => /junior/i.test(t)),
        c.network_url,
      ).toBe(true);
    const employer = junior.find((c) => c.in_graph && c.stub.current_company)!.stub.current_company!;
    const filters = mapPeopleFilters("", {}, { seniorities: ["junior"], company_ids: [employer] });
    const there = peopleCandidates(graph, filters, SALT, 4000).filter((c) => !c.in_graph);
    expect(there.length).toBeGreaterThan(0);
    for (const c of there) expect(c.enrichment.profile.current_company).toBe(employer);
  });

  it("off-graph members carry the Target's keywords in their profile, as graph members must", () => {
    const found = discover("Senior engineers", { keywords: "senior python", roles: [{ family: "data" }] });
    const offGraph = found.filter((c) => !c.in_graph);
    expect(offGraph.length).toBeGreaterThan(0);
    for (const c of offGraph) {
      const p = c.enrichment.profile;
      const text = [p.full_name, p.headline, p.current_company, p.location].join(" | ").toLowerCase();
      for (const token of profileKeywordTokens("senior python"))
        expect(hasWordPrefix(text, token), `${c.network_url}: ${p.headline}`).toBe(true);
    }
  });

  it("names every app_query key of the spec, and every filter of the search table", () => {
    const spec = loadSpec() as unknown as { components: { schemas: { AppQuery: { properties: object } } } };
    const named = new Set(
      Object.values(TARGET_FILTER_MAPPING).flatMap((m: FilterMapping) => ("appQuery" in m ? m.appQuery : [])),
    );
    expect([...named].sort()).toEqual(Object.keys(spec.components.schemas.AppQuery.properties).sort());
    expect(Object.keys(TARGET_FILTER_MAPPING).sort()).toEqual([...QUERY_KEYS].sort());
  });
});
