/**
 * Sets of people for the search indexes: bitsets over graph order (record idx) and string-keyed posting
 * lists (key -> ascending idx list). A bitset is a Uint32Array of ceil(n / 32) words.
 */

export type PeopleSet = Uint32Array;

export function emptySet(size: number): PeopleSet {
  return new Uint32Array((size + 31) >>> 5);
}

export function fullSet(size: number): PeopleSet {
  return fillFull(emptySet(size), size);
}

/** Sets every person of a graph of `size` people (and no bit beyond it); returns the set. */
function fillFull(set: PeopleSet, size: number): PeopleSet {
  set.fill(0xffffffff);
  const tail = size & 31;
  if (tail !== 0) set[set.length - 1] = (1 << tail) - 1;
  return set;
}

export function addPeople(set: PeopleSet, people: readonly number[]): PeopleSet {
  for (const i of people) set[i >>> 5]! |= 1 << (i & 31);
  return set;
}

export function setOf(size: number, people: readonly number[]): PeopleSet {
  return addPeople(emptySet(size), people);
}

/** a := a AND b (in place); returns a. */
export function intersectInto(a: PeopleSet, b: PeopleSet): PeopleSet {
  for (let w = 0; w < a.length; w++) a[w]! &= b[w]!;
  return a;
}

/** a := a OR b (in place); returns a. */
export function unionInto(a: PeopleSet, b: PeopleSet): PeopleSet {
  for (let w = 0; w < a.length; w++) a[w]! |= b[w]!;
  return a;
}

/** a := a AND NOT b (in place); returns a. */
export function subtractInto(a: PeopleSet, b: PeopleSet): PeopleSet {
  for (let w = 0; w < a.length; w++) a[w]! &= ~b[w]!;
  return a;
}

export function isEmptySet(set: PeopleSet): boolean {
  for (let w = 0; w < set.length; w++) if (set[w] !== 0) return false;
  return true;
}

/** Number of set bits in one 32-bit word (SWAR popcount: no allocation, no table). */
function bitCount(word: number): number {
  word -= (word >>> 1) & 0x55555555;
  word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
  return (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Number of members, counted word by word (no member list is built). */
export function countOf(set: PeopleSet): number {
  let count = 0;
  for (let w = 0; w < set.length; w++) if (set[w] !== 0) count += bitCount(set[w]!);
  return count;
}

/** Calls `visit` on each member in ascending order. */
export function forEachMember(set: PeopleSet, visit: (idx: number) => void): void {
  for (let w = 0; w < set.length; w++) {
    let word = set[w]!;
    while (word !== 0) {
      const low = word & -word;
      visit((w << 5) + 31 - Math.clz32(low));
      word ^= low;
    }
  }
}

/** The members at positions [offset, offset + limit) of the ascending order; whole words are skipped by count. */
export function membersAt(set: PeopleSet, offset: number, limit: number): number[] {
  const out: number[] = [];
  let skip = offset;
  for (let w = 0; w < set.length && out.length < limit; w++) {
    let word = set[w]!;
    if (word === 0) continue;
    if (skip > 0) {
      const bits = bitCount(word);
      if (skip >= bits) {
        skip -= bits;
        continue;
      }
    }
    while (word !== 0 && out.length < limit) {
      const low = word & -word;
      if (skip > 0) skip--;
      else out.push((w << 5) + 31 - Math.clz32(low));
      word ^= low;
    }
  }
  return out;
}

/** The members in ascending order. */
export function membersOf(set: PeopleSet): number[] {
  const out: number[] = [];
  forEachMember(set, (idx) => out.push(idx));
  return out;
}

/**
 * key -> people (ascending, no duplicates when added in graph order). Dense lists (more than one person in
 * 64) also keep their bitset once it is first asked for, so a lookup of a common key is a word copy.
 */
export class Postings {
  private readonly lists = new Map<string, number[]>();
  private readonly dense = new Map<string, PeopleSet>();
  private sorted: string[] | null = null;

  constructor(readonly size: number) {}

  /**
   * The bitset of one existing key (shared: callers copy or only read it). A sparse key's set is built in
   * `blank()` when given (a pooled set), else in a fresh one.
   */
  private setOfKey(key: string, list: readonly number[], blank?: () => PeopleSet): PeopleSet {
    let set = this.dense.get(key);
    if (!set) {
      const isDense = list.length * 64 > this.size;
      set = addPeople(blank && !isDense ? blank() : emptySet(this.size), list);
      if (isDense) this.dense.set(key, set);
    }
    return set;
  }

  /** Adds the people under one key to a set. */
  private addTo(set: PeopleSet, key: string, list: readonly number[]): void {
    if (list.length * 64 > this.size) unionInto(set, this.setOfKey(key, list));
    else addPeople(set, list);
  }

  add(key: string, idx: number): void {
    if (this.dense.size > 0) this.dense.clear();
    const list = this.lists.get(key);
    if (!list) {
      this.lists.set(key, [idx]);
      this.sorted = null;
    } else if (list[list.length - 1] !== idx) list.push(idx);
  }

  /** People under exactly this key (an empty set when absent); a fresh set the caller may change. */
  get(key: string): PeopleSet {
    const set = this.peek(key);
    return set === null ? emptySet(this.size) : this.dense.get(key) === set ? set.slice() : set;
  }

  /**
   * People under exactly this key, null when absent; may be the kept set of a dense key: read it, never
   * change it. `blank` supplies the set a sparse key is built in (a pooled set; a fresh one by default).
   */
  peek(key: string, blank?: () => PeopleSet): PeopleSet | null {
    const list = this.lists.get(key);
    return list ? this.setOfKey(key, list, blank) : null;
  }

  /** People under any key accepted by the test (tested once per distinct key), added to `set`. */
  where(test: (key: string) => boolean, set: PeopleSet = emptySet(this.size)): PeopleSet {
    for (const [key, list] of this.lists) if (test(key)) this.addTo(set, key, list);
    return set;
  }

  /** People under any key starting with the prefix, added to `set`. */
  withPrefix(prefix: string, set: PeopleSet = emptySet(this.size)): PeopleSet {
    const keys = (this.sorted ??= [...this.lists.keys()].sort());
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < keys.length && keys[k]!.startsWith(prefix); k++)
      this.addTo(set, keys[k]!, this.lists.get(keys[k]!)!);
    return set;
  }
}

/**
 * Working sets reused from one search plan to the next, so a request allocates no set: at 500,000 people a
 * set is 62 KB outside the JavaScript heap, and that memory, allocated per request, makes the collector mark
 * the whole graph every few hundred requests. `reset()` starts a plan and takes back every set handed out.
 */
export class SetPool {
  private readonly sets: PeopleSet[] = [];
  private used = 0;

  constructor(readonly size: number) {}

  reset(): void {
    this.used = 0;
  }

  empty(): PeopleSet {
    let set = this.sets[this.used];
    if (set) set.fill(0);
    else this.sets.push((set = emptySet(this.size)));
    this.used++;
    return set;
  }

  copy(of: PeopleSet): PeopleSet {
    const set = this.empty();
    set.set(of);
    return set;
  }

  full(): PeopleSet {
    return fillFull(this.empty(), this.size);
  }
}
