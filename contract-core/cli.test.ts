// The command-line helper: flags over environment over defaults, help, and the errors it must raise.
import { describe, expect, it } from "vitest";
import {
  COMMON_OPTIONS,
  describeListenError,
  formatUsage,
  keyFromEnv,
  npmShorthandHint,
  parseCommandLine,
  portValue,
  UsageError,
  type CommandSpec,
} from "./cli.js";

const SPEC: CommandSpec = {
  name: "npm run demo",
  summary: "A demo command.",
  options: { port: COMMON_OPTIONS.port("4010"), json: COMMON_OPTIONS.json(), spec: COMMON_OPTIONS.spec("x.json") },
  positionals: "[files...]",
};

describe("parseCommandLine", () => {
  it("takes flags first, then environment variables, then defaults", () => {
    expect(parseCommandLine(SPEC, [], {})?.values).toMatchObject({ port: "4010", spec: "x.json" });
    expect(parseCommandLine(SPEC, [], { PORT: "5000" })?.values.port).toBe("5000");
    expect(parseCommandLine(SPEC, ["--port", "6000"], { PORT: "5000" })?.values.port).toBe("6000");
    expect(parseCommandLine(SPEC, ["--port=7000", "a", "b", "--json"], {})).toMatchObject({
      values: { port: "7000", json: true },
      positionals: ["a", "b"],
    });
  });

  it("prints usage for --help and -h and returns nothing to do", () => {
    let text = "";
    expect(parseCommandLine(SPEC, ["--help"], {}, (t) => (text += t))).toBeUndefined();
    expect(parseCommandLine(SPEC, ["-h", "--bogus"], {}, (t) => (text += t))).toBeUndefined();
    expect(text).toContain("Usage: npm run demo -- [options] [files...]");
    expect(formatUsage(SPEC)).toMatch(
      /--port <port> +port to listen on \(0 = any free port\) \(env PORT, default 4010\)/,
    );
  });

  it("rejects unknown options, missing values and stray arguments, naming them and pointing to --help", () => {
    const fails = (argv: string[], spec: CommandSpec = SPEC) => {
      try {
        parseCommandLine(spec, argv, {});
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        expect((e as UsageError).exitCode).toBe(2);
        expect((e as Error).message).toContain("--help");
        return (e as Error).message;
      }
      throw new Error(`accepted ${argv.join(" ")}`);
    };
    expect(fails(["--bogus"])).toContain("unknown argument --bogus");
    expect(fails(["--port"])).toContain("--port needs a port (--port <port>)");
    expect(fails(["--port", "-5"])).toContain("a value that starts with a dash is written --port=-5");
    const counted: CommandSpec = { ...SPEC, options: { people: { type: "string", value: "<n>", description: "n" } } };
    expect(fails(["--people"], counted)).toContain("--people needs a value (--people <n>)");
    expect(fails(["--json=yes"])).toContain("--json takes no value");
    expect(fails(["stray"], { ...SPEC, positionals: undefined })).toContain('unexpected argument "stray"');
  });

  it("names the command meant when npm kept a flag for itself (run without --)", () => {
    const NO_POSITIONALS: CommandSpec = { ...SPEC, name: "npm run demo", positionals: undefined };
    const npm = (config: Record<string, string>) => ({ npm_lifecycle_event: "demo", ...config });
    const message = (argv: string[], env: NodeJS.ProcessEnv, spec = NO_POSITIONALS) => {
      try {
        parseCommandLine(spec, argv, env);
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return (e as Error).message;
      }
      return "accepted";
    };
    // `npm run demo --port 4603`: npm exports npm_config_port=true and passes 4603 on.
    expect(message(["4603"], npm({ npm_config_port: "true" }))).toContain(
      'npm kept --port for itself, so "4603" arrived as an argument: did you mean `npm run demo -- --port 4603`?',
    );
    // `npm run demo --port=4603`: the value stays with npm.
    expect(message([], npm({ npm_config_port: "4603" }))).toContain("did you mean `npm run demo -- --port 4603`?");
    expect(message([], npm({ npm_config_json: "true" }))).toContain("did you mean `npm run demo -- --json`?");
    // Negative: the flag given after `--`, another npm flag, or not run by npm at all.
    expect(message(["--port", "4603"], npm({ npm_config_port: "true" }))).toBe("accepted");
    expect(message([], npm({ npm_config_loglevel: "warn" }))).toBe("accepted");
    expect(message(["4603"], { npm_config_port: "true" })).toContain('unexpected argument "4603"');
    // `npm run demo --no-optic`: npm exports the negation as npm_config_optic="".
    const NEGATED: CommandSpec = { ...NO_POSITIONALS, options: { "no-optic": { type: "boolean", description: "x" } } };
    expect(message([], npm({ npm_config_optic: "" }), NEGATED)).toContain("did you mean `npm run demo -- --no-optic`?");
    expect(message(["--no-optic"], npm({ npm_config_optic: "" }), NEGATED)).toBe("accepted");
    expect(message([], npm({}), NEGATED)).toBe("accepted");
  });

  it("hints at a flag npm may have taken as its own shorthand (--quiet is npm's log level), without refusing", () => {
    const QUIET: CommandSpec = { ...SPEC, options: { quiet: { type: "boolean", description: "no request lines" } } };
    const npm = { npm_lifecycle_event: "demo", npm_config_loglevel: "warn" };
    expect(npmShorthandHint(QUIET, [], npm)).toBe(
      "npm run demo: npm's loglevel is warn, as `--quiet` before `--` sets it: npm kept --quiet for itself. " +
        "For this command's --quiet: `npm run demo -- --quiet`.",
    );
    expect(npmShorthandHint(QUIET, ["--quiet"], npm)).toBeUndefined();
    expect(npmShorthandHint(QUIET, [], { npm_lifecycle_event: "demo" })).toBeUndefined();
    expect(npmShorthandHint(QUIET, [], { npm_config_loglevel: "warn" })).toBeUndefined();
    expect(npmShorthandHint(SPEC, [], npm)).toBeUndefined();
  });

  it("refuses a secret flag without repeating its value", () => {
    const KEYED: CommandSpec = {
      ...SPEC,
      options: { ...SPEC.options, "key-env": COMMON_OPTIONS.keyEnv("TALENT_GRAPH_API_KEY") },
      secretFlags: { key: "TALENT_GRAPH_API_KEY (or --key-env NAME)" },
    };
    for (const argv of [["--key", "tgsb_secret_1"], ["--key=tgsb_secret_1"]]) {
      let message = "";
      try {
        parseCommandLine(KEYED, argv, {});
      } catch (e) {
        expect((e as UsageError).exitCode).toBe(2);
        message = (e as Error).message;
      }
      expect(message).toContain("--key is refused, because a key on the command line is printed by npm");
      expect(message).toContain("TALENT_GRAPH_API_KEY (or --key-env NAME)");
      expect(message).not.toContain("tgsb_secret_1");
    }
    const parsed = parseCommandLine(KEYED, ["--key-env", "MY_KEY"], {});
    expect(keyFromEnv(parsed!.values, "key-env", { MY_KEY: "k1", TALENT_GRAPH_API_KEY: "k2" })).toBe("k1");
    expect(keyFromEnv(parseCommandLine(KEYED, [], {})!.values, "key-env", { TALENT_GRAPH_API_KEY: "k2" })).toBe("k2");
    expect(
      keyFromEnv(parseCommandLine(KEYED, [], {})!.values, "key-env", { TALENT_GRAPH_API_KEY: "" }),
    ).toBeUndefined();
  });

  it("checks ports and explains a busy one", () => {
    expect(portValue(SPEC, "0")).toBe(0);
    expect(() => portValue(SPEC, "70000")).toThrow(/PORT must be an integer 0-65535, got "70000"/);
    expect(() => portValue(SPEC, "http")).toThrow(UsageError);
    const busy = describeListenError(
      Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE" }),
      4010,
      "127.0.0.1",
    );
    expect(busy).toContain("port 4010 on 127.0.0.1 is already in use");
    expect(busy).toContain("--port <n>");
    expect(busy).toContain("PORT=<n>");
  });
});
