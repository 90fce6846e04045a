/**
 * Validates every example in an OpenAPI document against its schema with Ajv's 2020-12 class (the same Ajv
 * set-up as the contract tests): media-type `example`/`examples`, parameter and header examples.
 */
import { createSpecCompiler, deref, escapeToken as esc, isObj, type Obj } from "../../contract-core/index.js";

export interface ExampleProblem {
  location: string;
  errors: string[];
}

export function checkExamples(doc: Obj): { checked: number; problems: ExampleProblem[] } {
  const { compile } = createSpecCompiler(doc);
  const problems: ExampleProblem[] = [];
  let checked = 0;

  const check = (schemaPointer: string, schema: unknown, examples: [string, unknown][]) => {
    if (!schema || examples.length === 0) return;
    const validate = compile(schema);
    for (const [where, value] of examples) {
      checked++;
      if (!validate(value)) {
        problems.push({
          location: where,
          errors: (validate.errors ?? []).map(
            (e) => `${e.instancePath || "/"} ${e.message ?? ""} (schema ${schemaPointer}${e.schemaPath})`,
          ),
        });
      }
    }
  };
  const exampleValues = (base: string, holder: Obj): [string, unknown][] => {
    const out: [string, unknown][] = [];
    if ("example" in holder) out.push([`${base}/example`, holder.example]);
    if (isObj(holder.examples)) {
      for (const [name, ex] of Object.entries(holder.examples)) {
        const resolved = deref(doc, ex);
        if (isObj(resolved) && "value" in resolved) out.push([`${base}/examples/${name}`, resolved.value]);
      }
    }
    return out;
  };
  /** Media types, parameters or headers (an object by name or an array by index), each with its schema. */
  const visit = (base: string, holders: unknown) => {
    const entries = Array.isArray(holders) ? holders.entries() : Object.entries(isObj(holders) ? holders : {});
    for (const [key, raw] of entries) {
      const holder = deref(doc, raw);
      const at = `${base}/${esc(String(key))}`;
      if (isObj(holder)) check(`${at}/schema`, holder.schema, exampleValues(at, holder));
    }
  };
  for (const [path, item] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    if (!isObj(item)) continue;
    const base = `#/paths/${esc(path)}`;
    visit(`${base}/parameters`, item.parameters);
    for (const [method, op] of Object.entries(item)) {
      if (!isObj(op) || method === "parameters") continue;
      visit(`${base}/${method}/parameters`, op.parameters);
      const body = deref(doc, op.requestBody);
      if (isObj(body)) visit(`${base}/${method}/requestBody/content`, body.content);
      for (const [status, r] of Object.entries(isObj(op.responses) ? op.responses : {})) {
        const resp = deref(doc, r);
        if (!isObj(resp)) continue;
        visit(`${base}/${method}/responses/${status}/content`, resp.content);
        visit(`${base}/${method}/responses/${status}/headers`, resp.headers);
      }
    }
  }
  return { checked, problems };
}
