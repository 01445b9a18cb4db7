/**
 * The report's inline style sheet: system fonts only (no web font to fetch), readable at phone
 * width, and print-ready (A4/Letter margins, no card split across pages, hashes that wrap).
 * Status is shown by colour, icon and words together, never by colour alone.
 */
export const REPORT_CSS = `
:root { color-scheme: light; --ink: #1d2430; --muted: #5a6472; --line: #d8dde4; --paper: #ffffff; --tint: #f5f7fa;
  --ok: #1e7b45; --warn: #9a6100; --bad: #b3261e; --info: #2f5fa7; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: var(--paper); color: var(--ink);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 52rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.7rem; line-height: 1.25; margin: 0 0 .5rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .75rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 0 0 .35rem; }
p { margin: .5rem 0; }
.meta, .muted { color: var(--muted); font-size: .9rem; }
.question { font-size: 1.1rem; margin: .75rem 0; }
nav.contents { font-size: .9rem; margin: .25rem 0 0; }
.answer { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--tint); border-radius: 6px; padding: .75rem 1rem; }
.answer sup { line-height: 0; }
.answer sup a, .fn-back { text-decoration: none; font-weight: 600; color: var(--info); padding: 0 .1em; }
.marker-plain { color: var(--muted); }
.counts { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: .75rem; margin: .5rem 0; }
.counts div { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; }
.counts ul { margin: .25rem 0 0; padding-left: 1.1rem; }
ol.citations { list-style: none; padding: 0; margin: 0; }
.citation { border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 0 0 .9rem;
  break-inside: avoid; page-break-inside: avoid; }
.citation.tone-ok { border-left-color: var(--ok); }
.citation.tone-warn { border-left-color: var(--warn); }
.citation.tone-bad { border-left-color: var(--bad); }
.citation.tone-info { border-left-color: var(--info); }
blockquote.quote { margin: .4rem 0; padding: .35rem .75rem; border-left: 3px solid var(--line); font-style: italic; overflow-wrap: anywhere; }
.no-quote { color: var(--muted); font-style: italic; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .75rem; margin: .5rem 0 0; font-size: .92rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: .85rem; font-weight: 600; border-radius: 999px; padding: 0 .55rem; border: 1px solid currentColor; }
.badge.tone-ok { color: var(--ok); } .badge.tone-warn { color: var(--warn); } .badge.tone-bad { color: var(--bad); } .badge.tone-info { color: var(--info); }
.history { margin: .25rem 0 0; padding-left: 1.1rem; font-size: .9rem; color: var(--muted); }
figure.excerpt { margin: .6rem 0 0; }
.excerpt-frame { position: relative; display: inline-block; max-width: 100%; border: 1px solid var(--line); line-height: 0; }
.excerpt-frame img { display: block; max-width: 100%; height: auto; }
.excerpt-frame .box { position: absolute; border: 2px solid var(--bad); border-radius: 2px; }
.excerpt-text { margin: 0; padding: .4rem .6rem; border-left: 3px solid var(--line); white-space: pre-wrap; overflow-wrap: anywhere; }
.excerpt-text mark { background: #fff3a0; outline: 2px solid var(--bad); border-radius: 2px; }
figure.excerpt figcaption { font-size: .85rem; color: var(--muted); margin-top: .25rem; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: .35rem .5rem; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .hash { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .82rem; overflow-wrap: anywhere; word-break: break-all; }
ul.unresolved li { margin: .3rem 0; }
@media (max-width: 40rem) {
  body { font-size: 15px; }
  main { padding: 1rem .75rem 2rem; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dt { margin-top: .35rem; }
  table.sources thead { display: none; }
  table.sources, table.sources tbody, table.sources tr, table.sources td { display: block; width: 100%; }
  table.sources tr { border-bottom: 1px solid var(--line); padding: .35rem 0; }
  table.sources td { border: 0; padding: .1rem 0; }
  table.sources td::before { content: attr(data-label) ": "; color: var(--muted); }
  td.num { text-align: left; }
}
@page { size: auto; margin: 18mm 16mm; }
@media print {
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  .answer { background: none; border: 1px solid var(--line); }
  h2 { break-after: avoid; page-break-after: avoid; }
  a { color: inherit; }
}
`;
