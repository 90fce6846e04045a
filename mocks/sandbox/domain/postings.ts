/**
 * Sets of people for the search indexes: ascending lists of person indexes (record idx, graph order) and posting
 * lists per key, with the two ways a search combines them (in any list, in every list).
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

/** The lists under the keys the test accepts. */
export function where(postings: Postings, test: (key: string) => boolean): People[] {
  const lists: People[] = [];
  for (const [key, list] of postings) if (test(key)) lists.push(list);
  return lists;
}

/** The people in any of the lists, ascending (among `size` people). */
export function union(size: number, lists: readonly People[]): People {
  if (lists.length === 1) return lists[0]!;
  const seen = new Uint8Array(size);
  for (const list of lists) for (const idx of list) seen[idx] = 1;
  const out: number[] = [];
  for (let idx = 0; idx < size; idx++) if (seen[idx] === 1) out.push(idx);
  return out;
}

/** The people in every list, ascending (the shortest list read first; none: undefined, no narrowing). */
export function intersect(lists: readonly People[]): People | undefined {
  const [first, ...rest] = [...lists].sort((a, b) => a.length - b.length);
  let out = first;
  for (const list of rest) {
    if (out!.length === 0) break;
    const kept: number[] = [];
    let j = 0;
    for (const idx of out!) {
      while (j < list.length && list[j]! < idx) j++;
      if (list[j] === idx) kept.push(idx);
    }
    out = kept;
  }
  return out;
}

/** The people not in the list (among `size` people), ascending. */
export function complement(size: number, list: People): People {
  const out: number[] = [];
  let j = 0;
  for (let idx = 0; idx < size; idx++) {
    if (list[j] === idx) j++;
    else out.push(idx);
  }
  return out;
}
