/**
 * A JSON request body's text, read the way both servers read it: UTF-8 without a byte order mark. RFC 8259
 * (section 8.1) requires UTF-8 for JSON exchanged between systems and forbids adding a BOM to a networked JSON
 * text (a parser MAY ignore one); the reference's JSON bodies are `application/json`, and it answers invalid JSON
 * with 400 invalid_request, so a body that is not UTF-8, or starts with a BOM, is refused with the same 400 by the
 * mock and the sandbox, naming where, never decoded with U+FFFD in place of its bad bytes.
 */

export type JsonText = { ok: true; text: string } | { ok: false; message: string };

const BOM_MESSAGE =
  "request body starts with a byte order mark (U+FEFF); a JSON text sent over a network carries none (RFC 8259, 8.1)";

/** The body's text; a refusal naming the byte offset of the first byte that is not UTF-8, or the BOM. */
export function jsonTextOf(body: string | Uint8Array): JsonText {
  if (typeof body === "string")
    return body.charCodeAt(0) === 0xfeff ? { ok: false, message: BOM_MESSAGE } : { ok: true, text: body };
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { ok: false, message: BOM_MESSAGE };
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body) };
  } catch {
    return { ok: false, message: `request body is not valid UTF-8 (at byte offset ${invalidUtf8At(body)})` };
  }
}

/** Where the first ill-formed UTF-8 sequence starts (Unicode 3.9, D92: overlong forms and surrogates are ill-formed). */
export function invalidUtf8At(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const tail =
      lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : -1;
    if (tail < 0) return i;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= tail; k++) {
      const next = bytes[i + k];
      if (next === undefined) return i;
      if (k === 1 ? next < low || next > high : (next & 0xc0) !== 0x80) return i;
    }
    i += tail + 1;
  }
  return -1;
}
