/**
 * What a spec change's type errors mean, said first: tsc names the missing piece, but after a long dump of
 * types. A property the generated types now require that the code which builds that answer does not produce is
 * the house rule "every key a resource names is required" (spec/DECISIONS.md 1) reaching the code: one line per
 * place, naming the rule, the file and line, the key and the two ways out. tsc's own output follows unchanged.
 */

/** One line per distinct (file, line, key) whose error is a required property the code does not produce. */
export function houseRuleHints(tscOutput: string): string[] {
  const hints = new Set<string>();
  // An error starts at "file(line,col): error TSnnnn:"; its continuation lines are indented.
  const errors = tscOutput.split(/\n(?=\S)/);
  for (const error of errors) {
    const head = /^(.+?)\((\d+),\d+\): error TS\d+:/.exec(error);
    const missing = /Property '([^']+)' is missing in type '[\s\S]*?' but required in type/.exec(error);
    if (!head || !missing) continue;
    const [, file, line] = head;
    if (/^(generated|spec)\//.test(file!)) continue;
    hints.add(
      `house rule (spec/DECISIONS.md 1: every key a resource names is required): ${file}:${line} does not produce ` +
        `\`${missing[1]}\`, which the spec now requires: produce it there, or, if the reference qualifies the key ` +
        "as optional, leave it out of the schema's `required` (and name it in spec/tests/accepts.test.ts QUALIFIED)",
    );
  }
  return [...hints];
}
