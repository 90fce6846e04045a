// Where the mock listens by default. Kept apart from server.ts (which loads Prism) so the command line can
// show its defaults, and answer --help, without loading the engine. It serves the spec's server base path.
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 4010;
