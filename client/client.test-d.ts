import { describe, expectTypeOf, it } from "vitest";
import {
  createTalentGraphClient,
  paginatePeople,
  pollEventsOnce,
  unwrap,
  type RateLimit,
  type TalentGraphEvent,
  type components,
} from "./index.js";

const client = createTalentGraphClient({ baseUrl: "https://api.talent-graph.example/v1", apiKey: "k" });

describe("typed calls", () => {
  it("types path parameters, query, body and responses from the spec", async () => {
    const { data, error, rateLimit } = await client.GET("/people/{slug}", {
      params: { path: { slug: "priya-raman" } },
    });
    expectTypeOf(rateLimit).toEqualTypeOf<RateLimit>();
    if (data) expectTypeOf(data.data.full_name).toEqualTypeOf<string | null>();
    expectTypeOf(error).not.toBeAny();
    expectTypeOf<components["schemas"]["Error"]>().toExtend<NonNullable<typeof error>>();

    const search = await client.GET("/people", { params: { query: { nl: "staff engineers", limit: 25 } } });
    if (search.data) expectTypeOf(search.data.meta.has_more).toEqualTypeOf<boolean>();

    const created = unwrap(await client.POST("/lists", { body: { name: "Leads" } }));
    expectTypeOf(created.data.id).toEqualTypeOf<string>();
  });

  it("rejects an unknown path", () => {
    // @ts-expect-error "/persons" is not a path of the spec
    void client.GET("/persons");
  });

  it("rejects a method the path does not have", () => {
    // @ts-expect-error GET /people/{slug} exists, POST does not
    void client.POST("/people/{slug}", { params: { path: { slug: "x" } } });
  });

  it("rejects a query value of the wrong type", () => {
    // @ts-expect-error limit is an integer, not a string
    void client.GET("/people", { params: { query: { limit: "25" } } });
  });

  it("rejects an unknown query parameter", () => {
    // @ts-expect-error there is no "page" parameter
    void client.GET("/people", { params: { query: { page: 2 } } });
  });

  it("rejects a missing path parameter", () => {
    // @ts-expect-error slug is required
    void client.GET("/people/{slug}", { params: { path: {} } });
  });

  it("rejects an enum value the spec does not list", () => {
    // @ts-expect-error view is full or compact
    void client.GET("/people", { params: { query: { view: "tiny" } } });
  });

  it("rejects a body without a required field", () => {
    // @ts-expect-error name is required to create a list
    void client.POST("/lists", { body: { description: "no name" } });
  });

  it("rejects a call without its required body", () => {
    // @ts-expect-error POST /lists needs a body
    void client.POST("/lists");
  });

  it("types the helpers", async () => {
    for await (const page of paginatePeople(client, { company: "northwind-labs" })) {
      expectTypeOf(page.meta.limit).toEqualTypeOf<number>();
    }
    // @ts-expect-error the people query has no "cursor"
    void paginatePeople(client, { cursor: "x" });
    await pollEventsOnce(client, {
      checkpoint: null,
      onEvents: (events) => {
        expectTypeOf(events).toEqualTypeOf<TalentGraphEvent[]>();
      },
    });
    // @ts-expect-error "promoted" is not an event field
    void pollEventsOnce(client, { type: "promoted", onEvents: () => undefined });
  });
});
