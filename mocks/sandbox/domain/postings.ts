/**
 * Sets of people for the search indexes: ascending lists of person indexes (record idx, graph order), posting
 * lists per key, and the three set operations a search plan needs.
 */

/** Person indexes, ascending, without repeats. */
export type People = readonly number[];

/** key -> the people under it. */
export type Postings = Map<string, number[]>;

/** Adds a person under a key (people are added in graph order; adding the same person again does nothing). */
export function post(postings: Postings, key: string, idx: number): void {
  const list = postings.get(key);
  if (list === undefined) postings.set(key, [idx]);
  else if (list[list.length - 1] !== idx) list.push(idx);
}

/** The people under any key the test accepts, among `size` people. */
export function where(size: number, postings: Postings, test: (key: string) => boolean): People {
  const lists: People[] = [];
  for (const [key, list] of postings) if (test(key)) lists.push(list);
  return union(size, lists);
}

/**
 * The first position at or after `from` whose person is not below `idx` (the list's length when none): steps
 * that double while they stay below, then halve, so a walk costs little where the list is much longer.
 */
export function seek(list: People, from: number, idx: number): number {
  let at = from;
  let step = 1;
  for (; at + step <= list.length && list[at + step - 1]! < idx; step *= 2) at += step;
  while (step > 1) {
    step /= 2;
    if (at + step <= list.length && list[at + step - 1]! < idx) at += step;
  }
  return at;
}

/** The people in both lists. */
export function intersect(a: People, b: People): number[] {
  if (a.length > b.length) return intersect(b, a);
  let at = 0;
  return a.filter((idx) => b[(at = seek(b, at, idx))] === idx);
}

/** The people of `a` who are not in `b`. */
export function subtract(a: People, b: People): number[] {
  let at = 0;
  return a.filter((idx) => b[(at = seek(b, at, idx))] !== idx);
}

/** The people in any of the lists, among `size` people. */
export function union(size: number, lists: readonly People[]): People {
  const given = lists.filter((list) => list.length > 0);
  if (given.length <= 1) return given[0] ?? [];
  const marked = new Uint8Array(size);
  for (const list of given) for (const idx of list) marked[idx] = 1;
  const out: number[] = [];
  for (let idx = 0; idx < size; idx++) if (marked[idx] === 1) out.push(idx);
  return out;
}
