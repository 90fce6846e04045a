/** Places of the generated graph: continent -> countries -> cities (with region), and spoken languages. */

export interface CountryInfo {
  name: string;
  cities: readonly (readonly [city: string, region: string | null])[];
  languages: readonly string[];
  /** Which name pool the generator draws from. */
  names: NamePool;
}

export type NamePool =
  "europe_west" | "europe_east" | "anglo" | "latin" | "south_asia" | "east_asia" | "africa" | "middle_east";

export const CONTINENTS: Record<string, readonly CountryInfo[]> = {
  Europe: [
    {
      name: "Germany",
      cities: [
        ["Berlin", "Berlin"],
        ["Munich", "Bavaria"],
        ["Hamburg", "Hamburg"],
        ["Cologne", "North Rhine-Westphalia"],
      ],
      languages: ["German"],
      names: "europe_west",
    },
    {
      name: "United Kingdom",
      cities: [
        ["London", "England"],
        ["Manchester", "England"],
        ["Edinburgh", "Scotland"],
        ["Bristol", "England"],
      ],
      languages: ["English"],
      names: "anglo",
    },
    {
      name: "France",
      cities: [
        ["Paris", "Île-de-France"],
        ["Lyon", "Auvergne-Rhône-Alpes"],
        ["Toulouse", "Occitanie"],
      ],
      languages: ["French"],
      names: "europe_west",
    },
    {
      name: "Netherlands",
      cities: [
        ["Amsterdam", "North Holland"],
        ["Rotterdam", "South Holland"],
        ["Utrecht", "Utrecht"],
      ],
      languages: ["Dutch"],
      names: "europe_west",
    },
    {
      name: "Spain",
      cities: [
        ["Madrid", "Community of Madrid"],
        ["Barcelona", "Catalonia"],
        ["Valencia", "Valencian Community"],
      ],
      languages: ["Spanish"],
      names: "latin",
    },
    {
      name: "Sweden",
      cities: [
        ["Stockholm", "Stockholm County"],
        ["Gothenburg", "Västra Götaland"],
      ],
      languages: ["Swedish"],
      names: "europe_west",
    },
    {
      name: "Poland",
      cities: [
        ["Warsaw", "Masovian"],
        ["Kraków", "Lesser Poland"],
        ["Wrocław", "Lower Silesian"],
      ],
      languages: ["Polish"],
      names: "europe_east",
    },
    {
      name: "Ireland",
      cities: [
        ["Dublin", "Leinster"],
        ["Cork", "Munster"],
      ],
      languages: ["English"],
      names: "anglo",
    },
    {
      name: "Portugal",
      cities: [
        ["Lisbon", "Lisbon"],
        ["Porto", "Porto"],
      ],
      languages: ["Portuguese"],
      names: "latin",
    },
    {
      name: "Switzerland",
      cities: [
        ["Zurich", "Zurich"],
        ["Geneva", "Geneva"],
      ],
      languages: ["German", "French"],
      names: "europe_west",
    },
    {
      name: "Italy",
      cities: [
        ["Milan", "Lombardy"],
        ["Rome", "Lazio"],
      ],
      languages: ["Italian"],
      names: "latin",
    },
    {
      name: "Ukraine",
      cities: [
        ["Kyiv", "Kyiv"],
        ["Lviv", "Lviv Oblast"],
      ],
      languages: ["Ukrainian"],
      names: "europe_east",
    },
  ],
  "North America": [
    {
      name: "United States",
      cities: [
        ["San Francisco", "California"],
        ["New York", "New York"],
        ["Austin", "Texas"],
        ["Seattle", "Washington"],
        ["Boston", "Massachusetts"],
        ["Chicago", "Illinois"],
        ["Denver", "Colorado"],
      ],
      languages: ["English"],
      names: "anglo",
    },
    {
      name: "Canada",
      cities: [
        ["Toronto", "Ontario"],
        ["Vancouver", "British Columbia"],
        ["Montreal", "Quebec"],
      ],
      languages: ["English", "French"],
      names: "anglo",
    },
    {
      name: "Mexico",
      cities: [
        ["Mexico City", "Mexico City"],
        ["Guadalajara", "Jalisco"],
        ["Monterrey", "Nuevo León"],
      ],
      languages: ["Spanish"],
      names: "latin",
    },
  ],
  "South America": [
    {
      name: "Brazil",
      cities: [
        ["São Paulo", "São Paulo"],
        ["Rio de Janeiro", "Rio de Janeiro"],
        ["Florianópolis", "Santa Catarina"],
      ],
      languages: ["Portuguese"],
      names: "latin",
    },
    {
      name: "Argentina",
      cities: [
        ["Buenos Aires", "Buenos Aires"],
        ["Córdoba", "Córdoba"],
      ],
      languages: ["Spanish"],
      names: "latin",
    },
    {
      name: "Colombia",
      cities: [
        ["Bogotá", "Bogotá"],
        ["Medellín", "Antioquia"],
      ],
      languages: ["Spanish"],
      names: "latin",
    },
    { name: "Chile", cities: [["Santiago", "Santiago Metropolitan"]], languages: ["Spanish"], names: "latin" },
  ],
  Asia: [
    {
      name: "India",
      cities: [
        ["Bengaluru", "Karnataka"],
        ["Mumbai", "Maharashtra"],
        ["Hyderabad", "Telangana"],
        ["Pune", "Maharashtra"],
      ],
      languages: ["Hindi", "English"],
      names: "south_asia",
    },
    { name: "Singapore", cities: [["Singapore", null]], languages: ["English", "Mandarin"], names: "east_asia" },
    {
      name: "Japan",
      cities: [
        ["Tokyo", "Tokyo"],
        ["Osaka", "Osaka"],
      ],
      languages: ["Japanese"],
      names: "east_asia",
    },
    {
      name: "Israel",
      cities: [
        ["Tel Aviv", "Tel Aviv District"],
        ["Haifa", "Haifa District"],
      ],
      languages: ["Hebrew"],
      names: "middle_east",
    },
    {
      name: "Vietnam",
      cities: [
        ["Ho Chi Minh City", null],
        ["Hanoi", null],
      ],
      languages: ["Vietnamese"],
      names: "east_asia",
    },
    {
      name: "United Arab Emirates",
      cities: [
        ["Dubai", "Dubai"],
        ["Abu Dhabi", "Abu Dhabi"],
      ],
      languages: ["Arabic"],
      names: "middle_east",
    },
  ],
  Africa: [
    {
      name: "Nigeria",
      cities: [
        ["Lagos", "Lagos"],
        ["Abuja", "Federal Capital Territory"],
      ],
      languages: ["English", "Yoruba"],
      names: "africa",
    },
    {
      name: "Kenya",
      cities: [
        ["Nairobi", "Nairobi County"],
        ["Mombasa", "Mombasa County"],
      ],
      languages: ["English", "Swahili"],
      names: "africa",
    },
    {
      name: "South Africa",
      cities: [
        ["Cape Town", "Western Cape"],
        ["Johannesburg", "Gauteng"],
      ],
      languages: ["English", "Afrikaans"],
      names: "africa",
    },
    {
      name: "Egypt",
      cities: [
        ["Cairo", "Cairo"],
        ["Alexandria", "Alexandria"],
      ],
      languages: ["Arabic"],
      names: "middle_east",
    },
    { name: "Ghana", cities: [["Accra", "Greater Accra"]], languages: ["English"], names: "africa" },
  ],
  Oceania: [
    {
      name: "Australia",
      cities: [
        ["Sydney", "New South Wales"],
        ["Melbourne", "Victoria"],
        ["Brisbane", "Queensland"],
      ],
      languages: ["English"],
      names: "anglo",
    },
    {
      name: "New Zealand",
      cities: [
        ["Auckland", "Auckland"],
        ["Wellington", "Wellington"],
      ],
      languages: ["English"],
      names: "anglo",
    },
  ],
};

/** Every country of every continent. */
export const COUNTRIES = Object.values(CONTINENTS).flat();

/** Share of generated people per continent (integer weights). */
export const CONTINENT_WEIGHTS: readonly (readonly [string, number])[] = [
  ["Europe", 35],
  ["North America", 30],
  ["Asia", 15],
  ["South America", 8],
  ["Africa", 7],
  ["Oceania", 5],
];

/** Countries of a continent name (case-insensitive), lower-cased, or null when the name is not a continent. */
export function countriesOf(continent: string): readonly string[] | null {
  return countriesByContinent.get(continent.toLowerCase()) ?? null;
}

const countriesByContinent = new Map(
  Object.entries(CONTINENTS).map(([k, list]) => [k.toLowerCase(), list.map((c) => c.name.toLowerCase())]),
);

export const CONTINENT_NAMES = Object.keys(CONTINENTS);
