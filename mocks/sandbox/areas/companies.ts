/** GET /companies/{key} (orbit) and GET /companies (search; request and response shape not shown). */
import type { Area } from "../contract/context.js";
import { companyOrbit, searchCompanies } from "../domain/companies.js";

export const companiesArea = {
  name: "companies",
  handlers: {
    getCompanyOrbit(req, { graph }) {
      return { body: { data: companyOrbit(req, graph, req.params.key) } };
    },

    searchCompanies(req, { graph }) {
      // The spec declares no parameters; the sandbox honors an undeclared `q` fragment for convenience.
      const rows = searchCompanies(graph, req.rawQuery.get("q"));
      return {
        body: {
          data: rows.map(({ company, counts }) => ({
            key: company.key,
            name: company.name,
            network_url: company.network_url,
            current_count: counts.current_count,
            alum_count: counts.alum_count,
          })),
        },
      };
    },
  },
} satisfies Area;
