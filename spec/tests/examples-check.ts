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
  const visitContent = (base: string, content: unknown) => {
    if (!isObj(content)) return;
    for (const [type, media] of Object.entries(content)) {
      if (!isObj(media)) continue;
      check(`${base}/${esc(type)}/schema`, media.schema, exampleValues(`${base}/${esc(type)}`, media));
    }
  };
  const visitParams = (base: string, params: unknown) => {
    if (!Array.isArray(params)) return;
    params.forEach((p, i) => {
      const param = deref(doc, p);
      if (isObj(param)) check(`${base}/${i}/schema`, param.schema, exampleValues(`${base}/${i}`, param));
    });
  };
  const visitHeaders = (base: string, headers: unknown) => {
    if (!isObj(headers)) return;
    for (const [name, h] of Object.entries(headers)) {
      const header = deref(doc, h);
      if (isObj(header))
        check(`${base}/${esc(name)}/schema`, header.schema, exampleValues(`${base}/${esc(name)}`, header));
    }
  };
  for (const [path, item] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    if (!isObj(item)) continue;
    const base = `#/paths/${esc(path)}`;
    visitParams(`${base}/parameters`, item.parameters);
    for (const [method, op] of Object.entries(item)) {
      if (!isObj(op) || method === "parameters") continue;
      visitParams(`${base}/${method}/parameters`, op.parameters);
      const body = deref(doc, op.requestBody);
      if (isObj(body)) visitContent(`${base}/${method}/requestBody/content`, body.content);
      for (const [status, r] of Object.entries(isObj(op.responses) ? op.responses : {})) {
        const resp = deref(doc, r);
        if (!isObj(resp)) continue;
        visitContent(`${base}/${method}/responses/${status}/content`, resp.content);
        visitHeaders(`${base}/${method}/responses/${status}/headers`, resp.headers);
      }
    }
  }
  return { checked, problems };
}
