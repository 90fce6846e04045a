/**
 * SHA-256 of a UTF-8 string as hex, in plain TypeScript: ids and deterministic "randomness" are derived
 * from it, and the sandbox core must run in a browser as well as in Node (no node:crypto).
 */
/** The first 64 primes. */
const PRIMES: number[] = [];
for (let n = 2; PRIMES.length < 64; n++) if (PRIMES.every((p) => n % p)) PRIMES.push(n);
/** The first 32 bits of the fractional part of `x`. */
const fraction32 = (x: number) => ((x - Math.floor(x)) * 0x1_0000_0000) >>> 0;
/**
 * The constants as FIPS 180-4 (4.2.2, 5.3.3) defines them: the fractional parts of the cube roots of the first
 * 64 primes, and of the square roots of the first 8 (sha256.test.ts checks them against the standard's table).
 */
export const K = new Uint32Array(PRIMES.map((p) => fraction32(Math.cbrt(p))));
export const INITIAL = PRIMES.slice(0, 8).map((p) => fraction32(Math.sqrt(p)));
const encoder = new TextEncoder();
/** The message schedule, reused by every call (a call runs to its end before another can start). */
const w = new Uint32Array(64);
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
const hex32 = (x: number) => HEX[x >>> 24]! + HEX[(x >>> 16) & 0xff]! + HEX[(x >>> 8) & 0xff]! + HEX[x & 0xff]!;

export function sha256Hex(text: string): string {
  const data = encoder.encode(text);
  const blocks = Math.ceil((data.length + 9) / 64);
  const bytes = new Uint8Array(blocks * 64);
  bytes.set(data);
  bytes[data.length] = 0x80;
  const bits = data.length * 8;
  const end = bytes.length;
  const high = Math.floor(bits / 0x1_0000_0000);
  const low = bits >>> 0;
  for (let i = 0; i < 4; i++) {
    bytes[end - 8 + i] = (high >>> (24 - 8 * i)) & 0xff;
    bytes[end - 4 + i] = (low >>> (24 - 8 * i)) & 0xff;
  }
  let [h0, h1, h2, h3, h4, h5, h6, h7] = INITIAL as [number, number, number, number, number, number, number, number];
  for (let block = 0; block < blocks; block++) {
    for (let i = 0, o = block * 64; i < 16; i++, o += 4)
      w[i] = (bytes[o]! << 24) | (bytes[o + 1]! << 16) | (bytes[o + 2]! << 8) | bytes[o + 3]!;
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!,
        b = w[i - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = h0,
      b = h1,
      c = h2,
      d = h3,
      e = h4,
      f = h5,
      g = h6,
      h = h7;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  return hex32(h0) + hex32(h1) + hex32(h2) + hex32(h3) + hex32(h4) + hex32(h5) + hex32(h6) + hex32(h7);
}
