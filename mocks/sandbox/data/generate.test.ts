/** The generated default graph: deterministic (a pinned readable sample), size, coherence of the Person fields. */
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { periodStart } from "./dates.js";
import { normalizeProfileUrl } from "./urls.js";
import { CONTINENT_NAMES, countriesOf } from "./geo.js";
import { generateGraphInput, generatedGraph } from "./generate.js";
import { Prng } from "./prng.js";

const DEFAULTS = { people: 5000, companies: 320, seed: 20261122 };
const input = generateGraphInput(DEFAULTS);
const graph = generatedGraph(DEFAULTS);
const people = graph.people.map((r) => r.person);
const sha = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");

describe("determinism", () => {
  it("the default graph is the same on every machine (a readable sample: every 500th person, the first companies)", async () => {
    // Changing the generator or its vocabulary changes the sample: review its diff, then update it with -u.
    const sample = {
      people: input.people.length,
      companies: input.companies.length,
      sampled_people: input.people.filter((_, i) => i % 500 === 0),
      first_companies: input.companies.slice(0, 3),
    };
    await expect(`${JSON.stringify(sample, null, 2)}\n`).toMatchFileSnapshot(SAMPLE);
  });

  it("two generations are identical; another seed differs", () => {
    expect(sha(generateGraphInput(DEFAULTS).people)).toBe(sha(input.people));
    expect(sha(generateGraphInput({ ...DEFAULTS, seed: 7 }).people)).not.toBe(sha(input.people));
  });

  it("the PRNG sequence is pinned (integer arithmetic only)", () => {
    const rng = new Prng(42);
    expect([rng.uint32(), rng.uint32(), rng.uint32()]).toEqual(PINNED_PRNG);
  });
});

describe("size and coherence", () => {
  it("at least 5,000 people and 300 companies by default; --people changes it", () => {
    expect(graph.people.length).toBe(5000);
    expect(graph.companies.length).toBeGreaterThanOrEqual(300);
    expect(generateGraphInput({ ...DEFAULTS, people: 50 }).people).toHaveLength(50);
  });

  it("unique slugs and profile URLs; the spec's example people work at Northwind Labs", () => {
    const slugs = people.map((p) => p.slug).filter(Boolean);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(new Set(people.map((p) => normalizeProfileUrl(p.network_url))).size).toBe(people.length);
    expect(people.some((p) => p.slug === null)).toBe(true);
    for (const slug of ["priya-raman", "jonas-weber", "amara-okafor"]) {
      const rec = graph.bySlug.get(slug)!;
      expect(rec.positions[0]).toMatchObject({ company: "Northwind Labs", is_current: true });
    }
  });

  it("positions: current and ended, three date precisions, overlapping stints, derived tenure", () => {
    const positions = people.flatMap((p) => p.positions);
    const formats = new Set(
      positions
        .flatMap((p) => [p.started_at, p.ended_at])
        .filter(Boolean)
        .map((d) => d!.length),
    );
    expect([...formats].sort()).toEqual([10, 4, 7]);
    expect(positions.some((p) => p.is_current === true)).toBe(true);
    expect(positions.some((p) => p.is_current === false && p.ended_at !== null)).toBe(true);
    const overlapping = graph.people.filter((r) => {
      const current = r.stints.filter((s) => s.current);
      return current.length > 1;
    });
    expect(overlapping.length).toBeGreaterThan(50);
    const collapsed = graph.people.filter((r) => r.positions.length < r.person.positions.length);
    expect(collapsed.length).toBeGreaterThan(50);
    const incoherent = positions.filter(
      (p) =>
        (p.started_at && p.ended_at && periodStart(p.ended_at)! < periodStart(p.started_at)!) ||
        (p.started_at && (p.ended_at || p.is_current) && !(p.tenure_months! >= 1)),
    );
    expect(incoherent).toEqual([]);
  });

  it("derived flags agree with positions", () => {
    const incoherent = people.filter((p) => {
      const current = p.positions.some((x) => x.is_current === true);
      return (
        p.is_between_roles !== (p.positions.length > 0 && !current) ||
        (!p.is_between_roles && p.between_roles_since !== null)
      );
    });
    expect(incoherent).toEqual([]);
    expect(people.filter((p) => p.is_between_roles).length).toBeGreaterThan(300);
    expect(people.filter((p) => p.positions.length === 0).length).toBeGreaterThan(20);
  });

  it("exploring: interpretation only when valid; evidence_indices point into evidence", () => {
    const exploring = people.filter((p) => p.is_exploring);
    expect(exploring.length).toBeGreaterThan(200);
    expect(people.some((p) => p.exploring_reasons.length > 0 && !p.is_exploring)).toBe(true);
    const incoherent = people.filter((p) => {
      const i = p.exploring_interpretation;
      if (p.is_exploring !== (i !== null)) return true;
      if (!i) return p.exploring_since !== null;
      const pointsOutside = i.segments.some((s) => s.evidence_indices.some((n) => n >= i.evidence.length));
      return pointsOutside || p.exploring_since !== i.evidence.map((e) => e.seen_at.slice(0, 10)).sort()[0];
    });
    expect(incoherent).toEqual([]);
  });

  it("certifications (some without authority or date), enrichments (some candidate-only), dq flags, languages", () => {
    const certs = people.flatMap((p) => p.certifications);
    expect(certs.some((c) => c.authority === null)).toBe(true);
    expect(certs.some((c) => c.issued_at === null)).toBe(true);
    expect(
      certs.every((c) => c.name.length > 0 && (c.issued_at === null || /^\d{4}(-\d{2})?$/.test(c.issued_at))),
    ).toBe(true);
    expect(people.some((p) => p.codehost?.login === null && p.codehost.candidate_login)).toBe(true);
    expect(people.some((p) => p.codehost?.login)).toBe(true);
    expect(people.some((p) => p.social?.handle === null && p.social.candidate_handle)).toBe(true);
    expect(people.filter((p) => p.dq_flags.length > 0).length).toBeGreaterThan(50);
    expect(people.some((p) => p.languages.length > 1)).toBe(true);
  });

  it("locations across every continent; location is always an object", () => {
    const continents = new Set(
      people
        .map((p) => CONTINENT_NAMES.find((c) => countriesOf(c)!.includes(p.location.country?.toLowerCase() ?? "")))
        .filter(Boolean),
    );
    expect([...continents].sort()).toEqual([...CONTINENT_NAMES].sort());
    expect(people.every((p) => typeof p.location === "object" && p.location !== null)).toBe(true);
    expect(people.some((p) => Object.keys(p.location).length === 0)).toBe(true);
  });

  it("coworker overlaps come from shared companies", () => {
    const shared = [...graph.stintsByCompany.values()].filter((list) => new Set(list.map((s) => s.record)).size > 1);
    expect(shared.length).toBeGreaterThan(250);
  });
});

/** The sample's golden file (beside the read side's golden answers). */
const SAMPLE = fileURLToPath(new URL("../testing/golden/graph/sample.json", import.meta.url));
const PINNED_PRNG = [1028872839, 2516511472, 400437680];
