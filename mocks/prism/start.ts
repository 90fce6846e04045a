// npm run mock: the static mock of generated/openapi.json on http://127.0.0.1:4010/v1 (--port/PORT, --host/HOST; --help).
import { runMockCommand } from "./cli.js";

await runMockCommand();
