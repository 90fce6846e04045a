/** Loading inputs through the core's loader (YAML or JSON, split roots bundled). Unreadable input throws InputError (exit code 2). */
import { loadSpec as loadSpecDocument, SpecLoadError } from "../../contract-core/index.js";
import type { Obj } from "./json.js";

export class InputError extends Error {
  override name = "InputError";
}

export interface LoadedSpec {
  file: string;
  /** The document, bundled (all $refs local) when the input was a split root. */
  doc: Obj;
}

/** Reads, parses and (for split roots) bundles one input. Throws InputError naming the file. */
export async function loadInput(file: string): Promise<LoadedSpec> {
  try {
    return { file, doc: loadSpecDocument(file) };
  } catch (e) {
    throw e instanceof SpecLoadError ? new InputError(e.message) : e;
  }
}
