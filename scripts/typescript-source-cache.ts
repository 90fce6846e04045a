/**
 * A compiler host whose declaration files (.d.ts: TypeScript's lib files, the packages' types, the generated
 * schema types) are parsed and bound once per process and shared by every program that reads them with the
 * same source-file settings, as the language service shares them between projects. Each program built in
 * the tests (the packaging and build consumers, the docs' code samples, the client build) otherwise parsed
 * and bound the same lib, DOM and Node declarations again (parsing and binding were about 40 % of the suite's
 * compiler time; the type checking itself stays each program's own).
 */
import type ts from "typescript";

/** Declaration files only: nothing emits them, so a program never asks for a fresh copy to transform. */
const DECLARATION_FILE = /\.d\.[cm]?ts$/;

interface Kept {
  /** The text the file was parsed from: a file changed on disk since is parsed again. */
  text: string;
  file: ts.SourceFile;
}

const kept = new Map<string, Kept>();
let settingsKeyOf: ((options: ts.CompilerOptions) => string) | undefined;

/**
 * `typescript.createCompilerHost(options)`, except that a declaration file whose text is unchanged comes from
 * the process's cache when an earlier program read it with the same settings. The settings are those that
 * change a parsed or bound file (the language service's key: target, module detection, strictness, ...), the
 * script target and the module format the file is read in.
 */
export function cachingCompilerHost(typescript: typeof ts, options: ts.CompilerOptions): ts.CompilerHost {
  settingsKeyOf ??= (() => {
    const registry = typescript.createDocumentRegistry();
    return (o: ts.CompilerOptions) => registry.getKeyForCompilationSettings(o) as string;
  })();
  const settings = settingsKeyOf(options);
  const host = typescript.createCompilerHost(options);
  const uncached = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    if (shouldCreateNewSourceFile || !DECLARATION_FILE.test(fileName))
      return uncached(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    // TypeScript's own file reading returns undefined for a file it cannot read: the default host reports it.
    const text = host.readFile(fileName);
    if (text === undefined) return uncached(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    const mode =
      typeof languageVersionOrOptions === "object"
        ? `${languageVersionOrOptions.languageVersion}|${languageVersionOrOptions.impliedNodeFormat}|${languageVersionOrOptions.jsDocParsingMode}`
        : String(languageVersionOrOptions);
    const key = `${settings}\n${mode}\n${fileName}`;
    const hit = kept.get(key);
    if (hit?.text === text) return hit.file;
    const file = typescript.createSourceFile(fileName, text, languageVersionOrOptions);
    kept.set(key, { text, file });
    return file;
  };
  return host;
}

/**
 * `typescript.createProgram(rootNames, options)` on a `cachingCompilerHost` for the same options (one place
 * pairs the two, so a host never keys its files by options other than the program's).
 */
export function createProgramSharingDeclarations(
  typescript: typeof ts,
  rootNames: readonly string[],
  options: ts.CompilerOptions,
): ts.Program {
  return typescript.createProgram({ rootNames, options, host: cachingCompilerHost(typescript, options) });
}
