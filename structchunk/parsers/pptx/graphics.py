"""Graphic frames: tables, charts (their data as a table) and SmartArt (as a nested list).

A table's first row is its header; a merged cell's text fills every cell it covers (rows
of a split table must each stand alone), copied from the neighbour each covered cell
continues (`hMerge` from the left, `vMerge` from above), so filling costs one step a
cell. A chart becomes a table of its cached data, one row per category and one column
per series, captioned with the chart's title: the numbers a chart draws are content a
question may ask about. SmartArt's text lives in a separate diagram part, read here as
a list nested by the diagram's parent–child connections.
"""

from __future__ import annotations

from lxml import etree
from pptx.shapes.base import BaseShape
from pptx.shapes.graphfrm import GraphicFrame

from ...document import Block, ListBlock, ListItem, Paragraph, Provenance, Table
from ..builder import collapse_whitespace
from ..numbers import format_number, parse_number
from ..packages import SAFE_XML
from .text import A, element_text

C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
DIAGRAM_URI = DGM

MAX_LIST_DEPTH = 32
"""SmartArt nested deeper is shown at this depth (the HTML reader's limit for lists)."""


def table_block(frame: GraphicFrame, prov: Provenance) -> Table | Paragraph | None:
    """The slide table as a `Table` (None when it has no text)."""
    table = frame.element.find(f".//{{{A}}}tbl")
    if table is None:
        return None
    rows = table.findall(f"{{{A}}}tr")
    cells = [row.findall(f"{{{A}}}tc") for row in rows]
    width = max((len(row) for row in cells), default=0)
    grid = [[""] * width for _ in cells]
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            if cell.get("hMerge") in ("1", "true"):  # covered by the cell on its left
                grid[r][c] = grid[r][c - 1] if c else ""
            elif cell.get("vMerge") in ("1", "true"):  # covered by the cell above
                grid[r][c] = grid[r - 1][c] if r else ""
            else:
                grid[r][c] = collapse_whitespace(element_text(cell))
    grid = _drop_empty(grid)
    if not grid:
        return None
    if len(grid) == 1 and len(grid[0]) == 1:
        return Paragraph(grid[0][0], prov)  # a one-cell table is a framed paragraph
    return Table(grid[:1], grid[1:], prov=prov)


def _drop_empty(grid: list[list[str]]) -> list[list[str]]:
    rows = [row for row in grid if any(row)]
    if not rows:
        return []
    keep = [c for c in range(len(rows[0])) if any(row[c] for row in rows)]
    return [[row[c] for c in keep] for row in rows]


def chart_blocks(frame: GraphicFrame, prov: Provenance) -> list[Block]:
    """The chart's title and data: a table captioned with the title, or the title alone."""
    space = frame.chart_part.chart.element
    title_element = space.find(f"{{{C}}}chart/{{{C}}}title")
    title = collapse_whitespace(element_text(title_element)) if title_element is not None else ""
    names, categories, columns = _series(space)
    if not columns:
        return [Paragraph(title, prov)] if title else []
    header = [""] + [name or f"Series {n}" for n, name in enumerate(names, start=1)]
    rows = [[label] + [column.get(key, "") for column in columns] for key, label in categories]
    return [Table([header], rows, caption=title, prov=prov)]


def _points(parent: etree._Element | None) -> dict[int, str]:
    """Cached points (`c:pt` with `idx`) under a `c:cat`, `c:val`, `c:xVal` or `c:yVal`."""
    if parent is None:
        return {}
    out: dict[int, str] = {}
    for point in parent.iter(f"{{{C}}}pt"):
        value = point.findtext(f"{{{C}}}v") or ""
        try:
            index = int(point.get("idx", ""))
        except ValueError:
            continue
        if index not in out:  # multi-level categories: the innermost level comes first
            number = parse_number(value)
            out[index] = format_number(number) if number is not None else value.strip()
    return out


def _series(
    space: etree._Element,
) -> tuple[list[str], list[tuple[int, str]], list[dict[int, str]]]:
    """Series names, categories `(index, label)` in order, and each series' values by index."""
    names: list[str] = []
    labels: dict[int, str] = {}
    columns: list[dict[int, str]] = []
    plot_area = space.find(f"{{{C}}}chart/{{{C}}}plotArea")
    if plot_area is None:
        return names, [], columns
    for plot in plot_area:
        if not isinstance(plot.tag, str) or not plot.tag.endswith("Chart"):
            continue
        for series in plot.iterfind(f"{{{C}}}ser"):
            tx = series.find(f"{{{C}}}tx")
            name = (tx.findtext(f".//{{{C}}}v") or element_text(tx)) if tx is not None else ""
            cats = _points(series.find(f"{{{C}}}cat")) or _points(series.find(f"{{{C}}}xVal"))
            values = _points(series.find(f"{{{C}}}val")) or _points(series.find(f"{{{C}}}yVal"))
            for index, label in cats.items():
                labels.setdefault(index, label)
            for index in values:
                labels.setdefault(index, str(index + 1))
            names.append(collapse_whitespace(name))
            columns.append(values)
    return names, sorted(labels.items()), columns


def is_smartart(shape: BaseShape) -> bool:
    data = shape.element.find(f".//{{{A}}}graphicData")
    return data is not None and data.get("uri") == DIAGRAM_URI


def smartart_block(shape: BaseShape, prov: Provenance) -> ListBlock | None:
    """The diagram's node texts as a list, nested by parent–child connections."""
    rel_ids = shape.element.find(f".//{{{DGM}}}relIds")
    rel_id = rel_ids.get(f"{{{R}}}dm") if rel_ids is not None else None
    if not rel_id:
        return None
    blob = shape.part.related_part(rel_id).blob
    model = etree.fromstring(blob, SAFE_XML)
    texts: dict[str, str] = {}
    roots: list[str] = []
    for point in model.iterfind(f"{{{DGM}}}ptLst/{{{DGM}}}pt"):
        kind, model_id = point.get("type", "node"), point.get("modelId", "")
        if kind == "doc":
            roots.append(model_id)
        elif kind == "node":
            body = point.find(f"{{{DGM}}}t")
            text = collapse_whitespace(element_text(body)) if body is not None else ""
            texts[model_id] = text
    items = _smartart_items(model, texts, roots, prov)
    return ListBlock(items, prov) if items else None


def _smartart_items(
    model: etree._Element, texts: dict[str, str], roots: list[str], prov: Provenance
) -> list[ListItem]:
    children: dict[str, list[tuple[int, str]]] = {}
    for link in model.iterfind(f"{{{DGM}}}cxnLst/{{{DGM}}}cxn"):
        if link.get("type", "parOf") != "parOf":
            continue
        try:
            order = int(link.get("srcOrd", "0"))
        except ValueError:
            order = 0
        children.setdefault(link.get("srcId", ""), []).append((order, link.get("destId", "")))
    items: list[ListItem] = []
    seen: set[str] = set()
    stack = [(root, -1) for root in reversed(roots)]
    while stack:
        node, depth = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if texts.get(node):
            items.append(ListItem(texts[node], "-", min(depth, MAX_LIST_DEPTH), prov))
        below = sorted(children.get(node, []), reverse=True)
        stack.extend((child, depth + 1) for _, child in below)
    for node, text in texts.items():  # not reachable from the diagram's root
        if text and node not in seen:
            items.append(ListItem(text, "-", 0, prov))
    return _normalise_depths(items)


def _normalise_depths(items: list[ListItem]) -> list[ListItem]:
    if not items:
        return items
    base = min(item.depth for item in items)
    for item in items:
        item.depth = max(item.depth - base, 0)
    return items
