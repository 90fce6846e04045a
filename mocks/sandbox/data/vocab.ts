/** Vocabulary of the generated graph (names, role families, titles, skills, companies, schools, certifications). */
import type { NamePool } from "./geo.js";

export const NAMES: Record<NamePool, { first: readonly string[]; last: readonly string[] }> = {
  europe_west: {
    first: ["Jonas", "Lena", "Lukas", "Mia", "Felix", "Emma", "Noah", "Sophie", "Elias", "Hannah", "Louis", "Chloé", "Lars", "Ingrid", "Daan", "Sanne", "Matteo", "Clara", "Julien", "Astrid"],
    last: ["Weber", "Schneider", "Fischer", "Becker", "Hoffmann", "Dubois", "Moreau", "Laurent", "de Vries", "Jansen", "Bakker", "Lindqvist", "Andersson", "Keller", "Brunner", "Meyer", "Wagner", "Lefebvre", "Visser", "Nilsson"],
  },
  europe_east: {
    first: ["Piotr", "Anna", "Tomasz", "Katarzyna", "Olena", "Andriy", "Marta", "Pavel", "Iryna", "Jakub", "Zofia", "Dmytro"],
    last: ["Kowalski", "Nowak", "Wiśniewska", "Shevchenko", "Kovalenko", "Zielinski", "Bondarenko", "Lewandowski", "Mazur", "Tkachenko"],
  },
  anglo: {
    first: ["James", "Olivia", "Liam", "Ava", "Ethan", "Grace", "Henry", "Chloe", "Jack", "Emily", "Samuel", "Isla", "Owen", "Harper", "Caleb", "Ruby", "Nathan", "Zoe", "Ryan", "Megan"],
    last: ["Smith", "Johnson", "Brown", "Taylor", "Walsh", "Murphy", "Campbell", "Clarke", "Bennett", "Hughes", "Carter", "Mitchell", "Reid", "Foster", "Gallagher", "Thompson", "Wright", "Kelly", "Morgan", "Price"],
  },
  latin: {
    first: ["Sofía", "Mateo", "Valentina", "Santiago", "Lucía", "Diego", "Camila", "Gabriel", "Isabela", "João", "Beatriz", "Rafael", "Giulia", "Marco", "Inês", "Tiago"],
    last: ["García", "Rodríguez", "Martínez", "Silva", "Santos", "Oliveira", "Fernández", "López", "Gómez", "Pereira", "Costa", "Rossi", "Romano", "Herrera", "Castro", "Almeida"],
  },
  south_asia: {
    first: ["Priya", "Arjun", "Ananya", "Rohan", "Kavya", "Vikram", "Divya", "Aditya", "Meera", "Karthik", "Sneha", "Rahul", "Nisha", "Siddharth"],
    last: ["Raman", "Sharma", "Iyer", "Patel", "Reddy", "Nair", "Gupta", "Krishnan", "Mehta", "Rao", "Menon", "Chatterjee"],
  },
  east_asia: {
    first: ["Wei", "Yuki", "Haruto", "Mei", "Kenji", "Lin", "Sakura", "Jun", "Minh", "Linh", "Hiroshi", "Xin"],
    last: ["Tan", "Tanaka", "Sato", "Nguyen", "Lim", "Chen", "Suzuki", "Tran", "Wong", "Yamamoto", "Lee", "Pham"],
  },
  africa: {
    first: ["Amara", "Chidi", "Ngozi", "Kwame", "Wanjiru", "Tendai", "Thabo", "Adaeze", "Kofi", "Zanele", "Emeka", "Akosua"],
    last: ["Okafor", "Adeyemi", "Mensah", "Kamau", "Otieno", "Nkosi", "Eze", "Boateng", "Ndlovu", "Mwangi", "Okonkwo", "Asante"],
  },
  middle_east: {
    first: ["Omar", "Layla", "Yousef", "Noa", "Karim", "Yasmin", "Amir", "Tamar", "Hassan", "Dana", "Tariq", "Maya"],
    last: ["Haddad", "Mansour", "Cohen", "Levi", "Khalil", "Farouk", "Mizrahi", "Nasser", "Saleh", "Katz", "Aziz", "Barak"],
  },
};

export interface FamilyInfo {
  titles: readonly string[];
  skills: readonly string[];
  /** Share of generated people (integer weight). */
  weight: number;
}

export const FAMILIES: Record<string, FamilyInfo> = {
  engineering: {
    weight: 30,
    titles: ["Software Engineer", "Backend Engineer", "Frontend Engineer", "Full Stack Engineer", "Site Reliability Engineer", "Mobile Engineer", "Platform Engineer", "Engineering Manager"],
    skills: ["TypeScript", "JavaScript", "Go", "Rust", "Python", "Java", "Kotlin", "React", "Node.js", "PostgreSQL", "Kubernetes", "Docker", "AWS", "GraphQL", "Terraform", "Distributed Systems", "Swift", "C++"],
  },
  data: {
    weight: 12,
    titles: ["Data Scientist", "Data Engineer", "Machine Learning Engineer", "Data Analyst", "Analytics Engineer"],
    skills: ["Python", "SQL", "Machine Learning", "PyTorch", "TensorFlow", "Spark", "dbt", "Airflow", "Statistics", "Pandas", "Snowflake", "Deep Learning", "NLP"],
  },
  design: {
    weight: 7,
    titles: ["Product Designer", "UX Designer", "UX Researcher", "Visual Designer"],
    skills: ["Figma", "User Research", "Prototyping", "Design Systems", "Interaction Design", "Usability Testing", "Illustration", "Accessibility"],
  },
  product: {
    weight: 8,
    titles: ["Product Manager", "Technical Product Manager", "Product Owner", "Group Product Manager"],
    skills: ["Product Strategy", "Roadmapping", "User Research", "Agile", "A/B Testing", "SQL", "Stakeholder Management", "Product Discovery"],
  },
  sales: {
    weight: 10,
    titles: ["Account Executive", "Sales Development Representative", "Sales Manager", "Enterprise Account Executive"],
    skills: ["Salesforce", "Negotiation", "B2B Sales", "Lead Generation", "Account Management", "SaaS", "Cold Calling", "Pipeline Management"],
  },
  marketing: {
    weight: 8,
    titles: ["Growth Marketer", "Content Marketing Manager", "Product Marketing Manager", "Brand Manager"],
    skills: ["SEO", "Content Strategy", "Google Analytics", "Copywriting", "Marketing Automation", "Brand Strategy", "Paid Social", "HubSpot"],
  },
  recruiting: {
    weight: 6,
    titles: ["Technical Recruiter", "Talent Acquisition Partner", "Sourcer", "Recruiting Coordinator"],
    skills: ["Technical Recruiting", "Sourcing", "Employer Branding", "Interviewing", "Boolean Search", "Talent Acquisition", "ATS"],
  },
  operations: {
    weight: 6,
    titles: ["Operations Manager", "Business Operations Analyst", "Program Manager", "Chief of Staff"],
    skills: ["Process Improvement", "Project Management", "Excel", "Supply Chain", "Lean", "Vendor Management", "OKRs"],
  },
  finance: {
    weight: 5,
    titles: ["Financial Analyst", "Controller", "FP&A Manager", "Accountant"],
    skills: ["Financial Modeling", "Excel", "Accounting", "Forecasting", "IFRS", "Budgeting", "SAP"],
  },
  customer_success: {
    weight: 5,
    titles: ["Customer Success Manager", "Support Engineer", "Account Manager", "Implementation Consultant"],
    skills: ["Customer Success", "Zendesk", "Onboarding", "Account Management", "SaaS", "Churn Reduction", "Training"],
  },
  leadership: {
    weight: 3,
    titles: ["CTO", "VP Engineering", "Head of Product", "Founder", "CEO", "Head of Data"],
    skills: ["Leadership", "Strategy", "Fundraising", "Team Building", "Hiring", "Board Relations"],
  },
};

export const FAMILY_NAMES = Object.keys(FAMILIES);

/** Seniority prefix by years of experience at the position's start. */
export function seniorityPrefix(years: number, roll: number): string {
  if (years < 2) return roll < 50 ? "Junior " : "";
  if (years < 5) return "";
  if (years < 9) return roll < 70 ? "Senior " : "";
  return roll < 40 ? "Staff " : roll < 60 ? "Principal " : roll < 80 ? "Lead " : "Senior ";
}

export const SIDE_ROLES = ["Advisor", "Board Member", "Mentor", "Angel Investor", "Co-organizer"] as const;

export const COMPANY_PREFIXES = [
  "Northwind", "Blue Harbor", "Silverline", "Redwood", "Brightpath", "Quantum Leaf", "Ironbridge", "Cobalt", "Lumen", "Evergreen",
  "Tidewater", "Skyforge", "Helix", "Orchard", "Meridian", "Granite", "Aurora", "Pinecrest", "Vertex", "Driftwood",
  "Starling", "Harborview", "Copperfield", "Sunbeam", "Nimbus", "Fjord", "Kestrel", "Solstice", "Juniper", "Marble",
  "Ember", "Atlas", "Crescent", "Willow", "Summit", "Bluebird", "Riverstone", "Polaris", "Sable", "Cinder",
] as const;

export const COMPANY_SUFFIXES = ["Labs", "Systems", "Analytics", "Health", "Logistics", "Robotics", "Software", "Bank", "Energy", "Studios", "Networks", "Foods"] as const;

/** Positions outside the company graph (no company URL). */
export const OFF_GRAPH_EMPLOYERS = ["Freelance", "Self-employed", "Stealth Startup"] as const;

export const SCHOOLS = [
  "Northbridge University", "Lakeside Institute of Technology", "University of Eastmoor", "Westfield Polytechnic", "Royal Harbor University",
  "Summit State University", "Riverside College of Engineering", "Granite Valley University", "Kingsgate School of Business", "Coastline University",
  "Highland Technical University", "Southport Institute", "University of Ashford", "Meridian Business School", "Pacific Rim University",
  "Old Quarter University", "Central Polytechnic", "Silver Coast University", "Ironwood College", "Bayview Design Academy",
] as const;

export const DEGREES = ["BSc", "MSc", "BA", "MA", "MBA", "PhD", "BEng", "MEng"] as const;

export const FIELDS: Record<string, readonly string[]> = {
  engineering: ["Computer Science", "Software Engineering", "Electrical Engineering", "Mathematics"],
  data: ["Statistics", "Computer Science", "Mathematics", "Physics"],
  design: ["Interaction Design", "Graphic Design", "Human-Computer Interaction", "Psychology"],
  product: ["Business Administration", "Computer Science", "Economics"],
  sales: ["Business Administration", "Marketing", "Communications"],
  marketing: ["Marketing", "Communications", "Journalism"],
  recruiting: ["Psychology", "Human Resources", "Sociology"],
  operations: ["Industrial Engineering", "Business Administration", "Economics"],
  finance: ["Finance", "Accounting", "Economics"],
  customer_success: ["Communications", "Business Administration", "Psychology"],
  leadership: ["Business Administration", "Computer Science", "Economics"],
};

/** [name, authority, families it fits] */
export const CERTIFICATIONS: readonly (readonly [string, string, readonly string[]])[] = [
  ["Cloud Solutions Architect Associate", "Skyline Cloud", ["engineering", "data"]],
  ["Cloud Developer Professional", "Skyline Cloud", ["engineering"]],
  ["Certified Kubernetes Operator", "Container Foundation Institute", ["engineering"]],
  ["Professional Data Engineer", "Skyline Cloud", ["data"]],
  ["Machine Learning Specialist", "Nimbus Academy", ["data"]],
  ["Certified Scrum Master", "Agile Practice Guild", ["product", "engineering", "operations"]],
  ["Product Owner Professional", "Agile Practice Guild", ["product"]],
  ["Project Management Professional", "Institute of Project Practice", ["operations", "product"]],
  ["UX Certification", "Interaction Design Council", ["design"]],
  ["Accessibility Core Competencies", "Digital Access Association", ["design", "engineering"]],
  ["Chartered Financial Analyst Level I", "Financial Analysts Board", ["finance"]],
  ["Certified Public Accountant", "Board of Accountancy", ["finance"]],
  ["Inbound Marketing", "Growth School", ["marketing", "sales"]],
  ["Certified Sales Professional", "Sales Excellence Council", ["sales", "customer_success"]],
  ["Certified Talent Sourcer", "Recruiting Guild", ["recruiting"]],
  ["Security Fundamentals", "Secure Systems Consortium", ["engineering", "operations"]],
];

export const DQ_FLAGS = ["possible_duplicate", "name_mismatch", "stale_source"] as const;

export const EXPLORING_CUES: readonly (readonly [field: "headline" | "about" | "role_description", label: string, after: string])[] = [
  ["headline", "Headline mentions new opportunities", "Open to new opportunities"],
  ["headline", "Headline changed to a freelance framing", "Independent consultant"],
  ["about", "About section mentions a next chapter", "Excited about what comes next"],
  ["about", "About section mentions a career break", "Taking time to explore my next role"],
  ["role_description", "Role description written in the past tense", "Led the platform team until recently"],
  ["role_description", "Role description mentions a transition", "Transitioning out of this role"],
];
