/**
 * An app's entry that checks every answer against the contract in development only: the validation middleware
 * is loaded by a dynamic import behind the bundler's development flag, so a production build drops the branch
 * and with it the spec and the schema checker (build.test.ts builds it both ways). In your app import from
 * "talent-graph-api-contract/client/validate"; Vite's `import.meta.env.DEV` works as `process.env.NODE_ENV` does.
 */
import { createTalentGraphClient } from "../../client/index.js";

const client = createTalentGraphClient({ baseUrl: "/v1", apiKey: "the key your app gets at sign-in" });
if (process.env.NODE_ENV !== "production") {
  const { validateAnswers } = await import("../../client/validate/index.js");
  client.use(validateAnswers({ mode: "warn" }));
}

const me = await client.GET("/me");
document.body.dataset.status = String(me.response.status);
