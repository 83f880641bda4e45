"""The HTML report's one style sheet: light and dark colour schemes, a phone's width, print."""

CSP = (
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)
"""Nothing from outside the file, and no script at all (the embedded figures are data, never run)."""

STYLE = """
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #5c636e; --bg: #ffffff; --panel: #f4f6f8;
  --line: #d5dae0; --bad: #c62828; --good: #2e7d32; --warn: #b26a00; --accent: #3b6fd1; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e8eb; --muted: #a2a9b3; --bg: #16181c; --panel: #1f2227; --line: #373c44;
    --bad: #ef6b6b; --good: #66bb6a; --warn: #f0a23b; --accent: #7aa5f0; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 1.5rem 1.25rem 3rem; color: var(--fg);
  background: var(--bg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans",
  Arial, sans-serif; overflow-wrap: break-word; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.3rem; margin: 2.2rem 0 .6rem; padding-bottom: .25rem;
  border-bottom: 1px solid var(--line); }
h3 { font-size: 1.1rem; margin: 1.6rem 0 .4rem; }
h4 { font-size: 1rem; margin: 1.2rem 0 .4rem; }
p, ul { margin: .4rem 0 .8rem; }
code, .id { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .9em; }
.muted { color: var(--muted); }
dl.facts { display: grid; grid-template-columns: fit-content(40%) minmax(0, 1fr); gap: .2rem 1rem;
  margin: 1rem 0;
  padding: .8rem 1rem; background: var(--panel); border-radius: 6px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
.sentence { font-size: 1.05rem; padding: .6rem .9rem; border-left: 4px solid var(--accent);
  background: var(--panel); border-radius: 0 6px 6px 0; }
.headline { margin: 1rem 0 0; }
.todo-title { font-weight: 600; margin-bottom: .2rem; }
ul.todo { padding-left: 1.2rem; }
ul.todo li { margin: .3rem 0; }
.done { color: var(--good); font-weight: 600; }
figure { margin: .8rem 0 1.2rem; }
figure svg { display: block; width: 100%; max-width: 600px; height: auto; }
svg * { stroke-linejoin: round; stroke-linecap: butt; }
figcaption { color: var(--muted); font-size: .9rem; }
.scroll { overflow-x: auto; margin: .4rem 0 1rem; }
table { border-collapse: collapse; font-size: .92rem; min-width: 50%; }
th, td { text-align: left; padding: .3rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.correct { color: var(--good); } .incorrect { color: var(--bad); } .none { color: var(--muted); }
.overturned { font-weight: 600; }
progress { width: 14rem; max-width: 100%; vertical-align: middle; }
.cards { display: grid; gap: 1rem; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: .8rem 1rem; background: var(--bg);
  break-inside: avoid; }
.card h4 { margin: 0 0 .5rem; }
.text { white-space: pre-wrap; margin: .2rem 0 .6rem; }
.ids { display: grid; grid-template-columns: 1fr 1fr; gap: .8rem; }
.ids ul { list-style: none; padding: 0; margin: .2rem 0; }
.ids li { padding: .05rem .3rem; }
li.missing { color: var(--bad); background: color-mix(in srgb, var(--bad) 12%, transparent);
  border-radius: 4px; font-weight: 600; }
blockquote { margin: .3rem 0 .8rem; padding: .4rem .8rem; border-left: 3px solid var(--line);
  background: var(--panel); white-space: pre-wrap; }
.label { color: var(--muted); font-size: .85rem; text-transform: uppercase; letter-spacing: .04em; }
footer { margin-top: 3rem; color: var(--muted); font-size: .85rem; }
@media (max-width: 600px) {
  body { padding: 1rem .75rem 2rem; font-size: 14px; }
  h1 { font-size: 1.3rem; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: .4rem; }
  .ids { grid-template-columns: 1fr; }
}
@media print {
  :root { color-scheme: light; --fg: #000; --muted: #444; --bg: #fff; --panel: #f2f2f2; --line: #bbb;
    --bad: #c62828; --good: #2e7d32; --warn: #b26a00; --accent: #3b6fd1; }
  body { max-width: none; padding: 0; font-size: 11pt; }
  h2 { break-after: avoid; }
  figure, .card, tr { break-inside: avoid; }
  .scroll { overflow: visible; }
  details { display: block; }
  details > summary { display: none; }
}
"""
