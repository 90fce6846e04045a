// The Node the package's entry points need, said in one line before anything that would fail on an older one
// loads (node:sqlite, msw 3): the bin checks it first and stops there.
export const REQUIRED_NODE = "22.12";

/** The one line for a Node older than REQUIRED_NODE (`version` as in process.versions.node), or undefined. */
export function unsupportedNode(version: string, what = "talent-graph-api-contract"): string | undefined {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [needMajor, needMinor] = REQUIRED_NODE.split(".").map(Number) as [number, number];
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return `${what} needs Node ${REQUIRED_NODE} or later (22.12+, 24 or 26); this is Node ${version}`;
}
