/**
 * Recruiter-style natural language for GET /people `nl`. A documented set of phrases becomes filters
 * (see NL_PHRASES and the README); the remaining words, minus filler words, become keyword text.
 */
import { CERTIFICATIONS, FAMILIES, SCHOOLS } from "../data/vocab.js";
import { CONTINENTS } from "../data/geo.js";
import type { Graph } from "../data/graph.js";
import type { EffectiveQuery } from "./search-query.js";
import { escapeRegExp } from "../data/text.js";

/** Role nouns (singular and plural) to role families. Longer phrases are tried first. */
const ROLE_NOUNS: Record<string, string> = {
  "machine learning engineer": "data",
  "ml engineer": "data",
  "data scientist": "data",
  "data engineer": "data",
  "data analyst": "data",
  "analytics engineer": "data",
  "software engineer": "engineering",
  "backend engineer": "engineering",
  "frontend engineer": "engineering",
  "full stack engineer": "engineering",
  engineer: "engineering",
  developer: "engineering",
  programmer: "engineering",
  "product designer": "design",
  "ux designer": "design",
  designer: "design",
  "product manager": "product",
  pm: "product",
  "account executive": "sales",
  salesperson: "sales",
  "sales rep": "sales",
  marketer: "marketing",
  recruiter: "recruiting",
  sourcer: "recruiting",
  "financial analyst": "finance",
  accountant: "finance",
  "customer success manager": "customer_success",
  founder: "leadership",
  cto: "leadership",
};

/** The documented phrase set (README lists the same). */
export const NL_PHRASES = [
  "open to work -> open_to_work=true",
  "between roles | between jobs -> between_roles=true",
  "exploring | exploring options | exploring opportunities -> exploring=true",
  "hireable -> codehost_hireable=true",
  "currently at <company> -> company + company_current=true",
  "ex-<company> | formerly at <company> | former <company> | who left <company> -> company + company_left_min_months_ago=1",
  "at <company> | from <company> | worked at <company> -> company",
  "in <place> | based in <place> | from <place> -> location (city, region, country or continent; 'in A or B', 'in A, B and C' and repeated cues join with ;)",
  "not in <place> | outside <place> | excluding <place> -> exclude_locations (lists as above)",
  "<role noun>(s) (engineers, data scientists, designers, product managers, recruiters, ...) -> role_family",
  "<N>+ years | N years of experience (with a role noun) -> min_role_months = N*12",
  "speaks <language> | <language>-speaking | <language> speakers -> languages",
  "skilled in <skill> | knows <skill> | with <skill> experience | with <skill> skills -> skills",
  "studied at <school> | alumni of <school> | graduated from <school> -> school",
  "certified <certification> | with <certification> certification -> certification",
] as const;

const FILLER = new Set(
  "a an the who whom are is was were with and or people person persons candidates candidate profiles profile someone anyone for of looking find show me that have has having in at to experience experienced years year".split(
    " ",
  ),
);

interface Vocab {
  companies: string;
  places: string;
  languages: string;
  skills: string;
  schools: string;
  certifications: string;
  roles: string;
}

const vocabCache = new WeakMap<Graph, Vocab>();

function alternation(values: Iterable<string>): string {
  return [...new Set([...values].map((v) => v.toLowerCase()))]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join("|");
}

function vocab(graph: Graph): Vocab {
  let v = vocabCache.get(graph);
  if (v) return v;
  const places = new Set<string>(Object.keys(CONTINENTS));
  const languages = new Set<string>();
  for (const countries of Object.values(CONTINENTS)) {
    for (const c of countries) {
      places.add(c.name);
      c.languages.forEach((l) => languages.add(l));
      for (const [city, region] of c.cities) {
        places.add(city);
        if (region) places.add(region);
      }
    }
  }
  // The graph's own texts, lower-case (every vocabulary is matched lower-case).
  for (const rec of graph.people) {
    rec.languagesLc.forEach((l) => languages.add(l));
    const loc = rec.locationLc;
    for (const p of [loc.city, loc.region, loc.country]) if (p) places.add(p);
  }
  v = {
    companies: alternation(graph.companies.map((c) => c.name)),
    places: alternation(places),
    languages: alternation(languages),
    skills: alternation(Object.values(FAMILIES).flatMap((f) => f.skills)),
    schools: alternation([...SCHOOLS, ...graph.people.flatMap((r) => r.schoolsLc.filter(Boolean))]),
    certifications: alternation(CERTIFICATIONS.map(([name]) => name)),
    roles: alternation(Object.keys(ROLE_NOUNS).flatMap((n) => [n, `${n}s`])),
  };
  vocabCache.set(graph, v);
  return v;
}

/** Canonical spelling of a matched vocabulary value (the graph's own capitalization). */
function canonical(values: Iterable<string>, matched: string): string {
  for (const v of values) if (v.toLowerCase() === matched) return v;
  return matched;
}

export function parseNl(text: string, graph: Graph): EffectiveQuery {
  const v = vocab(graph);
  let rest = ` ${text.toLowerCase().replace(/\s+/g, " ")} `;
  const out: EffectiveQuery = {};
  const places: string[] = [];
  const excluded: string[] = [];
  const languages: string[] = [];
  const skills: string[] = [];

  const take = (pattern: string, onMatch: (m: RegExpExecArray) => void) => {
    const re = new RegExp(`(?<=[\\s,.;(])(?:${pattern})(?=[\\s,.;)!?])`, "g");
    rest = rest.replace(re, (...args) => {
      onMatch(args as unknown as RegExpExecArray);
      return " ";
    });
  };
  const companyName = (m: string) =>
    canonical(
      graph.companies.map((c) => c.name),
      m,
    );
  const placeName = (m: string) => m.replace(/\b\p{L}/gu, (c) => c.toUpperCase());

  take("open to work|open-to-work", () => (out.open_to_work = true));
  take("between (?:roles|jobs)", () => (out.between_roles = true));
  take("exploring(?: (?:new )?(?:options|opportunities|roles))?", () => (out.exploring = true));
  take("hireable", () => (out.codehost_hireable = true));
  take(
    `currently (?:at|with) (${v.companies})`,
    (m) => ((out.company = companyName(m[1]!)), (out.company_current = true)),
  );
  take(
    `(?:ex-|formerly at |former |who left |previously at )(${v.companies})`,
    (m) => ((out.company = companyName(m[1]!)), (out.company_left_min_months_ago = 1)),
  );
  take(`(?:worked at|at|from|with) (${v.companies})`, (m) => (out.company = companyName(m[1]!)));
  // "in Berlin or Munich", "outside Germany, France and Spain": a list of places after one cue.
  const placeList = `(?:${v.places})(?:(?:,? or |,? and |, )(?:${v.places}))*`;
  const splitPlaces = (list: string) => list.split(/,? or |,? and |, /).map(placeName);
  take(`(?:not in|outside(?: of)?|excluding) (${placeList})`, (m) => excluded.push(...splitPlaces(m[1]!)));
  take(`(?:based in|located in|living in|in|from) (${placeList})`, (m) => places.push(...splitPlaces(m[1]!)));
  take(`(?:speaks|speaking|fluent in) (${v.languages})|(${v.languages})[- ](?:speaking|speakers?)`, (m) =>
    languages.push(canonical([m[1] ?? m[2]!], m[1] ?? m[2]!)),
  );
  take(
    `(?:skilled in|knows|know|with) (${v.skills})(?: (?:experience|skills))?|(?:experience (?:in|with)) (${v.skills})`,
    (m) => skills.push(m[1] ?? m[2]!),
  );
  take(`(?:studied at|alumni of|alumnus of|graduated from|went to) (${v.schools})`, (m) => (out.school = m[1]!));
  take(
    `certified (${v.certifications})|(?:with (?:an? )?)?(${v.certifications}) certification`,
    (m) => (out.certification = m[1] ?? m[2]!),
  );
  let years: number | null = null;
  take("(\\d{1,2})\\+? ?(?:years?|yrs?)(?: of experience)?", (m) => (years = Number(m[1])));
  take(`(${v.roles})`, (m) => {
    const noun = m[1]!.replace(/s$/, "");
    out.role_family ??= ROLE_NOUNS[noun] ?? ROLE_NOUNS[m[1]!];
  });
  if (years !== null && out.role_family) out.min_role_months = Math.min(600, years * 12);
  if (places.length) out.location = places.join(";");
  if (excluded.length) out.exclude_locations = excluded.join(";");
  if (languages.length) out.languages = languages.map((l) => l[0]!.toUpperCase() + l.slice(1)).join(";");
  if (skills.length) out.skills = skills.join(";");

  const words = rest.split(/[^\p{L}\p{N}+#-]+/u).filter((w) => w && !FILLER.has(w) && w !== "-");
  if (words.length) out.keywords = words.join(" ");
  return out;
}
