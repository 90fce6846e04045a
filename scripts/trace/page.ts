/**
 * The trace page (dist/docs/trace.html, beside the API reference page): the totals, then each section of the
 * reference with its statements' ids, quotes, statuses, spec pointers (a pointer into an operation links to that
 * operation on the reference page) and checks. Self-contained: no script, no remote resource.
 */
import { cspMeta, staticPagePolicy } from "../escape/csp.js";
import { escapeHtml, fragmentHref } from "../escape/html.js";
import { totalsLine, type TraceReport } from "./trace.js";

const esc = escapeHtml;

const STYLES = `
body{font-family:system-ui,sans-serif;margin:2rem;max-width:90rem}
table{border-collapse:collapse;width:100%;margin-bottom:2rem}td,th{border:1px solid #ccc;padding:.3rem;vertical-align:top;text-align:left}
td{font-size:.85rem}code{font-size:.8rem;overflow-wrap:anywhere}.untraced,.outdated{background:#fde2e2}.informative{background:#f3f3f3}
`;

const METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

/** `index.html#operation/<operationId>` for a pointer inside an operation, when the bundle names it. */
function specLink(pointer: string, operationIds: Map<string, string>): string {
  const tokens = pointer.replace(/^#/, "").split("/").slice(1);
  if (tokens[0] === "paths" && tokens.length >= 3 && METHODS.has(tokens[2]!)) {
    const id = operationIds.get(`${tokens[1]}/${tokens[2]}`);
    if (id) return `<a href="index.html${fragmentHref(`operation/${id}`)}"><code>${esc(pointer)}</code></a>`;
  }
  return `<code>${esc(pointer)}</code>`;
}

/** `bundle` gives the operation ids for the links (optional). */
export function renderTracePage(
  report: TraceReport,
  bundle?: { paths?: Record<string, Record<string, unknown>> },
): string {
  const operationIds = new Map<string, string>();
  for (const [path, item] of Object.entries(bundle?.paths ?? {}))
    for (const [method, op] of Object.entries(item))
      if (METHODS.has(method) && typeof (op as { operationId?: unknown }).operationId === "string")
        operationIds.set(
          `${path.replaceAll("~", "~0").replaceAll("/", "~1")}/${method}`,
          (op as { operationId: string }).operationId,
        );
  const sections = new Map<string, TraceReport["statements"]>();
  for (const s of report.statements) sections.set(s.section, [...(sections.get(s.section) ?? []), s]);
  const body: string[] = [];
  for (const [section, rows] of sections) {
    body.push(
      `<h2>${esc(section)}</h2>`,
      "<table><thead><tr><th>Statement</th><th>Status</th><th>Spec</th><th>Checks</th></tr></thead><tbody>",
    );
    for (const s of rows) {
      const why = s.informative ?? s.problems.join("; ");
      body.push(
        `<tr id="${esc(s.id)}" class="${s.status}"><td><a href="${fragmentHref(s.id)}"><code>${esc(s.id)}</code></a><br>“${esc(s.quote)}”</td>` +
          `<td>${s.status}${why ? `<br><small>${esc(why)}</small>` : ""}</td>` +
          `<td>${s.spec.map((p) => specLink(p, operationIds)).join("<br>")}</td>` +
          `<td>${s.checks.map((c) => `<code>${esc(c)}</code>`).join("<br>")}</td></tr>`,
      );
    }
    body.push("</tbody></table>");
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
${cspMeta(staticPagePolicy([STYLES]))}
<title>Trace: the API reference to the spec and its checks</title>
<link rel="icon" href="data:,">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLES}</style></head><body>
<p><a href="index.html">API reference</a></p>
<h1>Trace: every statement of the API reference</h1>
<p id="totals">${esc(totalsLine(report))}</p>
<p>Each statement of the API reference, with the spec elements that encode it and the checks that prove it.</p>
${body.join("\n")}
</body></html>
`;
}
