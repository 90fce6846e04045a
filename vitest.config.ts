import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "dist/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: {
      // The type tests (*.test-d.ts) are part of the project tsc checks; when the gate or `npm test` runs that
      // tsc in the same run it sets TG_TYPECHECK_SHARED, and vitest does not type-check them a second time.
      enabled: process.env.TG_TYPECHECK_SHARED !== "1",
      include: ["**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
  },
});
