"""Blocks to chunk text: light Markdown that embeds well and reads well.

Paragraphs as text, lists with their markers and nesting indentation, tables as pipe
tables (caption on the line above), code fenced with its language, a figure's words line
by line under its caption.
"""

from __future__ import annotations

from ..document import Block, Code, Figure, ListBlock, ListItem, Paragraph, Table
from ..markup import fenced_code, pipe_row

LIST_INDENT = "  "


def render_item(item: ListItem) -> str:
    """One list item, continuation lines indented under its text."""
    indent = LIST_INDENT * item.depth
    pad = "\n" + indent + " " * (len(item.marker) + 1)
    return f"{indent}{item.marker} " + item.text.replace("\n", pad)


def render_table_head(table: Table) -> str:
    """Caption, header rows and the delimiter row: repeated on every piece of a split table."""
    width = table_width(table)
    lines = []
    if table.caption:
        lines.append(table.caption)
    header = table.header or [[""] * width]
    lines.extend(pipe_row(_pad(row, width)) for row in header)
    lines.append("|" + "|".join(["---"] * width) + "|")
    return "\n".join(lines)


def table_width(table: Table) -> int:
    return max((len(r) for r in table.header + table.rows), default=1) or 1


def _pad(row: list[str], width: int) -> list[str]:
    return row + [""] * (width - len(row))


def render_table_rows(table: Table) -> list[str]:
    width = table_width(table)
    return [pipe_row(_pad(row, width)) for row in table.rows]


def render_block(block: Block) -> str:
    """The whole block as it appears in a chunk when it is not cut."""
    if isinstance(block, Paragraph):
        return block.text
    if isinstance(block, ListBlock):
        return "\n".join(render_item(item) for item in block.items)
    if isinstance(block, Table):
        rows = render_table_rows(block)
        return "\n".join([render_table_head(block), *rows])
    if isinstance(block, Code):
        return fenced_code(block.text, block.language)
    if isinstance(block, Figure):
        return f"{block.caption}\n{block.text}" if block.caption else block.text
    raise TypeError(f"not a block: {block!r}")
