/**
 * Lets Node run the project's TypeScript files as they are: `node --import ./scripts/typescript-hooks.ts
 * <file.ts>`. Node strips the types itself (the sources keep to erasable syntax: tsconfig's
 * `erasableSyntaxOnly`); this hook only resolves the `.js` specifiers the sources write between each other
 * (TypeScript's NodeNext convention, which the build's emitted JavaScript needs) to the `.ts` file of that name.
 * It runs in the loading thread, with no transpiler and no cache on disk.
 */
import { registerHooks } from "node:module";

/** A TypeScript module's URL, with or without a query or fragment (vitest adds one to the files it imports). */
const TYPESCRIPT_URL = /\.ts(?:[?#]|$)/;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (
      TYPESCRIPT_URL.test(context.parentURL ?? "") &&
      specifier.endsWith(".js") &&
      (specifier.startsWith("./") || specifier.startsWith("../"))
    ) {
      try {
        return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
      } catch (error) {
        // No `.ts` of that name: the specifier names a real JavaScript file.
        if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") throw error;
      }
    }
    return nextResolve(specifier, context);
  },
});
