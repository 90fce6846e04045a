// The registered consumers' interactions a change touches, read from the example app's committed contract: by
// operation, by the status a response change is under, by the body field it names, by a sent request body.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConsumerContract } from "../../contract-core/consumer-contract.js";
import { REPO_ROOT } from "../../contract-core/index.js";
import type { Change } from "../breaking/breaking.js";
import type { Revision } from "./history.js";
import { touchesOf } from "./touches.js";

const file = path.join(REPO_ROOT, "consumers", "examples-msw.json");
const after: Revision = {
  files: new Map(),
  recordings: [],
  consumers: [parseConsumerContract(readFileSync(file, "utf8"), "consumers/examples-msw.json")],
};
const change = (operation: string, operationId: string, location: string): Change => ({
  rule: "response-property-removed",
  breaking: true,
  operation,
  operationId,
  location,
  message: "",
});
const touched = (c: Change) => touchesOf(c, undefined, after).consumers;
const FIELD = "/responses/200/content/application~1json/schema/properties/data/properties";

describe("touchesOf: consumers", () => {
  it("names the interactions that received the changed field, under its status", () => {
    expect(touched(change("GET /people/{slug}", "getPerson", `${FIELD}/headline`))).toEqual([
      "examples-msw getPerson 200",
    ]);
    // A field inside an array item, and a field no interaction received.
    expect(
      touched(
        change(
          "GET /people",
          "searchPeople",
          "/responses/200/content/application~1json/schema/properties/data/items/properties/slug",
        ),
      ),
    ).toEqual(["examples-msw searchPeople 200"]);
    expect(touched(change("GET /people/{slug}", "getPerson", `${FIELD}/no_such_field`))).toEqual([]);
    expect(touched(change("GET /people/{slug}", "getPerson", "/responses/404"))).toEqual([]);
    expect(touched(change("GET /people", "searchPeople", "/responses/4XX"))).toEqual(["examples-msw searchPeople 400"]);
  });

  it("names every interaction of the operation for a parameter change, and those that sent a body for a body change", () => {
    expect(touched(change("GET /people", "searchPeople", "/parameters/limit"))).toEqual([
      "examples-msw searchPeople 200",
      "examples-msw searchPeople 400",
    ]);
    expect(
      touched(
        change("POST /targets", "createTarget", "/requestBody/content/application~1json/schema/properties/input"),
      ),
    ).toEqual(["examples-msw createTarget 202"]);
    expect(touched(change("POST /lists", "createList", "/requestBody"))).toEqual([]);
  });
});
