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

/** Adds the first `count` people of a list (all of them by default) to a set; returns the set. */
export function addPeople(set: PeopleSet, people: ArrayLike<number>, count = people.length): PeopleSet {
  for (let k = 0; k < count; k++) {
    const i = people[k]!;
    set[i >>> 5]! |= 1 << (i & 31);
  }
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

/** Number of set bits in one 32-bit word (SWAR popcount: no allocation, no table). */
function bitCount(word: number): number {
  word -= (word >>> 1) & 0x55555555;
  word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
  return (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Most sets a conjunction ANDs, and most it ORs, in its one pass (a plan merges the rest beforehand). */
export const MAX_ALL = 4;
export const MAX_ANY = 3;

/**
 * The people in every set of `all` and, when `any` is not empty, in at least one set of `any` (at most
 * MAX_ALL and MAX_ANY sets, at least one set in all; the sets are only read).
 */
export interface Conjunction {
  readonly all: readonly PeopleSet[];
  readonly any: readonly PeopleSet[];
}

/** A set of every bit and one of none, per word count: what a conjunction's unused slots read. */
const paddings = new Map<number, { ones: PeopleSet; none: PeopleSet }>();

function paddingOf(words: number): { ones: PeopleSet; none: PeopleSet } {
  let padding = paddings.get(words);
  if (!padding) {
    if (paddings.size >= 8) paddings.clear();
    paddings.set(words, (padding = { ones: new Uint32Array(words).fill(0xffffffff), none: new Uint32Array(words) }));
  }
  return padding;
}

/**
 * The conjunction's sets in the kernel's seven slots: four ANDed and three ORed (unused AND slots read all
 * ones; without ORed sets the first OR slot reads all ones). Fixed slots keep the one pass a single
 * expression per word, several times faster than looping over a list of sets per word.
 */
function slotsOf(c: Conjunction): PeopleSet[] {
  if (c.all.length === 0 || c.all.length > MAX_ALL || c.any.length > MAX_ANY)
    throw new Error(`a conjunction takes 1 to ${MAX_ALL} ANDed and at most ${MAX_ANY} ORed sets`);
  const { ones, none } = paddingOf(c.all[0]!.length);
  const slots = [...c.all];
  while (slots.length < MAX_ALL) slots.push(ones);
  slots.push(...c.any);
  if (c.any.length === 0) slots.push(ones);
  while (slots.length < MAX_ALL + MAX_ANY) slots.push(none);
  return slots;
}

export interface CountedPage {
  /** The number of members, exact unless it reached `countUpTo` (then at least `countUpTo`). */
  count: number;
  /** The members at positions [offset, offset + limit) of the ascending order. */
  members: number[];
}

/**
 * Counts the members of a conjunction and takes one page of them, in one pass, word by word (no set of the
 * conjunction is built). The pass stops once the page is taken and `countUpTo` members are counted.
 */
export function countAndPage(c: Conjunction, offset: number, limit: number, countUpTo = Infinity): CountedPage {
  const members: number[] = [];
  const count = scan(c, offset, offset + Math.max(0, limit), countUpTo, (idx) => members.push(idx));
  return { count, members };
}

/** Calls `visit` on each member of a conjunction, in ascending order. */
export function forEachMemberOfAll(c: Conjunction, visit: (idx: number) => void): void {
  scan(c, 0, Infinity, Infinity, visit);
}

/** The one pass: visits the members at positions [from, to), counts until `countUpTo` and `to` are reached. */
function scan(c: Conjunction, from: number, to: number, countUpTo: number, visit: (idx: number) => void): number {
  const [a, b, d, e, f, g, h] = slotsOf(c) as [
    PeopleSet,
    PeopleSet,
    PeopleSet,
    PeopleSet,
    PeopleSet,
    PeopleSet,
    PeopleSet,
  ];
  let count = 0;
  for (let w = 0; w < a.length; w++) {
    let word = a[w]! & b[w]! & d[w]! & e[w]! & (f[w]! | g[w]! | h[w]!);
    if (word === 0) continue;
    const bits = bitCount(word);
    // Members to visit are in this word: its bits in order.
    if (count + bits > from && count < to) {
      let at = count;
      while (word !== 0 && at < to) {
        const low = word & -word;
        if (at >= from) visit((w << 5) + 31 - Math.clz32(low));
        at++;
        word ^= low;
      }
    }
    count += bits;
    if (count >= countUpTo && count >= to) break;
  }
  return count;
}

const only = (set: PeopleSet): Conjunction => ({ all: [set], any: [] });

/** Number of members, counted word by word (no member list is built). */
export function countOf(set: PeopleSet): number {
  return countAndPage(only(set), 0, 0).count;
}

/** Calls `visit` on each member in ascending order. */
export function forEachMember(set: PeopleSet, visit: (idx: number) => void): void {
  forEachMemberOfAll(only(set), visit);
}

/** The members at positions [offset, offset + limit) of the ascending order. */
export function membersAt(set: PeopleSet, offset: number, limit: number): number[] {
  return countAndPage(only(set), offset, limit, 0).members;
}

/** The members in ascending order. */
export function membersOf(set: PeopleSet): number[] {
  const out: number[] = [];
  forEachMember(set, (idx) => out.push(idx));
  return out;
}

/** People per chunk of a posting list (a power of two: a list's last chunk wastes at most this many slots). */
const CHUNK = 1024;

/**
 * Chunks for the posting lists of one index, carved from blocks that double in size: a large graph's lists
 * hold tens of millions of entries, and lists grown by reallocating would allocate twice their bytes outside
 * the heap, which V8 answers with extra full collections of the whole graph.
 */
class ChunkArena {
  private block = new Int32Array(0);
  private used = 0;
  private chunks = 0;

  take(): Int32Array {
    if (this.used === this.block.length) {
      this.block = new Int32Array(CHUNK * Math.min(256, Math.max(1, this.chunks)));
      this.used = 0;
    }
    const chunk = this.block.subarray(this.used, this.used + CHUNK);
    this.used += CHUNK;
    this.chunks++;
    return chunk;
  }
}

/**
 * One key's people, ascending (no duplicates when added in graph order), in fixed-size typed chunks: 4 bytes
 * a person where a JS array of indexes takes 8, and no copying as a list grows. A dense list (more than one
 * person in 64) also keeps its bitset once it is first asked for.
 */
export class PostingList {
  readonly chunks: Int32Array[] = [];
  length = 0;
  /** The list's bitset, kept while no person is added (dense lists only). */
  dense: PeopleSet | undefined = undefined;
  declare private readonly arena: ChunkArena;

  constructor(arena: ChunkArena) {
    this.arena = arena;
  }

  add(idx: number): void {
    const n = this.length;
    const at = n & (CHUNK - 1);
    if (n > 0 && this.chunks[this.chunks.length - 1]![(n - 1) & (CHUNK - 1)] === idx) return;
    if (at === 0) this.chunks.push(this.arena.take());
    this.chunks[this.chunks.length - 1]![at] = idx;
    this.length = n + 1;
    this.dense = undefined;
  }

  /** Adds the list's people to a set; returns the set. */
  addTo(set: PeopleSet): PeopleSet {
    for (let c = 0; c < this.chunks.length; c++)
      addPeople(set, this.chunks[c]!, Math.min(CHUNK, this.length - c * CHUNK));
    return set;
  }
}

/** key -> people (a PostingList per key); lookups by key, by any key a test accepts, and by key prefix. */
export class Postings {
  private readonly lists = new Map<string, PostingList>();
  private readonly arena = new ChunkArena();
  private sorted: string[] | null = null;
  declare readonly size: number;

  constructor(size: number) {
    this.size = size;
  }

  /** The list of a key, made empty when absent (a builder adds to it directly: no lookup per person). */
  listOf(key: string): PostingList {
    let list = this.lists.get(key);
    if (!list) {
      this.lists.set(key, (list = new PostingList(this.arena)));
      this.sorted = null;
    }
    return list;
  }

  add(key: string, idx: number): void {
    this.listOf(key).add(idx);
  }

  /**
   * The bitset of one existing list (shared: callers copy or only read it). A sparse list's set is built in
   * `blank()` when given (a pooled set), else in a fresh one.
   */
  private setOfList(list: PostingList, blank?: () => PeopleSet): PeopleSet {
    if (list.dense) return list.dense;
    const isDense = list.length * 64 > this.size;
    const set = list.addTo(blank && !isDense ? blank() : emptySet(this.size));
    if (isDense) list.dense = set;
    return set;
  }

  /** Adds the people of one list to a set. */
  private addTo(set: PeopleSet, list: PostingList): void {
    if (list.length * 64 > this.size) unionInto(set, this.setOfList(list));
    else list.addTo(set);
  }

  /** People under exactly this key (an empty set when absent); a fresh set the caller may change. */
  get(key: string): PeopleSet {
    const list = this.lists.get(key);
    if (!list) return emptySet(this.size);
    const set = this.setOfList(list);
    return list.dense === set ? set.slice() : set;
  }

  /**
   * People under exactly this key, null when absent; may be the kept set of a dense key: read it, never
   * change it. `blank` supplies the set a sparse key is built in (a pooled set; a fresh one by default).
   */
  peek(key: string, blank?: () => PeopleSet): PeopleSet | null {
    const list = this.lists.get(key);
    return list ? this.setOfList(list, blank) : null;
  }

  /** People under any key accepted by the test (tested once per distinct key), added to `set`. */
  where(test: (key: string) => boolean, set: PeopleSet = emptySet(this.size)): PeopleSet {
    for (const [key, list] of this.lists) if (test(key)) this.addTo(set, list);
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
    for (let k = lo; k < keys.length && keys[k]!.startsWith(prefix); k++) this.addTo(set, this.lists.get(keys[k]!)!);
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
  declare readonly size: number;

  constructor(size: number) {
    this.size = size;
  }

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
