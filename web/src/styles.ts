// The widget's styles, inside its shadow root: the page's CSS cannot reach in and these cannot
// leak out. Colours come from custom properties set by theme.ts.
export const STYLES = `
:host { all: initial; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
.root { position: fixed; z-index: 2147483000; display: flex; flex-direction: column-reverse; gap: 12px; }
.root.bottom-right { right: 20px; bottom: 20px; align-items: flex-end; }
.root.bottom-left { left: 20px; bottom: 20px; align-items: flex-start; }
.root.top-right { right: 20px; top: 20px; align-items: flex-end; flex-direction: column; }
.root.top-left { left: 20px; top: 20px; align-items: flex-start; flex-direction: column; }
button { font: inherit; cursor: pointer; }
:focus-visible { outline: 3px solid var(--tt-accent); outline-offset: 2px; }
.launcher { width: 56px; height: 56px; border-radius: 50%; border: 0; background: var(--tt-primary);
  color: var(--tt-on-primary); box-shadow: 0 6px 20px rgb(0 0 0 / 25%); display: grid; place-items: center; }
.launcher svg { width: 26px; height: 26px; }
.panel { width: min(400px, calc(100vw - 40px)); height: min(600px, calc(100vh - 110px)); display: flex;
  container: panel / inline-size;
  flex-direction: column; background: var(--tt-surface); color: var(--tt-text); border-radius: 14px;
  overflow: hidden; box-shadow: 0 12px 40px rgb(0 0 0 / 30%); }
.header { display: flex; align-items: center; gap: 10px; padding: 10px 12px; background: var(--tt-header);
  color: var(--tt-on-header); }
.logo { height: 28px; max-width: 96px; min-width: 0; flex: 0 1 auto; object-fit: contain; }
.title { flex: 1 1 auto; min-width: 4.5em; margin: 0; font-size: 16px; font-weight: 600; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; }
.header button { flex: none; background: transparent; color: inherit; border: 1px solid currentColor; border-radius: 8px;
  padding: 4px 8px; font-size: 12px; white-space: nowrap; display: inline-flex; align-items: center; gap: 4px; }
.header .new svg { width: 14px; height: 14px; }
/* A narrow panel (a phone) keeps the title readable: a smaller logo, the New button as its icon. */
@container panel (max-width: 360px) {
  .logo { max-width: 64px; height: 24px; }
  .header .new .label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .header .new { padding: 4px 6px; }
}
.header .close { border: 0; font-size: 22px; line-height: 1; padding: 2px 8px; }
.log { flex: 1; overflow-y: auto; padding: 14px; display: flex; flex-direction: column; gap: 10px; }
.msg { max-width: 92%; padding: 9px 12px; border-radius: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.msg.user { align-self: flex-end; background: var(--tt-primary); color: var(--tt-on-primary);
  border-bottom-right-radius: 4px; }
.msg.assistant { align-self: flex-start; background: var(--tt-raised); color: var(--tt-text-raised);
  border-bottom-left-radius: 4px; }
.msg.assistant.wide { max-width: 100%; width: 100%; }
.msg.clarification { border-left: 4px solid var(--tt-secondary); }
.msg .label { display: block; font-size: 12px; font-weight: 600; color: var(--tt-muted-raised); }
.msg.error { align-self: stretch; background: var(--tt-surface); color: var(--tt-text);
  border: 2px solid #b91c1c; }
.msg.error button { margin-top: 6px; border: 0; border-radius: 8px; padding: 4px 12px;
  background: var(--tt-primary); color: var(--tt-on-primary); }
.msg[aria-busy="true"] .text::after { content: "▍"; animation: blink 1s steps(2) infinite; }
@keyframes blink { 50% { opacity: 0; } }
@media (prefers-reduced-motion: reduce) { .msg[aria-busy="true"] .text::after { animation: none; } }
.results { margin: 8px 0 0; }
.scroller { max-height: 260px; overflow: auto; border-radius: 8px; background: var(--tt-surface);
  border: 1px solid var(--tt-muted-raised); }
table { border-collapse: collapse; width: 100%; font-size: 13px; color: var(--tt-text); white-space: nowrap; }
th, td { padding: 5px 9px; text-align: left; border-bottom: 1px solid var(--tt-raised); }
th { position: sticky; top: 0; background: var(--tt-secondary); color: var(--tt-on-secondary); font-weight: 600;
  text-transform: capitalize; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.count { margin-top: 4px; font-size: 12px; color: var(--tt-muted-raised); }
.chart-figure { margin: 8px 0 0; position: relative; }
.chart .mark { outline: none; }
.chart .mark:focus-visible, .chart .mark:hover { stroke: var(--tt-accent); stroke-width: 2; }
.chart-tip { position: absolute; z-index: 1; max-width: 90%; padding: 4px 8px; border-radius: 6px; font-size: 12px;
  background: var(--tt-surface); color: var(--tt-text); border: 1px solid var(--tt-muted-raised);
  box-shadow: 0 2px 8px rgb(0 0 0 / 20%); pointer-events: none; white-space: normal; }
.chart { width: 100%; height: auto; display: block; font-size: 9px; fill: var(--tt-muted-raised); }
.chart .grid { stroke: var(--tt-muted-raised); stroke-opacity: .2; }
.chart .base { stroke: var(--tt-muted-raised); }
.chart .title { fill: var(--tt-text-raised); font-size: 10px; font-weight: 600; }
.chart .line { fill: none; stroke: var(--tt-primary); stroke-width: 2; }
.chart .bar, .chart .point { fill: var(--tt-primary); }
.rating { margin-top: 4px; display: flex; gap: 4px; }
.rating button { background: none; border: 1px solid transparent; border-radius: 6px; cursor: pointer; font-size: 13px; padding: 0 4px; }
.rating button[aria-pressed="true"] { border-color: var(--tt-primary); }
.suggestions { display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0 8px; }
.suggestion { background: var(--tt-raised); color: var(--tt-text-raised); border: 1px solid var(--tt-primary); border-radius: 12px; cursor: pointer; font-size: 12px; padding: 4px 10px; text-align: left; }
.table-toggle summary { cursor: pointer; font-size: 12px; color: var(--tt-muted-raised); margin-top: 4px; }
.composer { display: flex; gap: 8px; padding: 10px; border-top: 1px solid var(--tt-raised); }
.composer textarea { flex: 1; resize: none; font: inherit; padding: 8px 10px; border-radius: 10px;
  border: 1px solid var(--tt-muted); background: var(--tt-surface); color: var(--tt-text); max-height: 120px; }
.composer textarea::placeholder { color: var(--tt-muted); opacity: 1; }
.composer button { border: 0; border-radius: 10px; padding: 0 16px; background: var(--tt-primary);
  color: var(--tt-on-primary); font-weight: 600; }
.composer button:disabled { opacity: 0.6; cursor: progress; }
.mark { padding: 4px 0 8px; text-align: center; font-size: 11px; color: var(--tt-muted); }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
`;
