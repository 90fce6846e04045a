// ESLint flat config: typescript-eslint's recommended rules everywhere, plus the type-aware promise rules where a
// forgotten await would hide a failure (servers, tests, CLIs). Formatting is Prettier's job, not ESLint's.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "generated/", "**/fixtures/**", "contract-tests/recordings*/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false } }],
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Tests and their kits walk parsed JSON of every shape the spec allows (and shapes it forbids, to prove a
    // check fails); typing each probe would only restate the schema the test is checking.
    files: ["**/*.test.ts", "**/*.test-d.ts", "**/testing/**/*.ts", "**/test-kit.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
