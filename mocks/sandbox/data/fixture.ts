/**
 * A tiny hand-made graph (12 people, 4 companies) with hand-checked answers for the search-filter tests.
 * Its "today" is 2026-11-01; tenure_months are derived by buildGraph from the dates.
 * Order matters: search results without keywords come back in this order.
 */
import { profileUrl, companyUrl } from "./urls.js";
import { buildGraph, type Graph, type GraphInput } from "./graph.js";
import type { Certification, Company, Person, Position } from "./resources.js";

const COMPANIES: Company[] = [
  {
    key: "northwind-labs",
    name: "Northwind Labs",
    network_url: companyUrl("northwind-labs"),
    domain: "northwindlabs.example",
  },
  {
    key: "contoso-robotics",
    name: "Contoso Robotics",
    network_url: companyUrl("contoso-robotics"),
    domain: "contoso.example",
  },
  { key: "fabrikam", name: "Fabrikam", network_url: companyUrl("fabrikam"), domain: "fabrikam.example" },
  { key: "blue-harbor-bank", name: "Blue Harbor Bank", network_url: null, domain: null },
];

const company = (key: string) => COMPANIES.find((c) => c.key === key)!;

function pos(
  key: string | null,
  title: string,
  family: string | null,
  started: string,
  ended: string | null,
): Position {
  const c = key ? company(key) : null;
  return {
    company: c ? c.name : "Freelance",
    company_url: c ? c.network_url : null,
    title,
    started_at: started,
    ended_at: ended,
    tenure_months: null,
    is_current: ended === null,
    role_family: family,
  };
}

const cert = (name: string, authority: string | null, issued_at: string | null): Certification => ({
  name,
  authority,
  issued_at,
});

function person(slug: string | null, full_name: string, p: Partial<Person> & { urlSlug?: string }): Person {
  const { urlSlug, ...rest } = p;
  return {
    slug,
    full_name,
    headline: null,
    network_url: profileUrl(urlSlug ?? slug!),
    profile_picture_url: null,
    location: {},
    is_open_to_work: false,
    is_between_roles: false,
    between_roles_since: null,
    is_exploring: false,
    exploring_since: null,
    exploring_reasons: [],
    exploring_interpretation: null,
    connections_count: null,
    followers_count: null,
    last_enriched_at: null,
    dq_flags: [],
    codehost: null,
    social: null,
    positions: [],
    education: [],
    skills: [],
    languages: [],
    certifications: [],
    match: {},
    ...rest,
  };
}

const loc = (city: string | null, region: string | null, country: string | null) => ({ city, region, country });
const school = (name: string) => ({
  school: name,
  degree: "BSc",
  field: null,
  started_at: "2008",
  ended_at: "2012",
  school_url: null,
});
const codehost = (hireable: boolean | null) => ({
  login: "octo",
  candidate_login: null,
  url: "https://code.example.com/octo",
  confidence: "high",
  score: 0.9,
  signals: ["name"],
  hireable,
  blog: null,
  twitter: null,
  reconciled_at: "2026-10-01T00:00:00.000Z",
});

const PEOPLE: Person[] = [
  person("priya-raman", "Priya Raman", {
    headline: "Staff Backend Engineer at Northwind Labs",
    location: loc("Berlin", "Berlin", "Germany"),
    positions: [
      pos("northwind-labs", "Staff Backend Engineer", "engineering", "2021-03", null),
      pos("contoso-robotics", "Backend Engineer", "engineering", "2017-01", "2021-02"),
    ],
    education: [school("Lakeside Institute of Technology")],
    skills: ["Go", "Kubernetes", "PostgreSQL"],
    languages: ["English", "Hindi", "German"],
    certifications: [cert("Certified Kubernetes Administrator", "Cloud Native Computing Foundation", "2022")],
    codehost: codehost(true),
    exploring_reasons: [
      {
        field: "headline",
        label: "Headline mentions new opportunities",
        before: "Backend Engineer",
        after: "Staff Backend Engineer | exploring",
        seen_at: "2026-10-12T08:30:00.000Z",
      },
    ],
    exploring_interpretation: {
      model: "explore-assessor",
      version: "2026-10",
      segments: [{ text: "The headline now mentions exploring.", evidence_indices: [0] }],
      evidence: [
        {
          field: "headline",
          label: "Headline changed",
          before: "Backend Engineer",
          after: "Staff Backend Engineer | exploring",
          seen_at: "2026-10-12T08:30:00.000Z",
          quote: "exploring",
          side: "after",
        },
      ],
    },
  }),
  person("jonas-weber", "Jonas Weber", {
    headline: "Engineering Manager at Northwind Labs",
    location: loc("Hamburg", "Hamburg", "Germany"),
    positions: [
      pos("northwind-labs", "Engineering Manager", "engineering_management", "2019-09", null),
      pos("fabrikam", "Tech Lead", "engineering", "2016", "2019"),
    ],
    skills: ["Leadership", "Go"],
    languages: ["German", "English"],
    is_open_to_work: null,
  }),
  person("amara-okafor", "Amara Okafor", {
    headline: "Senior Product Manager at Fabrikam",
    location: loc("Lagos", "Lagos", "Nigeria"),
    positions: [
      pos("northwind-labs", "Product Manager", "product", "2018-05", "2023-12"),
      pos("fabrikam", "Senior Product Manager", "product", "2024-01", null),
    ],
    languages: ["English", "Yoruba"],
    certifications: [cert("Certified Scrum Product Owner", null, null)],
    is_open_to_work: true,
  }),
  person("mei-chen", "Mei Chen", {
    headline: "Data Scientist at Contoso Robotics",
    location: loc("Singapore", null, "Singapore"),
    positions: [
      pos("contoso-robotics", "Data Scientist", "data", "2020-06", null),
      pos("northwind-labs", "Data Analyst", "data", "2018-01", "2020-05"),
    ],
    education: [school("Northbridge University")],
    skills: ["Python", "SQL", "Machine Learning"],
    languages: ["English", "Mandarin"],
    codehost: codehost(false),
  }),
  person("lucas-moreau", "Lucas Moreau", {
    headline: "Platform Engineer | Open to new opportunities",
    location: loc("Paris", "Île-de-France", "France"),
    positions: [pos("contoso-robotics", "Platform Engineer", "engineering", "2020-10", "2026-03")],
    skills: ["Kubernetes", "Go", "Terraform"],
    languages: ["French", "English"],
    is_open_to_work: true,
  }),
  person("sofia-garcia", "Sofía García", {
    headline: "Technical Recruiter at Fabrikam",
    location: loc("Madrid", "Community of Madrid", "Spain"),
    positions: [pos("fabrikam", "Technical Recruiter", "recruiting", "2022-02-14", null)],
    languages: ["Spanish"],
    certifications: [cert("Certified Talent Sourcer", "Recruiting Guild", "2023-05")],
  }),
  person("kwame-mensah", "Kwame Mensah", {
    headline: "Finance Manager at Northwind Labs",
    location: loc("Accra", "Greater Accra", "Ghana"),
    positions: [
      pos("blue-harbor-bank", "Financial Analyst", "finance", "2015", "2019"),
      pos("northwind-labs", "Finance Manager", "finance", "2019", null),
    ],
    languages: ["English"],
  }),
  person("olivia-smith", "Olivia Smith", {
    headline: "Freelance Software Engineer",
    location: loc("New York", "New York", "United States"),
    positions: [
      pos("northwind-labs", "Senior Software Engineer", "engineering", "2016-01", "2020-12"),
      pos(null, "Software Engineer", "engineering", "2021-01", null),
      // A duplicate source row of the Northwind position: collapsed in the dossier.
      pos("northwind-labs", "Senior Software Engineer", "engineering", "2016", "2020"),
    ],
    skills: ["TypeScript", "React"],
    languages: ["English"],
  }),
  person("dana-katz", "Dana Katz", {
    headline: "Software Engineer at Northwind Labs",
    location: loc("Tel Aviv", "Tel Aviv District", "Israel"),
    positions: [pos("northwind-labs", "Software Engineer", "engineering", "2022-01", null)],
    skills: ["Go"],
    languages: ["Hebrew", "English"],
    dq_flags: ["possible_duplicate"],
  }),
  person("ryan-kelly", "Ryan Kelly", {
    location: loc("Dublin", "Leinster", "Ireland"),
    education: [school("Northbridge University")],
    languages: ["English"],
  }),
  person(null, "Ana Silva", {
    urlSlug: "ana-silva-1a2b",
    headline: "Product Designer at Contoso Robotics",
    location: loc("São Paulo", "São Paulo", "Brazil"),
    positions: [pos("contoso-robotics", "Product Designer", "design", "2021-01", null)],
    languages: ["Portuguese"],
  }),
  person("lena-fischer", "Lena Fischer", {
    headline: "Data Engineer at Fabrikam",
    location: loc("Munich", "Bavaria", "Germany"),
    positions: [
      pos("fabrikam", "Data Engineer", "data", "2019-03", null),
      pos("contoso-robotics", "Advisor", null, "2023-01", null),
    ],
    languages: ["German", "English"],
  }),
];

export function fixtureGraphInput(): GraphInput {
  return { today: "2026-11-01", companies: COMPANIES, people: PEOPLE };
}

export function fixtureGraph(): Graph {
  return buildGraph(fixtureGraphInput());
}
