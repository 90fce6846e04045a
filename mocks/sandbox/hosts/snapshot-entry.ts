/**
 * The script a start-up snapshot is built from (hosts/startup-snapshot.ts bundles it into one CommonJS file and
 * runs `node --snapshot-blob <file> --build-snapshot <bundle>`). While building, it makes the generated graph
 * named in TG_SANDBOX_SNAPSHOT_GRAPH and its search index, which the generator and the index keep per process:
 * the restored heap holds them, so the restored start finds them made. Everything else (Fastify, the spec,
 * the core) loads only after restoring, through a dynamic import: Node cannot snapshot `node:http`.
 */
import { startupSnapshot } from "node:v8";
import { generatedGraph } from "../data/generate.js";
import { searchIndexOf } from "../domain/search-index.js";
import {
  RESTORED_MESSAGE,
  SNAPSHOT_BUILD_HOLD_ENV,
  SNAPSHOT_GRAPH_ENV,
  type RestoredSnapshot,
} from "./snapshot-protocol.js";

// A script, not a module: the snapshot builder runs it without `module`, so it exports nothing.

if (startupSnapshot.isBuildingSnapshot()) {
  const graph = JSON.parse(process.env[SNAPSHOT_GRAPH_ENV] ?? "null") as RestoredSnapshot | null;
  if (!graph) throw new Error(`${SNAPSHOT_GRAPH_ENV} must name the graph to build`);
  const build = () => void searchIndexOf(generatedGraph(graph));
  // Node takes the snapshot once the builder's event loop is empty, so a graph made in a timer is in it.
  const hold = Number(process.env[SNAPSHOT_BUILD_HOLD_ENV]);
  if (hold > 0) setTimeout(build, hold);
  else build();
  startupSnapshot.setDeserializeMainFunction(() => {
    if (process.send) {
      process.send(RESTORED_MESSAGE);
      // The channel stays open (its 'disconnect' stops the sandbox when the parent dies) without keeping the
      // process alive by itself.
      process.channel?.unref();
    }
    // `node --snapshot-blob <file> -- <args>`: the arguments follow the executable.
    void import("../launch.js").then(({ runSandboxCommand }) => runSandboxCommand(process.argv.slice(1), graph));
  });
}
