/**
 * UTF-8 bytes assembled from chunks: pre-encoded byte chunks (cached row JSON) and small strings (per-request
 * JSON), copied once into one array, so a large answer is never built as one string and encoded again.
 * Portable (TextEncoder, Uint8Array): runs in Node and in a browser.
 */

const encoder = new TextEncoder();

export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/** Writes `text` as UTF-8 at `pos` (room for 3 bytes per UTF-16 unit is assumed); returns the end. */
function writeUtf8(out: Uint8Array, pos: number, text: string): number {
  // Per-request strings are short and mostly ASCII: a plain loop beats encodeInto's call overhead.
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) return pos + encoder.encodeInto(text.slice(i), out.subarray(pos)).written;
    out[pos++] = code;
  }
  return pos;
}

export class Utf8Chunks {
  private readonly chunks: (string | Uint8Array)[] = [];
  /** An upper bound of the encoded length (a UTF-16 unit takes at most 3 bytes). */
  private bound = 0;

  text(text: string): this {
    this.chunks.push(text);
    this.bound += text.length * 3;
    return this;
  }

  bytes(bytes: Uint8Array): this {
    this.chunks.push(bytes);
    this.bound += bytes.length;
    return this;
  }

  /** The chunks' bytes in order, in one array (a view of exactly the written bytes). */
  finish(): Uint8Array<ArrayBuffer> {
    const out = new Uint8Array(this.bound);
    let pos = 0;
    for (const chunk of this.chunks) {
      if (typeof chunk === "string") pos = writeUtf8(out, pos, chunk);
      else {
        out.set(chunk, pos);
        pos += chunk.length;
      }
    }
    return out.subarray(0, pos);
  }
}
