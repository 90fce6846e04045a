// The command-line helper: flags over environment over defaults, help, and the errors it must raise.
import { describe, expect, it } from "vitest";
import {
  COMMON_OPTIONS,
  describeListenError,
  formatUsage,
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
    expect(fails(["--port"])).toContain("--port needs a port");
    expect(fails(["--json=yes"])).toContain("--json takes no value");
    expect(fails(["stray"], { ...SPEC, positionals: undefined })).toContain('unexpected argument "stray"');
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
