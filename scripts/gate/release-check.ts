/**
 * The gate's release check: what the next release will be and why (scripts/release/plan.ts), and a failure when
 * the pull request states a version its changes do not call for, or a major lacks a migration line.
 */
import { parse } from "yaml";
import { isObj } from "../../contract-core/index.js";
import { git } from "../changelog/history.js";
import { planRelease, versionProblems } from "../release/plan.js";
import type { ResolvedBase } from "./breaking-check.js";

export interface ReleaseOutcome {
  status: "pass" | "fail" | "skip";
  note: string;
  details: string[];
}

/** info.version of `spec/openapi.yaml` at `sha` (the root states it), or undefined. */
function versionAt(cwd: string, sha: string): string | undefined {
  try {
    const root: unknown = parse(git(cwd, ["show", `${sha}:spec/openapi.yaml`]));
    return isObj(root) && isObj(root.info) && typeof root.info.version === "string" ? root.info.version : undefined;
  } catch {
    return undefined;
  }
}

export async function releaseCheck(cwd: string, base: ResolvedBase): Promise<ReleaseOutcome> {
  let plan;
  try {
    plan = await planRelease(cwd);
  } catch (e) {
    return { status: "fail", note: `no plan: ${(e as Error).message.split("\n")[0]}`, details: [] };
  }
  const baseVersion = "sha" in base ? versionAt(cwd, base.sha) : undefined;
  const problems = versionProblems(plan, baseVersion ?? plan.stated.spec);
  const since = plan.last ? ` (since ${plan.last.tag})` : "";
  const note = `next release ${plan.next.sentence}${since}`.replaceAll("\n", " ");
  return problems.length > 0 ? { status: "fail", note, details: problems } : { status: "pass", note, details: [] };
}
