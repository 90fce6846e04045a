/**
 * What the page, the loader and the panel agree on: the id of the panel's text in the page, the buttons' class,
 * and the styles of the "Try it" buttons (in the page from the start, a few lines) and of the panel (loaded with
 * it). Colours keep WCAG AA contrast on Redoc's white background.
 */
export const CODE_ID = "try-it-code";
export const BUTTON_CLASS = "try-it-open";

export const TRY_IT_BUTTON_STYLES = `<style id="try-it-button">
  .try-it-open { font: 600 14px/1 sans-serif; color: #fff; background: #1d4ed8; border: 1px solid #1d4ed8;
    border-radius: 4px; padding: 7px 12px; margin-right: 8px; cursor: pointer; }
  .try-it-open:hover { background: #1e40af; }
  .try-it-open:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
</style>`;

export const TRY_IT_STYLES = `
#try-it-panel { position: fixed; top: 0; right: 0; bottom: 0; width: var(--try-it-width, min(480px, 100vw)); z-index: 1000;
  overflow: auto; box-sizing: border-box; padding: 16px 20px 32px; background: #fff; color: #1a1a1a;
  border-left: 1px solid #c7c7c7; box-shadow: -4px 0 16px rgba(0,0,0,.15); font: 14px/1.45 sans-serif; }
#try-it-panel[hidden] { display: none; }
/* Docked (dock.ts): the page keeps the panel's width free and Redoc lays itself out in the rest. Redoc puts its
   samples beside the text when the viewport, not the width it has, is 1280 px or wider: where the rest is
   narrower, its rows stack as Redoc stacks them on a narrower screen (its elements named by their test ids), and
   a heading's actions go below a heading too long to share its line. */
:root.try-it-docked body { margin-right: var(--try-it-width); }
:root.try-it-docked #try-it-panel { box-shadow: none; }
:root.try-it-stacked :has(> [data-testid="middle-panel"]) { flex-direction: column; }
:root.try-it-stacked [data-testid="middle-panel"] > :first-child { flex-wrap: wrap; }
:root.try-it-stacked :is([data-testid="middle-panel"], [data-testid="right-panel"]) { width: 100%;
  padding-left: calc(var(--panel-gap-horizontal) * 2); padding-right: var(--panel-gap-horizontal); }
#try-it-panel .try-it-resize { position: fixed; top: 0; bottom: 0; right: calc(var(--try-it-width) - 5px);
  width: 10px; z-index: 1001; cursor: col-resize; touch-action: none; }
#try-it-panel .try-it-resize::after { content: ""; position: absolute; top: 0; bottom: 0; left: 4px; width: 2px; }
#try-it-panel .try-it-resize:is(:hover, :focus-visible, .try-it-resizing)::after { background: #1d4ed8; }
#try-it-panel .try-it-resize:focus-visible { outline: 3px solid #f59e0b; outline-offset: -3px; }
#try-it-panel h2 { font-size: 18px; margin: 0; }
#try-it-panel h3 { font-size: 15px; margin: 18px 0 6px; }
#try-it-panel .try-it-head { display: flex; justify-content: space-between; align-items: center; gap: 12px; }
#try-it-panel .try-it-route { font-family: monospace; margin: 4px 0 12px; color: #333; }
#try-it-panel label, #try-it-panel .try-it-label { display: block; margin: 10px 0 3px; font-weight: 600; }
#try-it-panel .try-it-check { font-weight: 400; }
#try-it-panel .try-it-in { font-weight: 400; color: #4a4a4a; font-size: 12px; }
#try-it-panel input:not([type=checkbox]), #try-it-panel select, #try-it-panel textarea { box-sizing: border-box;
  width: 100%; font: 13px monospace; padding: 5px 6px; border: 1px solid #767676; border-radius: 3px;
  color: #1a1a1a; background: #fff; }
#try-it-panel .try-it-row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
#try-it-panel .try-it-row select { width: auto; flex: 1; }
#try-it-panel .try-it-row label { margin: 0; }
#try-it-panel button { font: 600 13px sans-serif; padding: 6px 12px; border-radius: 4px; cursor: pointer;
  color: #1d4ed8; background: #fff; border: 1px solid #1d4ed8; }
#try-it-panel button[type=submit] { color: #fff; background: #1d4ed8; margin-top: 12px; padding: 8px 20px; }
#try-it-panel :focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
#try-it-panel pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f4f4f4; color: #1a1a1a;
  padding: 8px; border-radius: 3px; font: 12px/1.4 monospace; max-height: 360px; overflow: auto; margin: 0; }
#try-it-panel #try-it-status { font-weight: 700; font-size: 16px; margin: 4px 0; }
#try-it-panel .try-it-headers { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 4px 0 8px;
  font: 12px monospace; }
#try-it-panel .try-it-headers dd { margin: 0; }
#try-it-panel fieldset { border: 1px solid #c7c7c7; border-radius: 4px; margin-top: 18px; padding: 4px 12px 12px; }
#try-it-panel legend { font-weight: 700; padding: 0 4px; }
#try-it-panel :is(.try-it-note, .try-it-hint) { margin: 8px 0 0; color: #333; }
#try-it-panel .try-it-hint code { font: 12px monospace; overflow-wrap: anywhere; }
#try-it-panel .try-it-picker { display: flex; gap: 8px; align-items: center; margin-top: 4px; flex-wrap: wrap; }
#try-it-panel .try-it-picker select { width: auto; flex: 1; }
#try-it-panel .try-it-check-line { color: #9a3412; font-weight: 600; margin: 8px 0 0; }
#try-it-panel .try-it-check-line:empty { display: none; }
#try-it-panel .try-it-offer { margin: 6px 0; }
#try-it-panel .try-it-offer button, #try-it-panel .try-it-copy { padding: 3px 8px; font-size: 12px; margin: 2px 0; }
#try-it-panel button.try-it-fold { font: 12px monospace; line-height: 1; padding: 0 3px; margin: 0 4px 0 0;
  border-radius: 3px; }
#try-it-panel button.try-it-fold::before { content: "−"; }
#try-it-panel button.try-it-fold[aria-expanded="false"]::before { content: "+"; }
#try-it-panel button.try-it-fold[aria-expanded="false"] + .try-it-fold-inner { display: none; }
#try-it-panel .try-it-fold-note { display: none; font-style: italic; }
#try-it-panel .try-it-fold-note::before { content: attr(data-note); }
#try-it-panel button.try-it-fold[aria-expanded="false"] + .try-it-fold-inner + .try-it-fold-note { display: inline; }
#try-it-panel .try-it-jk { color: #7c2d12; }
#try-it-panel .try-it-js { color: #166534; }
#try-it-panel .try-it-jn { color: #1e40af; }
#try-it-panel .try-it-jl { color: #6b21a8; }
#try-it-panel details summary { cursor: pointer; font-weight: 600; margin: 4px 0; }
/* Redoc's dark theme (its moon button) puts the class dark on <html>: the panel follows it. */
:root.dark #try-it-panel { background: #16181d; color: #e6e6e6; border-left-color: #444; }
:root.dark #try-it-panel :is(.try-it-route, .try-it-note, .try-it-hint, .try-it-in) { color: #c9c9c9; }
:root.dark #try-it-panel input:not([type=checkbox]), :root.dark #try-it-panel select, :root.dark #try-it-panel textarea { color: #e6e6e6;
  background: #22252b; border-color: #8a8a8a; }
:root.dark #try-it-panel .try-it-resize:is(:hover, :focus-visible, .try-it-resizing)::after { background: #93c5fd; }
:root.dark #try-it-panel button { color: #93c5fd; background: #16181d; border-color: #93c5fd; }
:root.dark #try-it-panel button[type=submit] { color: #0b1020; background: #93c5fd; }
:root.dark #try-it-panel pre { background: #22252b; color: #e6e6e6; }
:root.dark #try-it-panel fieldset { border-color: #555; }
:root.dark #try-it-panel .try-it-check-line { color: #fdba74; }
:root.dark #try-it-panel .try-it-jk { color: #fdba74; }
:root.dark #try-it-panel .try-it-js { color: #86efac; }
:root.dark #try-it-panel .try-it-jn { color: #93c5fd; }
:root.dark #try-it-panel .try-it-jl { color: #d8b4fe; }
`;
