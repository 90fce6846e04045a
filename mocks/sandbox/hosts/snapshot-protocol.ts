/** What a start-up snapshot's builder and restored process share with the start that runs them (startup-snapshot.ts). */

/** The graph a snapshot is built for, as JSON ({ people, companies, seed }). */
export const SNAPSHOT_GRAPH_ENV = "TG_SANDBOX_SNAPSHOT_GRAPH";

/**
 * Milliseconds the builder waits (a timer, using no CPU) before it makes the graph: for tests that stop a
 * build in flight, which otherwise need a graph big enough to keep a builder busy (and a core with it) until
 * they act. Unset or not a positive number: no wait.
 */
export const SNAPSHOT_BUILD_HOLD_ENV = "TG_SANDBOX_SNAPSHOT_BUILD_HOLD_MS";

/** The message a restored process sends its parent first: the snapshot loaded (a bad file exits before). */
export const RESTORED_MESSAGE = "tg-sandbox-snapshot-restored";

/** The graph a snapshot holds (the generator's options that make it). */
export interface RestoredSnapshot {
  people: number;
  companies: number;
  seed: number;
}
