import { describe, expect, it } from "vitest";
import { checkExamples } from "./examples-check.js";
import { loadSpec } from "../../contract-core/index.js";

const load = () => loadSpec() as Record<string, any>;

describe("every example in the spec validates against its schema", () => {
  it("has no invalid example", () => {
    const { checked, problems } = checkExamples(load());
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it("every operation has an example for every documented status with content", () => {
    const doc = load();
    const missing: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        for (const [status, r] of Object.entries<any>(op.responses ?? {})) {
          const resp = r.$ref ? doc.components.responses[r.$ref.split("/").pop()] : r;
          for (const media of Object.values<any>(resp.content ?? {})) {
            if (!media.examples && media.example === undefined)
              missing.push(`${method.toUpperCase()} ${path} ${status}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it.each([
    [
      "a required key missing",
      (d: any) => delete d.components.examples.PersonDossier.value.data.match,
      "must have required property 'match'",
    ],
    [
      "a null where none is allowed",
      (d: any) => (d.components.examples.ListsPage.value.data[0].member_count = null),
      "must be integer",
    ],
    [
      "an out-of-enum value",
      (d: any) => (d.components.examples.TargetDone.value.data.job.status = "finished"),
      "must be equal to one of the allowed values",
    ],
    [
      "a forbidden webhook secret in preferences",
      (d: any) => (d.components.examples.PreferencesSaved.value.data.webhook_secret = "s3cret"),
      "property name must be valid",
    ],
    [
      "an extra key on a compact row",
      (d: any) => (d.components.examples.PeopleSearchCompactPage.value.data[0].full_name = "x"),
      "must NOT have additional properties",
    ],
  ])("fails when an example is broken: %s", (_name, breakIt, message) => {
    const doc = load();
    breakIt(doc);
    const { problems } = checkExamples(doc);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.flatMap((p) => p.errors).join("\n")).toContain(message);
  });
});
