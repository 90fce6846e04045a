/**
 * The gate's consumers check (scripts/gate/README.md): the consumer contracts registered in consumers/
 * (or the files given with --consumers) checked against the working tree's spec. A problem fails the gate unless
 * a spec/BREAKING.md entry for its operation names that consumer (`(consumers: name, ...)` in its reason): a
 * breaking change that reaches a registered consumer is accepted for that consumer by name. The breaking rules
 * judge every change as before; this check adds which consumers a change reaches, and how.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { ConsumerContractError, parseConsumerContract } from "../../contract-core/consumer-contract.js";
import { bundleFile } from "../../contract-core/redocly.js";
import { operationKey } from "../breaking/breaking.js";
import { checkConsumerContract, type ConsumerProblem } from "../consumers/check.js";
import { markdownText } from "../escape/markdown.js";
import { parseMarkers, type MarkerEntry } from "./breaking-markers.js";

export const CONSUMERS_DIR = "consumers";

export interface ConsumersOutcome {
  status: "pass" | "fail";
  note: string;
  /** What each contract found, one line each. */
  output: string;
  /** The unaccepted problems, one Markdown line each. */
  details: string[];
  /** "Consumers affected": every problem, accepted or not. */
  markdown?: string;
  problems: AffectedInteraction[];
}

/** A problem of a consumer's interaction, and the spec/BREAKING.md entry that accepts it for that consumer. */
export type AffectedInteraction = ConsumerProblem & { acceptedBy?: string };

/** The consumers an entry names: `(consumers: web-app, admin)` in its reason. */
export function consumersNamed(entry: MarkerEntry): string[] {
  const list = /\(consumers?:\s*([^)]*)\)/i.exec(entry.reason)?.[1] ?? "";
  return list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export async function consumersCheck(cwd: string, { files }: { files?: string[] } = {}): Promise<ConsumersOutcome> {
  const fail = (note: string): ConsumersOutcome => ({ status: "fail", note, output: note, details: [], problems: [] });
  const folder = join(cwd, CONSUMERS_DIR);
  const paths = files
    ? files.map((file) => resolve(cwd, file))
    : existsSync(folder)
      ? readdirSync(folder)
          .filter((name) => name.endsWith(".json"))
          .sort()
          .map((name) => join(folder, name))
      : [];
  if (paths.length === 0)
    return {
      status: "pass",
      note: `no consumer contracts in ${CONSUMERS_DIR}/`,
      output: "",
      details: [],
      problems: [],
    };
  const contracts = [];
  for (const path of paths) {
    const shown = relative(cwd, path).startsWith("..") ? path : relative(cwd, path);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      return fail(`cannot read ${shown}: ${(e as Error).message}`);
    }
    try {
      contracts.push(parseConsumerContract(text, shown));
    } catch (e) {
      if (e instanceof ConsumerContractError) return fail(e.message);
      throw e;
    }
  }
  let doc: Record<string, unknown>;
  try {
    doc = (await bundleFile(join(cwd, "spec", "openapi.yaml"), { configDir: cwd })).doc;
  } catch (e) {
    return fail(`cannot bundle the spec: ${(e as Error).message}`);
  }
  const markerPath = join(cwd, "spec", "BREAKING.md");
  const markers = existsSync(markerPath) ? parseMarkers(readFileSync(markerPath, "utf8")).entries : [];
  const acceptedBy = (p: ConsumerProblem) =>
    markers.find(
      (m) =>
        (m.operation === "*" ||
          m.operation === p.operationId ||
          operationKey(m.operation) === operationKey(p.operation)) &&
        consumersNamed(m).includes(p.consumer),
    );
  const problems = contracts.flatMap((contract) =>
    checkConsumerContract(contract, doc).map((p): AffectedInteraction => {
      const entry = acceptedBy(p);
      return entry ? { ...p, acceptedBy: `spec/BREAKING.md line ${entry.line}` } : p;
    }),
  );
  const open = problems.filter((p) => !p.acceptedBy);
  const interactions = contracts.reduce((n, c) => n + c.interactions.length, 0);
  const affected = [...new Set(problems.map((p) => p.consumer))];
  const counts = `${plural(contracts.length, "consumer contract")}, ${plural(interactions, "interaction")}`;
  const note =
    problems.length === 0
      ? `${counts}: none affected`
      : `${counts}: ${plural(affected.length, "consumer")} affected (${affected.join(", ")}), ` +
        `${plural(open.length, "problem")} not accepted in spec/BREAKING.md`;
  const line = (p: ConsumerProblem) =>
    `${markdownText(p.consumer)}: ${markdownText(p.operationId)} (${markdownText(p.operation)}) ${p.status}, ` +
    `${p.field ? `${markdownText(p.field)} ` : ""}${markdownText(p.message)}`;
  const output = [
    ...contracts.map((c) => {
      const mine = problems.filter((p) => p.consumer === c.consumer.name).length;
      return `${mine === 0 ? "✔" : "✘"} ${c.consumer.name} ${c.consumer.version}: ${plural(c.interactions.length, "interaction")}, ${plural(mine, "problem")}`;
    }),
    ...problems.map(
      (p) =>
        `  ${p.consumer}: ${p.operationId} ${p.status} ${p.field} ${p.message}${p.acceptedBy ? ` (accepted: ${p.acceptedBy})` : ""}`,
    ),
  ].join("\n");
  const markdown =
    problems.length === 0
      ? `Consumers affected: none (${counts} checked against this spec).`
      : [
          "Consumers affected:",
          "",
          "| Consumer | Operation | Status | Field | What | Accepted |",
          "|---|---|---|---|---|---|",
          ...problems.map(
            (p) =>
              `| ${markdownText(p.consumer)} | ${markdownText(p.operationId)} (${markdownText(p.operation)}) | ${p.status} | ` +
              `${markdownText(p.field || "(operation)")} | ${markdownText(p.message)} | ${p.acceptedBy ?? "no"} |`,
          ),
          ...(open.length > 0
            ? [
                "",
                "A breaking change that reaches a registered consumer passes only when its `spec/BREAKING.md` entry " +
                  "names the consumer: end the entry's reason with `(consumers: <name>, ...)`.",
              ]
            : []),
        ].join("\n");
  return { status: open.length > 0 ? "fail" : "pass", note, output, details: open.map(line), markdown, problems };
}
