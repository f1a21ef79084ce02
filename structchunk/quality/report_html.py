"""The `inspect --html` report: one self-contained page showing chunks as retrieval sees them.

No network and no external assets (a Content-Security-Policy forbids them): inline CSS,
an inline SVG histogram and a few lines of inline JavaScript for the flag filter. Every
piece of document text is HTML-escaped; no data is ever placed inside the script.
"""

from __future__ import annotations

import math
import os
from bisect import bisect_right
from collections.abc import Sequence
from html import escape

from .colours import chunk_hue
from .flags import FLAG_MEANINGS, FLAGS, Flag
from .inspection import InspectedDocument, Inspection
from .page_view import page_view
from .source_view import source_view
from .summary import Summary
from .views import ChunkView

DEFAULT_HISTOGRAM_BINS = 20
"""Bars across 0..budget: a tenth of the budget would hide the shape of small chunks,
a fiftieth makes bars too thin to hover."""

MAX_HISTOGRAM_BINS = 40
"""Bins when chunks run far over the budget (other tools' JSONL): the bin width grows
instead, so the chart stays readable."""

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

FLAG_COLOURS: dict[Flag, str] = {
    "CUT_MID_SENTENCE": "#c0392b",
    "NO_HEADING": "#8e44ad",
    "TOO_SMALL": "#d68910",
    "TOO_LARGE": "#7b241c",
    "TABLE_SPLIT": "#1f618d",
    "PREFIX_SHORTENED": "#117a65",
}

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem 1.5rem;
color:#1b1b1b;background:#fafafa}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin:1.5rem 0 .3rem;word-break:break-all}
table.summary{border-collapse:collapse;margin:.5rem 0}
table.summary td,table.summary th{padding:.15rem .6rem;border-bottom:1px solid #ddd;
text-align:right}
table.summary td:first-child,table.summary th:first-child{text-align:left}
#filters button{margin:.15rem;padding:.25rem .6rem;border:1px solid #999;border-radius:1rem;
background:#fff;cursor:pointer}
#filters button[aria-pressed=true]{background:#1b1b1b;color:#fff}
.chunk{margin:.5rem 0;padding:.4rem .7rem;border-left:6px solid hsl(var(--hue) 55% 45%);
background:hsl(var(--hue) 70% 95%);border-radius:4px}
.chunk.flagged{outline:2px dashed #c0392b;outline-offset:-2px}
.chunk.context{opacity:.5}
.meta{font-size:12px;color:#444;display:flex;flex-wrap:wrap;gap:.6rem;align-items:center}
.path{font-weight:600;color:#1b1b1b}
.badge{display:inline-block;padding:0 .45rem;border-radius:.6rem;color:#fff;font-size:11px;
font-weight:600}
pre.text{white-space:pre-wrap;word-wrap:break-word;margin:.3rem 0 0;font:13px/1.4 ui-monospace,
monospace}
svg.histogram{background:#fff;border:1px solid #ddd}
.legend dt{font-weight:600;display:inline}.legend dd{display:inline;margin:0 1rem 0 .3rem}
.doc-body.with-source{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);
gap:1rem;align-items:start}
.source{position:sticky;top:0;max-height:90vh;overflow:auto;margin:.5rem 0;
padding:.5rem;background:#fff;border:1px solid #ddd;white-space:pre-wrap;
word-wrap:break-word;font:12px/1.45 ui-monospace,monospace}
pre.source mark{background:hsl(var(--hue) 70% 88%);color:inherit;cursor:pointer}
pre.source mark.active,.chunk.active{outline:2px solid hsl(var(--hue) 60% 35%)}
pre.source mark.active{background:hsl(var(--hue) 75% 75%)}
.cut{display:inline-block;width:0;height:1.1em;border-left:3px solid #1b1b1b;
vertical-align:text-bottom;margin:0 1px}
.pages figure{position:relative;margin:0 0 .6rem}.pages img{display:block;width:100%}
.pages svg{position:absolute;left:0;top:0;width:100%;height:calc(100% - 1.3rem)}
.pages svg.defs{width:0;height:0}
.pages rect{fill:hsl(var(--hue) 80% 60% / .12);stroke:hsl(var(--hue) 65% 42%);
stroke-width:1.2;cursor:pointer}
.pages rect.furniture{fill:url(#furniture-hatch);fill-opacity:.45;stroke:#777;
stroke-dasharray:2 2;stroke-width:.8}
.pages rect.active{fill:hsl(var(--hue) 80% 60% / .35);stroke-width:3}
.pages figcaption{font-size:11px;color:#666;height:1.3rem}
[hidden]{display:none!important}
"""

SCRIPT = """
(function () {
  var chunks = Array.prototype.slice.call(document.querySelectorAll('.chunk'));
  var buttons = Array.prototype.slice.call(document.querySelectorAll('#filters button'));
  var status = document.getElementById('status');
  function matches(el, filter) {
    var flags = (el.getAttribute('data-flags') || '').split(' ').filter(Boolean);
    return filter === 'all' || (filter === 'flagged' ? flags.length > 0
                                                     : flags.indexOf(filter) >= 0);
  }
  function isChunk(el) { return el !== null && el.classList.contains('chunk'); }
  function apply(filter) {
    var shown = 0, context = 0;
    chunks.forEach(function (el) { el.hidden = true; el.classList.remove('context'); });
    chunks.forEach(function (el) {
      if (!matches(el, filter)) { return; }
      el.hidden = false; shown += 1;
      if (filter === 'all') { return; }
      // a cut is seen from both sides: the chunks before and after, dimmed
      [el.previousElementSibling, el.nextElementSibling].forEach(function (next) {
        if (isChunk(next) && next.hidden) {
          next.hidden = false; next.classList.add('context'); context += 1;
        }
      });
    });
    chunks.forEach(function (el) {
      if (el.classList.contains('context') && matches(el, filter)) {
        el.classList.remove('context'); context -= 1;
      }
    });
    buttons.forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.getAttribute('data-filter') === filter));
    });
    var badges = document.querySelectorAll('.chunk:not([hidden]) .badge');
    var drawn = Array.prototype.filter.call(badges, function (b) {
      var box = b.getBoundingClientRect(); return box.width > 0 && box.height > 0;
    }).length;
    status.setAttribute('data-filter', filter);
    status.setAttribute('data-shown', String(shown));
    status.setAttribute('data-context', String(context));
    status.setAttribute('data-badges-drawn', String(drawn));
    status.textContent = 'Showing ' + shown + ' of ' + chunks.length + ' chunks (' + filter + ')' +
      (context ? ', with ' + context + ' neighbours dimmed.' : '.');
  }
  buttons.forEach(function (b) {
    b.addEventListener('click', function () { apply(b.getAttribute('data-filter')); });
  });
  var match = /filter=([A-Za-z_]+)/.exec(window.location.hash);
  apply(match ? match[1] : 'all');
  // a card and its source spans select each other
  function select(id) {
    Array.prototype.forEach.call(document.querySelectorAll('.active'), function (el) {
      el.classList.remove('active');
    });
    var card = document.getElementById(id);
    var marks = document.querySelectorAll('.source [data-chunks~="' + id + '"]');
    if (card) { card.classList.add('active'); }
    Array.prototype.forEach.call(marks, function (m) { m.classList.add('active'); });
    status.setAttribute('data-selected', id);
    status.setAttribute('data-marks-active', String(marks.length));
    if (marks.length) {  // where the first one is drawn, in window pixels
      var r = marks[0].getBoundingClientRect();
      var place = [r.left, r.top, r.width, r.height].map(Math.round);
      status.setAttribute('data-first-mark', place.join(','));
    }
    return { card: card, marks: marks };
  }
  function reveal(mark) {  // scroll the source pane only, not the page
    var pane = mark.closest('.source');
    var top = mark.getBoundingClientRect().top - pane.getBoundingClientRect().top;
    pane.scrollTop += top - pane.clientHeight / 3;
  }
  chunks.forEach(function (el) {
    el.addEventListener('click', function () {
      var found = select(el.id);
      if (found.marks.length) { reveal(found.marks[0]); }
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll('.source [data-chunks]'), function (m) {
    m.addEventListener('click', function () {
      var found = select(m.getAttribute('data-chunks').split(' ')[0]);
      if (found.card) { found.card.scrollIntoView({ block: 'center' }); }
    });
  });
  var chosen = /chunk=(d[0-9]+-c[0-9]+)/.exec(window.location.hash);
  if (chosen) { window.addEventListener('load', function () {  // once pages are laid out
    var id = chosen[1];
    var card = document.getElementById(id);
    if (card) {
      card.click();
      var box = card.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) { card.scrollIntoView(); }
    }
  }); }
})();
"""


def _stats(summary: Summary) -> str:
    t = summary.tokens
    if t is None:
        return f"{summary.chunks} chunks"
    return (
        f"{summary.chunks} chunks · tokens min {t.min} · median {t.median} · "
        f"p95 {t.p95} · max {t.max}"
    )


def _badge(flag: Flag) -> str:
    return (
        f'<span class="badge" data-flag="{flag}" style="background:{FLAG_COLOURS[flag]}" '
        f'title="{escape(FLAG_MEANINGS[flag])}">{flag}</span>'
    )


def _provenance(chunk: ChunkView) -> str:
    if chunk.lines:
        return f"lines {chunk.lines[0]}–{chunk.lines[1]}"
    if chunk.pages:
        return "page" + ("s " if len(chunk.pages) > 1 else " ") + ", ".join(map(str, chunk.pages))
    return ""


def _chunk_block(doc_number: int, chunk: ChunkView, flags: tuple[Flag, ...], position: int) -> str:
    hue = chunk_hue(position)
    path = " › ".join(chunk.heading_path) or "(no heading)"
    meta = [
        f'<span class="idx">#{chunk.index}</span>',
        f'<span class="path">{escape(path)}</span>',
        f'<span class="tokens">{chunk.n_tokens} tokens</span>',
    ]
    provenance = _provenance(chunk)
    if provenance:
        meta.append(f'<span class="prov">{provenance}</span>')
    meta.extend(_badge(flag) for flag in flags)
    classes = "chunk flagged" if flags else "chunk"
    return (
        f'<article class="{classes}" id="d{doc_number}-c{chunk.index}" '
        f'data-flags="{" ".join(flags)}" style="--hue:{hue}">'
        f'<div class="meta">{"".join(meta)}</div>'
        f'<pre class="text">{escape(chunk.text)}</pre></article>'
    )


def _document_section(number: int, document: InspectedDocument) -> str:
    blocks = [
        _chunk_block(number, chunk, flags, position)
        for position, (chunk, flags) in enumerate(zip(document.chunks, document.flags))
    ]
    source = source_view(number, document) or page_view(number, document)
    layout = "doc-body with-source" if 'class="source' in source[:40] else "doc-body"
    return (
        f'<section class="doc" id="d{number}"><h2>{escape(shown_path(document.source))}</h2>'
        f'<p class="stats">{escape(_stats(document.summary))}</p>'
        f'<div class="{layout}"><div class="cards">{"".join(blocks)}</div>{source}</div>'
        "</section>"
    )


def shown_path(source: str) -> str:
    """A document's path as the reader thinks of it: relative to where the command ran
    when it lies below there, else as given."""
    try:
        relative = os.path.relpath(source)
    except ValueError:  # another drive (Windows)
        return source
    return source if relative.startswith(os.pardir) else relative


def _navigation(inspection: Inspection) -> str:
    """One link per document, with its chunk and flagged counts."""
    if len(inspection.documents) < 2:
        return ""
    links = []
    for number, document in enumerate(inspection.documents):
        flagged = sum(1 for flags in document.flags if flags)
        count = len(document.chunks)
        note = f"{count} chunk{'s' if count != 1 else ''}" + (
            f", {flagged} flagged" * bool(flagged)
        )
        links.append(
            f'<li><a href="#d{number}">{escape(shown_path(document.source))}</a> '
            f"<small>{note}</small></li>"
        )
    return f'<nav aria-label="documents"><ol>{"".join(links)}</ol></nav>'


def histogram_bins(counts: Sequence[int], budget: int) -> list[tuple[int, int, int]]:
    """(low, high, chunks) bins covering 0..max(budget, largest); one bin edge always falls
    right after the budget, so no bar mixes chunks within and over it."""
    top = max([budget, *counts])
    width = max(1, math.ceil(budget / DEFAULT_HISTOGRAM_BINS))
    lows = list(range(0, budget + 1, width))
    if top > budget:
        over_width = max(width, math.ceil((top - budget) / MAX_HISTOGRAM_BINS))
        lows.extend(range(budget + 1, top + 1, over_width))
    highs = [low - 1 for low in lows[1:]] + [top]
    tally = [0] * len(lows)
    for n in counts:
        tally[bisect_right(lows, n) - 1] += 1
    return list(zip(lows, highs, tally))


def histogram_svg(counts: Sequence[int], budget: int, unit: str) -> str:
    """Chunk sizes as bars, the budget as a red line; bars over the budget are red."""
    bins = histogram_bins(counts, budget)
    chart_w, chart_h, pad = 640, 160, 30
    top = bins[-1][1] + 1
    tallest = max(n for _, _, n in bins) or 1
    size = f'width="{chart_w + 2 * pad}" height="{chart_h + 2 * pad}"'
    parts = [
        f'<svg class="histogram" role="img" {size}><title>chunk sizes against the budget</title>'
    ]
    for low, high, n in bins:
        x = pad + chart_w * low / top
        bar_w = max(chart_w * (high + 1 - low) / top - 1, 1)
        height = chart_h * n / tallest
        colour = "#c0392b" if low > budget else "#5d8aa8"
        parts.append(
            f'<rect class="bar" x="{x:.1f}" y="{pad + chart_h - height:.1f}" '
            f'width="{bar_w:.1f}" height="{height:.1f}" fill="{colour}">'
            f"<title>{low}–{high} {escape(unit)}: {n} chunks</title></rect>"
        )
    budget_x = pad + chart_w * (budget + 1) / top
    axis_y = chart_h + pad + 16
    parts += [
        f'<line x1="{budget_x:.1f}" x2="{budget_x:.1f}" y1="{pad - 10}" '
        f'y2="{pad + chart_h}" stroke="#c0392b" stroke-width="2"/>',
        _svg_text(budget_x - 4, pad - 2, f"budget {budget}", anchor="end"),
        _svg_text(pad, axis_y, "0"),
        _svg_text(pad + chart_w, axis_y, f"{top - 1} {unit}", anchor="end"),
        "</svg>",
    ]
    return "".join(parts)


def _svg_text(x: float, y: float, text: str, anchor: str = "start") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="11" text-anchor="{anchor}">{escape(text)}</text>'
    )


def _summary_table(inspections: Sequence[Inspection]) -> str:
    head = "".join(f"<th>{escape(i.label)}</th>" for i in inspections)
    rows = [
        ("documents", [str(len(i.documents)) for i in inspections]),
        ("chunks", [str(i.total.chunks) for i in inspections]),
    ]
    for name in ("min", "median", "p95", "max"):
        rows.append(
            (f"tokens {name}", [str(getattr(i.total.tokens, name, "–")) for i in inspections])
        )
    for flag in FLAGS:
        rows.append(
            (
                flag,
                [f"{i.total.flags[flag]} ({100 * i.total.share(flag):.1f}%)" for i in inspections],
            )
        )
    body = "".join(
        f"<tr><td>{escape(name)}</td>{''.join(f'<td>{v}</td>' for v in values)}</tr>"
        for name, values in rows
    )
    return f'<table class="summary"><tr><th></th>{head}</tr>{body}</table>'


def _filters(inspection: Inspection) -> str:
    total = inspection.total
    flagged = sum(1 for document in inspection.documents for flags in document.flags if flags)
    buttons = [("all", f"all ({total.chunks})"), ("flagged", f"flagged ({flagged})")]
    buttons.extend((flag, f"{flag} ({total.flags[flag]})") for flag in FLAGS)
    inner = "".join(
        f'<button type="button" data-filter="{key}" aria-pressed="false">{escape(label)}</button>'
        for key, label in buttons
    )
    return f'<div id="filters" role="group" aria-label="filter by flag">{inner}</div>'


def render_report(inspection: Inspection, compare: Inspection | None = None) -> str:
    """The whole report as one HTML string."""
    counts = [c.n_tokens for d in inspection.documents for c in d.chunks]
    legend = "".join(
        f"<dt>{_badge(flag)}</dt><dd>{escape(meaning)}</dd>"
        for flag, meaning in FLAG_MEANINGS.items()
    )
    documents = "".join(
        _document_section(number, document) for number, document in enumerate(inspection.documents)
    )
    tables = [inspection] + ([compare] if compare is not None else [])
    rules = inspection.rules
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>structchunk inspect: {escape(inspection.label)}</title>"
        f"<style>{STYLE}</style></head><body>"
        f"<h1>structchunk inspect</h1><p>Budget {rules.budget} "
        f"{escape(inspection.tokenizer)}; {escape(_stats(inspection.total))}.</p>"
        f"{_summary_table(tables)}"
        f"{histogram_svg(counts, rules.budget, inspection.tokenizer)}"
        f'<dl class="legend">{legend}</dl>{_navigation(inspection)}{_filters(inspection)}'
        f'<p id="status" aria-live="polite">Showing all {len(counts)} chunks.</p>'
        f"<main>{documents}</main><script>{SCRIPT}</script></body></html>\n"
    )
