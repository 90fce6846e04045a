/**
 * Reads a live server's answer for the panel without letting it hold the tab: at most `cap` bytes are kept (the
 * rest is not read: the request is aborted), a body that sends nothing for `stallMs` is ended, "Stop" (the
 * controller) ends it at once, and a connection cut mid-body ends it; each of these ends with one line saying so.
 * Chunks are read as they come (the page stays responsive between them).
 */

/** The most of a live answer the panel keeps and shows. */
export const LIVE_BODY_CAP = 2 * 1024 * 1024;
/** A live answer that sends nothing for this long is ended. */
export const LIVE_STALL_MS = 10_000;

export interface CappedRead {
  text: string;
  bytes: number;
  /** Why the body is incomplete, in one line (null: read to its end). */
  ending: string | null;
}

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} kB`;

export async function readCapped(
  res: Response,
  controller: AbortController,
  cap: number,
  stallMs: number,
): Promise<CappedRead> {
  if (!res.body) return { text: "", bytes: 0, ending: null };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  let stalled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      controller.abort();
    }, stallMs);
  };
  try {
    arm();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      arm();
      const room = cap - bytes;
      const kept = value.byteLength > room ? value.subarray(0, room) : value;
      text += decoder.decode(kept, { stream: true });
      bytes += kept.byteLength;
      if (value.byteLength > room) {
        controller.abort();
        void reader.cancel().catch(() => undefined);
        return {
          text: text + decoder.decode(),
          bytes,
          ending: `Cut at ${size(cap)}: the answer is larger, and the rest was not read.`,
        };
      }
    }
    return { text: text + decoder.decode(), bytes, ending: null };
  } catch {
    const why = stalled
      ? `Ended after ${stallMs / 1000} s with no data: ${size(bytes)} received.`
      : controller.signal.aborted
        ? `Stopped: ${size(bytes)} received.`
        : `The connection was cut after ${size(bytes)}: the answer is incomplete.`;
    return { text: text + decoder.decode(), bytes, ending: why };
  } finally {
    clearTimeout(timer);
  }
}
