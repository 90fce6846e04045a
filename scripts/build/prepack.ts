/**
 * npm's `prepack` hook: the build of `npm run build`, for `npm pack` and a git install. npm also runs it before
 * `npm run pack` (the pre-hook of a script named pack), without pack's arguments: pack builds what it packs, so
 * there it does nothing, and loads nothing (`npm run pack -- --help` stays instant).
 */
if (process.env.npm_lifecycle_event !== "prepack" || process.env.npm_command !== "run") {
  const { runBuildCommand } = await import("./build.js");
  await runBuildCommand();
}

export {};
