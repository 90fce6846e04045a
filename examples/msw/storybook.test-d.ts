/** The Storybook recipe against msw-storybook-addon 3's and Storybook's types. */
import type { ProjectAnnotations, Renderer, StoryAnnotations, StorybookConfig } from "storybook/internal/types";
import { expectTypeOf, test } from "vitest";
// @ts-expect-error -- v3 no longer exports mswLoader (or initialize) from the package root: use "/csf3"
import { mswLoader as fromRoot } from "msw-storybook-addon";
import preview from "./storybook/preview.js";
import config from "./storybook/main.js";

test("the recipe's preview and main are Storybook annotations", () => {
  void fromRoot;
  expectTypeOf(preview).toExtend<ProjectAnnotations<Renderer>>();
  expectTypeOf(config).toExtend<StorybookConfig>();
  expectTypeOf(config.framework).not.toBeUndefined();
});

test("a story's declared state is typed from the spec", () => {
  const ok: StoryAnnotations<Renderer> = {
    parameters: {
      sandbox: { targets: [{ kind: "people", input: "Engineers", members: { proposed: 3 }, job: "failed" }] },
    },
  };
  void ok;
  const wrongKind: StoryAnnotations<Renderer> = {
    // @ts-expect-error -- "person" is not a TargetKind
    parameters: { sandbox: { targets: [{ kind: "person", input: "Engineers" }] } },
  };
  const wrongJob: StoryAnnotations<Renderer> = {
    // @ts-expect-error -- a job is declared by its status or phase; "running" names neither one phase
    parameters: { sandbox: { targets: [{ kind: "people", input: "Engineers", job: "running" }] } },
  };
  void wrongKind;
  void wrongJob;
});
