/**
 * The panel's place on the page: docked on the right, with the page keeping the panel's width free so Redoc lays
 * itself out in what is left (styles.ts: `try-it-docked`, and `try-it-stacked` where what is left is narrower
 * than Redoc's three-column breakpoint, which follows the viewport, not the width Redoc has). A separator on the
 * panel's left edge resizes it, by pointer drag or by keyboard (arrows, Shift for bigger steps, Home and End);
 * the width is kept for the tab's session. Where the viewport cannot hold the panel beside a readable page, the
 * panel lies over the page as before.
 */

/** The panel's width for this tab's session, in CSS pixels. */
export const WIDTH_KEY = "talent-graph-reference-panel-width";
export const DEFAULT_WIDTH = 480;
export const MIN_WIDTH = 320;
/** What a docked panel leaves the page: Redoc's sidebar (about 285 px) and a content column that reads well. */
export const PAGE_MIN = 760;
/** Redoc's breakpoint for its three columns (its theme's `large`): a viewport at least this wide. */
export const REDOC_THREE_COLUMNS = 1280;
const STEP = 16;
const BIG_STEP = 80;

export interface Dock {
  /** The separator, placed in the panel by the caller. */
  handle: HTMLElement;
  show(): void;
  hide(): void;
}

function storedWidth(): number {
  const value = Number(sessionStorage.getItem(WIDTH_KEY));
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_WIDTH;
}

export function createDock(): Dock {
  const root = document.documentElement;
  const handle = document.createElement("div");
  handle.className = "try-it-resize";
  handle.tabIndex = 0;
  for (const [name, value] of Object.entries({
    role: "separator",
    "aria-orientation": "vertical",
    "aria-label": "Panel width (arrow keys, or drag)",
  }))
    handle.setAttribute(name, value);
  let shown = false;
  let width = storedWidth();

  /** The widths the viewport allows: docked beside a readable page where it can, over the page where not. */
  const bounds = () => {
    const viewport = window.innerWidth;
    const min = Math.min(MIN_WIDTH, viewport);
    const dockable = viewport - PAGE_MIN >= min;
    return { min, max: dockable ? viewport - PAGE_MIN : viewport };
  };
  const apply = () => {
    const { min, max } = bounds();
    const now = Math.round(Math.min(max, Math.max(min, width)));
    const left = window.innerWidth - now;
    root.style.setProperty("--try-it-width", `${now}px`);
    root.classList.toggle("try-it-docked", shown && left >= PAGE_MIN);
    root.classList.toggle("try-it-stacked", shown && left >= PAGE_MIN && left < REDOC_THREE_COLUMNS);
    handle.setAttribute("aria-valuemin", String(min));
    handle.setAttribute("aria-valuemax", String(max));
    handle.setAttribute("aria-valuenow", String(now));
    handle.setAttribute("aria-valuetext", `${now} pixels wide`);
  };
  const resize = (to: number) => {
    const { min, max } = bounds();
    width = Math.round(Math.min(max, Math.max(min, to)));
    sessionStorage.setItem(WIDTH_KEY, String(width));
    apply();
  };

  handle.addEventListener("keydown", (event) => {
    const now = Number(handle.getAttribute("aria-valuenow"));
    const step = event.shiftKey ? BIG_STEP : STEP;
    const to: Record<string, number> = {
      // The separator sits on the panel's left edge: moving it left widens the panel.
      ArrowLeft: now + step,
      ArrowRight: now - step,
      Home: bounds().min,
      End: bounds().max,
    };
    if (!(event.key in to)) return;
    event.preventDefault();
    resize(to[event.key]!);
  });
  handle.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    handle.classList.add("try-it-resizing");
  });
  handle.addEventListener("pointermove", (event) => {
    if (handle.hasPointerCapture(event.pointerId)) resize(window.innerWidth - event.clientX);
  });
  const release = (event: PointerEvent) => {
    if (handle.hasPointerCapture(event.pointerId)) handle.releasePointerCapture(event.pointerId);
    handle.classList.remove("try-it-resizing");
  };
  handle.addEventListener("pointerup", release);
  handle.addEventListener("pointercancel", release);
  window.addEventListener("resize", apply);
  apply();
  return {
    handle,
    show() {
      shown = true;
      apply();
    },
    hide() {
      shown = false;
      apply();
    },
  };
}
