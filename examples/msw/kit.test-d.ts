/** The kit's helpers typed from the spec: calls() per operation, respond() per documented status, keys by name. */
import { expectTypeOf, test } from "vitest";
import { createSandboxHandlers } from "../../mocks/sandbox/hosts/msw/msw.js";

const sandbox = createSandboxHandlers({ timers: false });

test("calls() is typed per operation", () => {
  const [created] = sandbox.calls("createList");
  expectTypeOf(created!.body.name).toEqualTypeOf<string>();
  expectTypeOf(created!.operationId).toEqualTypeOf<"createList">();
  // @ts-expect-error -- createList's body has no field "title"
  void created!.body.title;
  const [search] = sandbox.calls("searchPeople");
  expectTypeOf(search!.body).toEqualTypeOf<undefined>();
  void search!.query.location;
  // @ts-expect-error -- searchPeople has no query parameter "town"
  void search!.query.town;
  const every = sandbox.calls();
  const first = every[0]!;
  if (first.operationId === "createList") expectTypeOf(first.body.name).toEqualTypeOf<string>();
});

test("respond() types the body from the status's schema", () => {
  sandbox.respond("getPerson", {
    status: 200,
    // @ts-expect-error -- "title" is not a field of the Person the 200 answer carries
    body: { data: { title: "A" } },
  });
  sandbox.respond("getPerson", { status: 404, body: { error: { type: "not_found", message: "No such person" } } });
  // @ts-expect-error -- getList does not document 201
  sandbox.respond("getList", { status: 201, body: {} });
  sandbox.respond("createList", { status: 400, body: { error: { type: "invalid_request", message: "No" } } });
  // @ts-expect-error -- an error answer carries error.type and error.message, not error.kind
  sandbox.respond("getPerson", { status: 404, body: { error: { kind: "oops", message: "no" } } });
});

test("keys are named", () => {
  expectTypeOf(sandbox.keys.acme).toEqualTypeOf<string>();
  // @ts-expect-error -- no organization "umbrella"
  void sandbox.keys.umbrella;
});
