/**
 * Sets of people for the search indexes: ascending lists of person indexes (record idx, graph order), posting
 * lists per key, and the same sets as bits (person `idx` is bit `idx & 31` of word `idx >>> 5`), which a search
 * plan combines word by word, so that long lists cost a word per 32 people however many of them are in it.
 */

/** Person indexes, ascending, without repeats. */
export type People = readonly number[];

/** A set of people as bits, one word per 32 people. */
export type Bits = Uint32Array;

/** key -> the people under it. */
export type Postings = Map<string, number[]>;

/** Adds a person under a key (people are added in graph order; adding the same person again does nothing). */
export function post(postings: Postings, key: string, idx: number): void {
  const list = postings.get(key);
  if (list === undefined) postings.set(key, [idx]);
  else if (list[list.length - 1] !== idx) list.push(idx);
}

/** The lists under the keys the test accepts. */
export function where(postings: Postings, test: (key: string) => boolean): People[] {
  const lists: People[] = [];
  for (const [key, list] of postings) if (test(key)) lists.push(list);
  return lists;
}

/** Whether the bits hold the person. */
export function has(bits: Bits, idx: number): boolean {
  return ((bits[idx >>> 5]! >>> (idx & 31)) & 1) === 1;
}

/**
 * The people in any of the sets as new bits, among `size` people: a list's bits are set one by one, unless
 * `known` holds them (the index keeps the bits of its long lists), then they are or-ed word by word.
 */
export function union(size: number, sets: readonly (People | Bits)[], known?: ReadonlyMap<People, Bits>): Bits {
  const out = new Uint32Array((size + 31) >>> 5);
  for (const set of sets) {
    const bits = set instanceof Uint32Array ? set : known?.get(set);
    if (bits) for (let w = 0; w < out.length; w++) out[w]! |= bits[w]!;
    else for (const idx of set as People) out[idx >>> 5]! |= 1 << (idx & 31);
  }
  return out;
}

/** The people in every `keep` set (all of `everyone` when none) and in no `drop` set, as new bits. */
export function common(everyone: Bits, keep: readonly Bits[], drop: readonly Bits[]): Bits {
  const out = Uint32Array.from(keep[0] ?? everyone);
  for (const set of keep.slice(1)) for (let w = 0; w < out.length; w++) out[w]! &= set[w]!;
  for (const set of drop) for (let w = 0; w < out.length; w++) out[w]! &= ~set[w]!;
  return out;
}

/** How many people the bits hold. */
export function count(bits: Bits): number {
  let n = 0;
  for (let word of bits) {
    // The bits of each 2, 4 and 8 bits summed in place; the 4 byte sums added up in the top byte.
    word -= (word >>> 1) & 0x55555555;
    word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
    n += Math.imul((word + (word >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  return n;
}

/** The people of the bits, ascending, who pass the test, until `limit` of them. */
export function peopleOf(bits: Bits, limit = Infinity, test = (_idx: number) => true): number[] {
  const out: number[] = [];
  for (let w = 0; w < bits.length && out.length < limit; w++) {
    for (let word = bits[w]!; word !== 0 && out.length < limit; word &= word - 1) {
      const idx = (w << 5) | (31 - Math.clz32(word & -word));
      if (test(idx)) out.push(idx);
    }
  }
  return out;
}
