/**
 * Where the page keeps its sandbox's state: IndexedDB, not localStorage. A day of the job clock with a few
 * watching Targets stores some 6 MB of JSON (the day's events), over Chromium's localStorage quota for an origin
 * (about 5 M characters): there the sandbox went on in memory and the next reload brought back the state from
 * before the day, dropping everything done since. IndexedDB's quota is a share of the disk.
 *
 * The format and its checks are the MSW host's (`localStorageState`: one JSON text, its version refused by
 * name when foreign, a partial change merged into the last text), run over a store held in memory: the text is
 * read once before the sandbox starts, and each text stored is put in IndexedDB, a write answered once its
 * transaction has committed. A text another tab stored since this one's last is left as it is: this tab goes on
 * in memory, with one warning (as localStorageState does with a changed item). A state an earlier page left in localStorage moves to IndexedDB on first use.
 * Where IndexedDB cannot be opened (turned off), the page uses localStorage as before.
 */
import type { StateStorage } from "../../../mocks/sandbox/contract/context.js";
import { localStorageState } from "../../../mocks/sandbox/hosts/msw/msw.js";

const DATABASE = "talent-graph-reference";
const STORE = "state";

const done = (request: IDBRequest) =>
  new Promise<unknown>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
  });
const committed = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });

function openDatabase(): Promise<IDBDatabase> {
  const request = indexedDB.open(DATABASE, 1);
  request.onupgradeneeded = () => request.result.createObjectStore(STORE);
  return done(request) as Promise<IDBDatabase>;
}

/** A Storage holding one item in memory: what localStorageState reads and replaces. */
function memoryStorage(key: string, text: string | null, stored: (text: string) => void): Storage {
  let value = text;
  return {
    get length() {
      return value === null ? 0 : 1;
    },
    key: (index) => (index === 0 && value !== null ? key : null),
    getItem: (name) => (name === key ? value : null),
    setItem(name, next) {
      if (name !== key) return;
      value = next;
      stored(next);
    },
    removeItem(name) {
      if (name === key) value = null;
    },
    clear() {
      value = null;
    },
  };
}

/**
 * The page's state storage under `key`, read before the sandbox starts. Falls back to localStorage where
 * IndexedDB cannot be opened.
 */
export async function pageStateStorage(
  key: string,
  warn: (message: string) => void = (message) => console.warn(`sandbox: ${message}`),
): Promise<StateStorage> {
  let db: IDBDatabase;
  try {
    db = await openDatabase();
  } catch {
    return localStorageState(key, globalThis.localStorage, warn);
  }
  const location = `IndexedDB ${DATABASE}/${STORE}/${key}`;
  // Beside the text, who stored it last: this tab's own mark, so a text another tab (or script) stored since is
  // seen, as localStorageState sees a changed item, and not overwritten.
  const stampKey = `${key}#writer`;
  const read = db.transaction(STORE).objectStore(STORE);
  const [found, foundStamp] = await Promise.all([done(read.get(key)), done(read.get(stampKey))]);
  let text = found as string | undefined;
  let stamp = (foundStamp as string | undefined) ?? null;
  if (text === undefined) {
    // A state an earlier page kept in localStorage: moved here (committed before it is removed there).
    const earlier = globalThis.localStorage?.getItem(key) ?? null;
    if (earlier !== null) {
      const tx = db.transaction(STORE, "readwrite");
      tx.objectStore(STORE).put(earlier, key);
      await committed(tx);
      globalThis.localStorage.removeItem(key);
      text = earlier;
    }
  }
  const tab = crypto.randomUUID();
  let writes = 0;
  let failed = false;
  let last: Promise<void> = Promise.resolve();
  const toMemory = (why: string) => {
    if (failed) return;
    failed = true;
    warn(
      `${location} ${why}; the sandbox goes on in memory (its state is lost when the page closes) and leaves the ` +
        "stored value as it is",
    );
  };
  const inner = localStorageState(
    key,
    memoryStorage(key, text ?? null, (next) => {
      if (failed) return;
      const tx = db.transaction(STORE, "readwrite");
      const store = tx.objectStore(STORE);
      const mine = `${tab} ${++writes}`;
      const check = store.get(stampKey);
      check.onsuccess = () => {
        if ((check.result ?? null) !== stamp) {
          toMemory("was changed by something other than this sandbox (another tab of the page?)");
          tx.abort();
          return;
        }
        store.put(next, key);
        store.put(mine, stampKey);
        stamp = mine;
      };
      last = committed(tx).catch((error: unknown) => toMemory(`failed while the page ran (${String(error)})`));
    }),
    warn,
    { location, removal: `indexedDB.deleteDatabase("${DATABASE}")` },
  );
  return {
    location,
    load: () => inner.load(),
    async write(change) {
      await inner.write(change);
      await last;
    },
  };
}

/** Removes the page's stored state (after it could not be used): from IndexedDB and from localStorage. */
export async function clearPageState(key: string): Promise<void> {
  globalThis.localStorage?.removeItem(key);
  try {
    const db = await openDatabase();
    const tx = db.transaction(STORE, "readwrite");
    tx.objectStore(STORE).delete(key);
    tx.objectStore(STORE).delete(`${key}#writer`);
    await committed(tx);
  } catch {
    // Nothing stored there, or IndexedDB is off: nothing to remove.
  }
}
