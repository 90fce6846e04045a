/**
 * The Storybook recipe (msw-storybook-addon 3, CSF 3): `.storybook/preview.ts`. The addon's `mswLoader`
 * starts MSW's worker once and installs `parameters.msw` for each story; the second loader gives each story
 * the sandbox state it declares (`parameters.sandbox`), from the seed, so nothing one story wrote shows in the
 * next, with persistence on or off. The README shows this file with the package's import path.
 */
import { setupWorker } from "msw/browser";
import { mswLoader } from "msw-storybook-addon/csf3";
import type { LoaderFunction, ProjectAnnotations, Renderer } from "storybook/internal/types";
import { createSandboxHandlers, type StartingPoint } from "../../../mocks/sandbox/hosts/msw/msw.js";

declare module "storybook/internal/csf" {
  interface Parameters {
    /** The state this story starts from (default: the seed). */
    sandbox?: StartingPoint;
  }
}

// The API under /v1 of Storybook's own origin. persist: state survives a reload of the Storybook tab, and each
// story still starts from its own declared state. timers off: jobs move only when a story calls sandbox.advance(ms).
export const sandbox = createSandboxHandlers({ baseUrl: "/v1", persist: "storybook-sandbox", timers: false });

// Each story from the seed plus its declared state (or a snapshot); a previous story's faults, clock and calls
// are gone too.
export const sandboxLoader: LoaderFunction<Renderer> = async ({ parameters }) => {
  sandbox.reset();
  await sandbox.seedState(parameters.sandbox ?? {});
  return {};
};

const preview: ProjectAnnotations<Renderer> = {
  loaders: [
    // msw 3 reads onUnhandledFrame (the addon's default setup still passes msw 2's onUnhandledRequest).
    mswLoader(async () => {
      const worker = setupWorker();
      await worker.start({ quiet: true, onUnhandledFrame: "bypass" });
      return worker;
    }),
    sandboxLoader,
  ],
  parameters: { msw: sandbox.handlers },
};

export default preview;
