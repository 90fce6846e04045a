/** What a start-up snapshot's builder and restored process share with the start that runs them (startup-snapshot.ts). */

/** The graph a snapshot is built for, as JSON ({ people, companies, seed }). */
export const SNAPSHOT_GRAPH_ENV = "TG_SANDBOX_SNAPSHOT_GRAPH";

/** The message a restored process sends its parent first: the snapshot loaded (a bad file exits before). */
export const RESTORED_MESSAGE = "tg-sandbox-snapshot-restored";

/** The graph a snapshot holds (the generator's options that make it). */
export interface RestoredSnapshot {
  people: number;
  companies: number;
  seed: number;
}
