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
/** Texts up to this length are copied unit by unit when they are ASCII. */
const SHORT_TEXT = 32;
/** Most emptied slabs kept for reuse (fresh memory costs page faults on every answer written into it). */
const SLABS_KEPT = 4;

interface Slab {
  bytes: Uint8Array<ArrayBuffer>;
  /** Answers being written or not yet released in this slab; only a slab with none is reused. */
  holders: number;
}

/** Where the next answer is written, and the slabs every answer of which was released. */
const shared = { slab: { bytes: new Uint8Array(0), holders: 0 } as Slab, end: 0 };
const kept: Slab[] = [];
const slabOf = new WeakMap<ArrayBuffer, Slab>();

function newSlab(bytes: number): Slab {
  const slab =
    bytes <= SLAB_BYTES && kept.length > 0
      ? kept.pop()!
      : { bytes: new Uint8Array(Math.max(SLAB_BYTES, bytes)), holders: 0 };
  slabOf.set(slab.bytes.buffer, slab);
  return slab;
}

/** A slab no answer holds and that is no longer the one being written is kept for reuse. */
function keepIfFree(slab: Slab): void {
  if (slab.holders === 0 && slab !== shared.slab && slab.bytes.length === SLAB_BYTES && kept.length < SLABS_KEPT)
    kept.push(slab);
}

function letGo(slab: Slab): void {
  slab.holders--;
  keepIfFree(slab);
}

/**
 * Hands an answer's bytes back once a host has sent them (the bytes were given to the operating system):
 * their slab may then be written again. Bytes never released are never written again (their slab is left
 * to the collector), so a host that cannot tell when sending is done simply does not release.
 */
export function releaseBytes(bytes: Uint8Array): void {
  const slab = slabOf.get(bytes.buffer as ArrayBuffer);
  if (slab) letGo(slab);
}

export class Utf8Chunks {
  private slab: Slab | null = null;
  private start = 0;
  private end = 0;

  /** The slab's bytes, with room for `bytes` more bytes after this answer's. */
  private reserve(bytes: number): Uint8Array<ArrayBuffer> {
    const slab = this.slab;
    if (slab === shared.slab && this.end === shared.end && slab.bytes.length - this.end >= bytes) return slab.bytes;
    // First write, another answer written since, or a full slab: this answer moves to the free end (of a
    // new slab when there is no room), with what it has written so far.
    const written = this.end - this.start;
    if (shared.slab.bytes.length - shared.end < written + bytes) {
      const full = shared.slab;
      shared.slab = newSlab(2 * (written + bytes));
      shared.end = 0;
      keepIfFree(full);
    }
    const to = shared.slab;
    if (slab !== null) to.bytes.set(slab.bytes.subarray(this.start, this.end), shared.end);
    to.holders++;
    if (slab !== null) letGo(slab);
    this.slab = to;
    this.start = shared.end;
    this.end = shared.end + written;
    shared.end = this.end;
    return to.bytes;
  }

  text(text: string): this {
    // A UTF-16 unit takes at most 3 bytes.
    const bytes = this.reserve(text.length * 3);
    let end = this.end;
    // Short ASCII (separators, small JSON) is copied directly: encodeInto costs a view and a call per string.
    if (text.length <= SHORT_TEXT) {
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (code >= 0x80) {
          end = this.end + encoder.encodeInto(text, bytes.subarray(this.end)).written;
          break;
        }
        bytes[end++] = code;
      }
    } else end += encoder.encodeInto(text, bytes.subarray(end)).written;
    this.end = end;
    shared.end = end;
    return this;
  }

  bytes(chunk: Uint8Array): this {
    const bytes = this.reserve(chunk.length);
    bytes.set(chunk, this.end);
    this.end += chunk.length;
    shared.end = this.end;
    return this;
  }

  /** The bytes written, in order: a view of the slab, not written again unless released (`releaseBytes`). */
  finish(): Uint8Array<ArrayBuffer> {
    if (this.slab === null) return new Uint8Array(0);
    return this.slab.bytes.subarray(this.start, this.end);
  }
}
