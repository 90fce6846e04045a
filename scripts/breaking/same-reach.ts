/**
 * Whether a node of the base and the node at the same place in the head are written the same (keys in the same
 * order), and so is everything their local $refs reach. An operation whose whole reach is the same on both sides
 * gives the rules nothing to report and the safety net no difference to find, so the differ can skip it: a pull
 * request that changes one schema is compared only where that schema is used. One instance per comparison: its
 * memo of $ref targets belongs to that pair of documents.
 */
import { type Obj, resolvePointer } from "../../contract-core/index.js";

export class SameReach {
  /** Local $refs whose targets were found the same (true) or different (false) in the two documents. */
  private readonly settled = new Map<string, boolean>();
  /**
   * $refs being compared in the current call, with their targets in the base and the head: assumed the same while
   * those are walked (a cycle).
   */
  private pending = new Map<string, [unknown, unknown]>();
  /** Base nodes found the same as a head node, with everything they reach: that head node. */
  private readonly found = new WeakMap<object, unknown>();
  declare private readonly base: Obj;
  declare private readonly head: Obj;

  constructor(base: Obj, head: Obj) {
    this.base = base;
    this.head = head;
  }

  /** The base's `b` and the head's `h`, and everything they reach through local $refs, are written the same. */
  same(b: unknown, h: unknown): boolean {
    this.pending = new Map();
    const result = this.equal(b, h);
    // A $ref found the same while another was assumed the same holds only if that assumption held: it did when
    // the whole answer is yes. A difference found is a difference whatever was assumed.
    if (!result) return false;
    this.remember(b, h);
    for (const [ref, [tb, th]] of this.pending) {
      this.settled.set(ref, true);
      this.remember(tb, th);
    }
    return true;
  }

  /** Whether `same(b, h)` (or a $ref it followed) found the base's `b` and the head's `h` the same. */
  known(b: unknown, h: unknown): boolean {
    return b !== null && typeof b === "object" && this.found.get(b) === h;
  }

  private remember(b: unknown, h: unknown): void {
    if (b !== null && typeof b === "object") this.found.set(b, h);
  }

  private equal(b: unknown, h: unknown): boolean {
    if (b === h) return true;
    if (b === null || h === null || typeof b !== "object" || typeof h !== "object") return false;
    if (Array.isArray(b) !== Array.isArray(h)) return false;
    if (Array.isArray(b)) {
      const other = h as unknown[];
      if (b.length !== other.length) return false;
      for (let i = 0; i < b.length; i += 1) if (!this.equal(b[i], other[i])) return false;
      return true;
    }
    const [ob, oh] = [b as Obj, h as Obj];
    const keys = Object.keys(ob);
    const otherKeys = Object.keys(oh);
    if (keys.length !== otherKeys.length) return false;
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i]!;
      if (key !== otherKeys[i] || !this.equal(ob[key], oh[key])) return false;
    }
    const ref = ob.$ref;
    return typeof ref === "string" && ref.startsWith("#") ? this.target(ref) : true;
  }

  private target(ref: string): boolean {
    const known = this.settled.get(ref);
    if (known !== undefined) return known;
    if (this.pending.has(ref)) return true;
    const targets: [unknown, unknown] = [resolvePointer(this.base, ref), resolvePointer(this.head, ref)];
    this.pending.set(ref, targets);
    const result = this.equal(...targets);
    if (!result) {
      this.pending.delete(ref);
      this.settled.set(ref, false);
    }
    return result;
  }
}
