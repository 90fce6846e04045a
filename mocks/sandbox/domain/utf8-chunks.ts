/**
 * UTF-8 bytes assembled from chunks: pre-encoded byte chunks (cached row JSON) and small strings (per-request
 * JSON), written once into shared slabs, so a large answer is never built as one string and encoded again.
 * Portable (TextEncoder, Uint8Array): runs in Node and in a browser.
 */

const encoder = new TextEncoder();

export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/** Bytes of one slab: answers are carved from it one after another (one allocation for many answers). */
const SLAB_BYTES = 512 * 1024;

/**
 * Where the next answer is written. A slab is never written twice: an answer is a view of its bytes that
 * stays valid (and keeps the slab alive) while it is sent, and a full slab is left to the collector.
 */
const shared: { slab: Uint8Array<ArrayBuffer>; end: number } = { slab: new Uint8Array(0), end: 0 };

export class Utf8Chunks {
  private slab = shared.slab;
  private start = shared.end;
  private end = shared.end;

  /** The slab, with room for `bytes` more bytes after this answer's. */
  private reserve(bytes: number): Uint8Array<ArrayBuffer> {
    const interrupted = this.slab !== shared.slab || this.end !== shared.end;
    if (!interrupted && shared.slab.length - this.end >= bytes) return this.slab;
    // Another answer was written since, or the slab is full: this one moves to the free end (of a new slab
    // when there is no room), with what it has written so far.
    const written = this.end - this.start;
    if (shared.slab.length - shared.end < written + bytes) {
      shared.slab = new Uint8Array(Math.max(SLAB_BYTES, 2 * (written + bytes)));
      shared.end = 0;
    }
    shared.slab.set(this.slab.subarray(this.start, this.end), shared.end);
    this.slab = shared.slab;
    this.start = shared.end;
    this.end = shared.end + written;
    shared.end = this.end;
    return this.slab;
  }

  text(text: string): this {
    // A UTF-16 unit takes at most 3 bytes.
    const slab = this.reserve(text.length * 3);
    this.end += encoder.encodeInto(text, slab.subarray(this.end)).written;
    shared.end = this.end;
    return this;
  }

  bytes(bytes: Uint8Array): this {
    const slab = this.reserve(bytes.length);
    slab.set(bytes, this.end);
    this.end += bytes.length;
    shared.end = this.end;
    return this;
  }

  /** The bytes written, in order: a view of the slab, never written again. */
  finish(): Uint8Array<ArrayBuffer> {
    return this.slab.subarray(this.start, this.end);
  }
}
