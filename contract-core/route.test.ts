// The one router on a route set of its own: base path, literal segments before parameters, decoded
// parameters, every candidate for a path, and the messages of what does not route.
import { describe, expect, it } from "vitest";
import { Router } from "./route.js";

const routes = [
  { id: "getList", method: "get", path: "/lists/{id}" },
  { id: "listDefaults", method: "GET", path: "/lists/defaults" },
  { id: "deleteList", method: "delete", path: "/lists/{id}" },
  { id: "again", method: "get", path: "/lists/{id}" },
];
const router = new Router("/v1", routes, (r) => r);

describe("Router", () => {
  it("matches under the base path, a literal segment before a parameter, whatever the method's case", () => {
    expect(router.match("GET", "/v1/lists/defaults")).toMatchObject({ ok: true, route: { id: "listDefaults" } });
    expect(router.match("get", "/v1/lists/7")).toEqual({
      ok: true,
      route: routes[0],
      template: "/lists/{id}",
      params: { id: "7" },
    });
    expect(router.find("DELETE", "https://api.example/v1/lists/defaults?x=1")).toMatchObject({
      ok: true,
      route: { id: "deleteList" },
      params: { id: "defaults" },
    });
  });

  it("decodes parameters and keeps a malformed escape as sent", () => {
    expect(router.match("GET", "/v1/lists/a%2Fb")).toMatchObject({ params: { id: "a/b" } });
    expect(router.match("GET", "/v1/lists/%E0%A4%A")).toMatchObject({ params: { id: "%E0%A4%A" } });
  });

  it("lists every route a path matches, most specific first, and none outside the base path", () => {
    expect(router.candidates("/v1/lists/defaults").map((r) => r.id)).toEqual(["listDefaults", "getList", "deleteList"]);
    expect(router.candidates("/lists/defaults")).toEqual([]);
  });

  it("says why a request does not route", () => {
    expect(router.match("GET", "/lists/7")).toEqual({
      ok: false,
      message: "path /lists/7 is not under the server base path /v1",
    });
    expect(router.match("GET", "/v1/lists/")).toEqual({
      ok: false,
      message: "no path template matches /lists/ (GET /v1/lists/)",
    });
    expect(router.match("POST", "/v1/lists/7")).toEqual({
      ok: false,
      message: "/lists/{id} has no POST operation (documented: GET, DELETE)",
    });
  });
});
