/**
 * The Storybook recipe's `.storybook/main.ts` (Storybook 10): a default export naming the framework (without
 * one Storybook stops with "MissingBuilderError"), and `staticDirs` serving `public/`, where `npx msw init
 * public/ --save` put mockServiceWorker.js: the worker must come from the root of Storybook's origin.
 */
import type { StorybookConfig } from "storybook/internal/types";

const config: StorybookConfig = {
  framework: "@storybook/react-vite", // your framework package
  stories: ["../src/**/*.stories.ts"],
  staticDirs: ["../public"],
};

export default config;
