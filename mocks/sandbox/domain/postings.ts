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

/** The people in both lists. */
export function intersect(a: People, b: People): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out.push(a[i]!);
      i++;
      j++;
    }
  }
  return out;
}

/** The people of `a` who are not in `b`. */
export function subtract(a: People, b: People): number[] {
  const out: number[] = [];
  let j = 0;
  for (const idx of a) {
    while (j < b.length && b[j]! < idx) j++;
    if (b[j] !== idx) out.push(idx);
  }
  return out;
}

/** The people in any of the lists, among `size` people. */
export function union(size: number, lists: readonly People[]): People {
  if (lists.length <= 1) return lists[0] ?? [];
  const marked = new Uint8Array(size);
  for (const list of lists) for (const idx of list) marked[idx] = 1;
  const out: number[] = [];
  for (let idx = 0; idx < size; idx++) if (marked[idx] === 1) out.push(idx);
  return out;
}
