/**
 * The Storybook recipe's `.storybook/main.ts` part: `npx msw init public/` writes mockServiceWorker.js, and
 * `staticDirs` serves it at the root of Storybook's origin, where the worker must come from. Add your
 * framework (e.g. `framework: "@storybook/react-vite"`) and stories as usual.
 */
import type { StorybookConfig } from "storybook/internal/types";

export const config = {
  staticDirs: ["../public"],
} satisfies Partial<StorybookConfig>;
