/**
 * YAML parsing for the Node-only modules, with the `yaml` package loaded on first use: most processes (the
 * sandbox, the mock, the contract and fuzz commands, every --help) read only the JSON bundle, and loading the
 * package costs each of them about as much as the rest of the contract core.
 */
import { createRequire } from "node:module";

type Yaml = typeof import("yaml");
let yaml: Yaml | undefined;

/** `yaml`'s `parse`: the document as plain values; throws on invalid YAML. */
export function parseYaml(text: string): unknown {
  yaml ??= createRequire(import.meta.url)("yaml") as Yaml;
  return yaml.parse(text);
}
