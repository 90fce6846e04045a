/**
 * The handler contract is typed from the spec: operation ids, path params, query, request bodies and reply
 * bodies come from generated/schema.d.ts, so a handler answering what the spec does not allow fails tsc.
 */
import { expectTypeOf, test } from "vitest";
import type { OPERATIONS } from "../../../contract-core/portable.js";
import type { operations } from "../../../generated/schema.js";
import {
  everyOperationHandled,
  type Area,
  type AreaHandlers,
  type Handler,
  type Handlers,
  type MissingHandlers,
  type OperationId,
  type PathParams,
  type QueryParams,
  type RequestBody,
  type ResponseBody,
} from "./context.js";
import { areas } from "../areas/index.js";

test("OperationId is every operation of the spec", () => {
  expectTypeOf<OperationId>().toEqualTypeOf<keyof operations>();
  expectTypeOf<(typeof OPERATIONS)[number]["operationId"]>().toEqualTypeOf<OperationId>();
  expectTypeOf<"searchPeople">().toExtend<OperationId>();
  // @ts-expect-error not an operation of the spec
  expectTypeOf<"notAnOperation">().toExtend<OperationId>();
});

test("inputs are the operation's own types", () => {
  expectTypeOf<PathParams<"getTarget">>().toEqualTypeOf<{ id: string }>();
  expectTypeOf<QueryParams<"searchPeople">["limit"]>().toEqualTypeOf<number | undefined>();
  expectTypeOf<RequestBody<"createList">>().toEqualTypeOf<
    operations["createList"]["requestBody"]["content"]["application/json"]
  >();
  expectTypeOf<RequestBody<"searchPeople">>().toEqualTypeOf<undefined>();
});

test("a handler answers only what the spec allows", () => {
  const ok: AreaHandlers = {
    createList: (req) => ({
      status: 201,
      body: { data: { id: req.body.name, name: req.body.name } as ResponseBody<"createList", 201>["data"] },
    }),
    deleteList: () => ({ status: 204 }),
    getTarget: (req) => {
      expectTypeOf(req.params.id).toEqualTypeOf<string>();
      throw new Error(`not needed: ${req.params.id}`);
    },
  };
  const wrongField: Handler<"getAccount"> = () => ({
    // @ts-expect-error `account` is not a field of the getAccount answer (it is `data`)
    body: { account: { id: "x" } },
  });
  // @ts-expect-error createList documents 201, not 200
  const wrongStatus: Handler<"createList"> = () => ({
    status: 200,
    body: { data: {} as ResponseBody<"createList", 201>["data"] },
  });
  const wrongParam: Handler<"getTarget"> = (req) => {
    // @ts-expect-error getTarget has no path parameter `slug`
    void req.params.slug;
    return { body: {} as ResponseBody<"getTarget", 200> };
  };
  expectTypeOf(ok).toExtend<AreaHandlers>();
  void [wrongField, wrongStatus, wrongParam];
});

test("every operation needs a handler: tsc names the one no area handles", () => {
  const readOnly = { name: "read", handlers: { getAccount: () => ({ body: {} as ResponseBody<"getAccount", 200> }) } };
  // @ts-expect-error Handlers has no optional key: a set without every operation is not one
  const partial: Handlers = readOnly.handlers;
  expectTypeOf<MissingHandlers<[typeof readOnly]>>().toEqualTypeOf<Exclude<OperationId, "getAccount">>();
  expectTypeOf(everyOperationHandled([readOnly])).toEqualTypeOf<{
    noHandlerFor: Exclude<OperationId, "getAccount">;
  }>();
  // @ts-expect-error no handler for every operation but getAccount
  const some: Area[] = everyOperationHandled([readOnly]);
  // An area typed `Area` (handlers all optional) handles nothing for certain.
  expectTypeOf<MissingHandlers<[Area]>>().toEqualTypeOf<OperationId>();
  expectTypeOf(areas).toEqualTypeOf<Area[]>();
  void [partial, some];
});
