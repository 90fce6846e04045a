/** The validate and handle steps: the spec's validators coerce the input; the area's handler gets it, or a 500 names the gap. */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../../contract-core/index.js";
import type { AuthContext } from "../contract/auth.js";
import type { Area, SandboxContext } from "../contract/context.js";
import { ApiError } from "../contract/errors.js";
import { indexSpec } from "../contract/spec.js";
import { handlerFor, handlersOf, runHandler } from "./handle.js";
import { validateRequest } from "./validate.js";
import { compileRequestValidators } from "./validation.js";

const validators = compileRequestValidators(indexSpec(loadSpec() as never));
const search = validators.get("searchPeople")!;

describe("validate step", () => {
  it("coerces the query to the schema's types", () => {
    const input = validateRequest(search, {}, new URLSearchParams("limit=5"), undefined);
    expect(input.query).toMatchObject({ limit: 5 });
  });

  it("is a 400 naming the first problem", () => {
    try {
      validateRequest(search, {}, new URLSearchParams("limit=100000"), undefined);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect([(e as ApiError).status, (e as ApiError).message]).toEqual([400, expect.stringMatching(/limit/)]);
    }
  });
});

describe("handle step", () => {
  const area: Area = {
    name: "probe",
    handlers: { getAccount: (req) => ({ body: { seen: req.operationId, q: req.rawQuery.get("x") } }) as never },
  };
  const handlers = handlersOf([area]);

  it("calls the operation's handler with the validated input; a plain reply comes back without a promise", () => {
    const reply = runHandler(
      handlerFor(handlers, "getAccount"),
      "getAccount",
      { params: {}, query: {}, body: undefined },
      { rawQuery: new URLSearchParams("x=1"), headers: {}, auth: { org: {}, keyKind: "customer" } as AuthContext },
      {} as SandboxContext,
    );
    expect(reply).toEqual({ body: { seen: "getAccount", q: "1" } });
  });

  it("answers 500 naming an operation the given areas leave out", () => {
    expect(() => handlerFor(handlers, "searchPeople")).toThrow("searchPeople is not implemented in the sandbox yet");
  });
});
