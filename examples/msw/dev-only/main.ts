/**
 * An app's entry that starts the sandbox in development only: the kit is loaded by a dynamic import behind
 * the bundler's development flag, so a production build drops the branch and with it every byte of msw and
 * the sandbox (dev-only.test.ts builds it both ways). In your app import from "talent-graph-api-contract/msw";
 * Vite's `import.meta.env.DEV` works as `process.env.NODE_ENV` does here.
 */
import { createTalentGraphClient } from "../../../client/index.js";

if (process.env.NODE_ENV !== "production") {
  const [{ setupWorker }, { createSandboxHandlers }] = await Promise.all([
    import("msw/browser"),
    import("../../../mocks/sandbox/hosts/msw/msw.js"),
  ]);
  const sandbox = createSandboxHandlers({ baseUrl: "/v1" });
  await setupWorker(...sandbox.handlers).start({ onUnhandledFrame: "bypass" });
}

const client = createTalentGraphClient({ baseUrl: "/v1", apiKey: "the key your app gets at sign-in" });
const me = await client.GET("/me");
document.body.dataset.status = String(me.response.status);
