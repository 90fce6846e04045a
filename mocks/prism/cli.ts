// Shared by start.ts and proxy.ts: PORT/HOST from the environment, one ready line, clean stop.
import { DEFAULT_HOST, DEFAULT_PORT, type MockOptions, type RunningMock } from "./server.js";

/**
 * PORT, HOST, SPEC (another document) and MOCK_VALIDATE=1 (warn when an answer breaks the spec, for
 * people editing examples) from the environment.
 */
export function cliOptions(env: NodeJS.ProcessEnv = process.env): MockOptions {
  const port = env.PORT === undefined || env.PORT === "" ? DEFAULT_PORT : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer 0-65535, got "${env.PORT}"`);
  return {
    port,
    host: env.HOST || DEFAULT_HOST,
    ...(env.SPEC ? { spec: env.SPEC } : {}),
    ...(env.MOCK_VALIDATE === "1" ? { validateResponses: true } : {}),
  };
}

/** Runs a server until SIGINT/SIGTERM, printing `ready(baseUrl)` as its one ready line. */
export async function runUntilSignal(start: () => Promise<RunningMock>, ready: (baseUrl: string) => string): Promise<void> {
  let running: RunningMock;
  try {
    running = await start();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  process.stdout.write(`${ready(running.baseUrl)}\n`);
  const stop = (): void => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/** A curl to paste; `auth` is the Authorization header to show (the mock accepts any Bearer value). */
export function curlLine(baseUrl: string, pathAndQuery: string, auth = "'Authorization: Bearer test'"): string {
  return `curl -H ${auth} '${baseUrl}${pathAndQuery}'`;
}
