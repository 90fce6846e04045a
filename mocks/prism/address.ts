// Where the mock listens by default and the base path it serves. Kept apart from server.ts (which loads
// Prism) so the command line can show its defaults, and answer --help, without loading the engine.
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 4010;
export const BASE_PATH = "/v1";
