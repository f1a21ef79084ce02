"""Office files built in the tests with python-pptx, openpyxl and XlsxWriter, so every
expected heading, level, cell and merge is known exactly; and the hostile variants.

Run as a script to rebuild the generated sample: `python tests/office_factory.py`.
"""

from __future__ import annotations

import copy
import datetime as dt
import io
import re
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lxml import etree
from openpyxl import Workbook
from pptx import Presentation
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.slide import Slide
from pptx.util import Inches, Pt

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

LAYOUT_TITLE_SLIDE, LAYOUT_TITLE_AND_CONTENT, LAYOUT_TITLE_ONLY, LAYOUT_BLANK = 0, 1, 5, 6
"""Indexes of python-pptx's default template layouts."""


# --- PowerPoint ---------------------------------------------------------------------


def deck(title: str = "") -> Any:
    presentation = Presentation()
    presentation.core_properties.title = title
    return presentation


def deck_bytes(presentation: Any) -> bytes:
    buffer = io.BytesIO()
    presentation.save(buffer)
    return buffer.getvalue()


def add_slide(
    presentation: Any, title: str | None = None, layout: int = LAYOUT_TITLE_ONLY
) -> Slide:
    slide: Slide = presentation.slides.add_slide(presentation.slide_layouts[layout])
    if title is not None and slide.shapes.title is not None:
        slide.shapes.title.text = title
    return slide


def add_box(slide: Slide, text: str, left: float, top: float, width: float = 2.0) -> Any:
    """A text box at (left, top) inches; each line of `text` one paragraph."""
    box = slide.shapes.add_textbox(Inches(left), Inches(top), Inches(width), Inches(0.5))
    box.text_frame.text = text
    return box


def set_levels(frame: Any, items: list[tuple[int, str]]) -> None:
    """Paragraphs of a text frame with the given (level, text)."""
    frame.text = items[0][1]
    frame.paragraphs[0].level = items[0][0]
    for level, text in items[1:]:
        paragraph = frame.add_paragraph()
        paragraph.text = text
        paragraph.level = level


def mark_bullets(frame: Any, element: str, **attributes: str) -> None:
    """Give every paragraph of a frame an explicit bullet (`buChar`, `buAutoNum`, `buNone`)."""
    for paragraph in frame.paragraphs:
        ppr = paragraph._p.get_or_add_pPr()
        bullet = etree.SubElement(ppr, f"{{{A}}}{element}")
        for name, value in attributes.items():
            bullet.set(name, value)


def add_furniture(slide: Slide, kind: PP_PLACEHOLDER, text: str) -> None:
    """Copy the layout's footer, date or slide-number placeholder onto the slide (as
    PowerPoint does when "Header & Footer" is switched on) with `text` in it."""
    source = next(
        ph for ph in slide.slide_layout.placeholders if ph.placeholder_format.type == kind
    )
    element = copy.deepcopy(source.element)
    slide.shapes.element.append(element)
    shape = next(s for s in slide.shapes if s.element is element)
    shape.text_frame.text = text


def add_notes(slide: Slide, text: str) -> None:
    slide.notes_slide.notes_text_frame.text = text


def hide(slide: Slide) -> None:
    slide.element.set("show", "0")


def sample_font(frame: Any, size: int = 18) -> None:
    for paragraph in frame.paragraphs:
        for run in paragraph.runs:
            run.font.size = Pt(size)


# --- Excel --------------------------------------------------------------------------


def workbook_bytes(build: Callable[[Workbook], None]) -> bytes:
    """A workbook written by openpyxl (formulas stored without cached values)."""
    book = Workbook()
    book.remove(book.active)
    build(book)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def xlsxwriter_bytes(build: Callable[[Any], None]) -> bytes:
    """A workbook written by XlsxWriter, which can store formulas' cached values."""
    import xlsxwriter

    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    build(book)
    book.close()
    return buffer.getvalue()


def rewrite_part(data: bytes, name: str, change: Callable[[bytes], bytes]) -> bytes:
    """The package with one part's bytes changed (the others copied unchanged)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info.filename)
            target.writestr(info.filename, change(content) if info.filename == name else content)
    return buffer.getvalue()


def with_dimension(data: bytes, reference: str, sheet: str = "xl/worksheets/sheet1.xml") -> bytes:
    """The workbook with its first sheet claiming the used range `reference`."""

    def change(xml: bytes) -> bytes:
        if b"<dimension" in xml:
            return re.sub(rb'<dimension ref="[^"]*"', f'<dimension ref="{reference}"'.encode(), xml)
        return xml.replace(b"<sheetData", f'<dimension ref="{reference}"/><sheetData'.encode(), 1)

    return rewrite_part(data, sheet, change)


# --- hostile packages ---------------------------------------------------------------


def encrypted_ole() -> bytes:
    """The start of a password-protected Office file: an OLE file with an EncryptedPackage."""
    return OLE_MAGIC + b"\0" * 504 + "EncryptedPackage".encode("utf-16-le") + b"\0" * 64


def zip_bomb(content_type: str, member_mb: int = 64) -> bytes:
    """An Office package whose one part inflates about a thousand times."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/'
            f'2006/content-types"><Override PartName="/main.xml" ContentType="{content_type}"/>'
            "</Types>",
        )
        archive.writestr("bomb.xml", b"\0" * (member_mb << 20))
    return buffer.getvalue()


# --- the generated sample -----------------------------------------------------------


def sales_workbook() -> bytes:
    """`samples/regional-sales.xlsx`: a titled table with a merged header, dates,
    percents and formulas with cached values; a defined table; a second block beside
    it; a hidden sheet."""

    def build(book: Any) -> None:
        book.set_properties({"title": "Regional sales 2024", "created": dt.datetime(2024, 7, 12)})
        bold = book.add_format({"bold": True})
        date = book.add_format({"num_format": "yyyy-mm-dd"})
        percent = book.add_format({"num_format": "0.0%"})
        sheet = book.add_worksheet("Summary")
        sheet.merge_range("A1:E1", "Sales by region, first half of 2024", bold)
        sheet.merge_range("C2:D2", "Revenue (kEUR)", bold)
        for column, label in enumerate(["Region", "Manager", "", "", "Growth"]):
            if label:
                sheet.write(1, column, label, bold)
        sheet.write_row(2, 0, ["", "", "Q1", "Q2", ""], bold)
        regions = [
            ("North", "A. Lindqvist", 1200.5, 1350.25, 0.1247),
            ("South", "M. Rossi", 980.0, 1010.1, 0.0307),
            ("East", "K. Nowak", 1500.75, 1420.0, -0.0538),
            ("West", "J. Murphy", 875.3, 990.45, 0.1316),
        ]
        for row, (name, manager, q1, q2, growth) in enumerate(regions, start=3):
            sheet.write_row(row, 0, [name, manager, q1, q2])
            sheet.write_number(row, 4, growth, percent)
        sheet.write(7, 0, "Total", bold)
        sheet.write_formula(7, 2, "=SUM(C4:C7)", None, 4556.55)
        sheet.write_formula(7, 3, "=SUM(D4:D7)", None, 4770.8)
        sheet.write(9, 0, "Notes")
        sheet.write(10, 0, "Figures are unaudited; Q2 closed on 2024-07-05.")
        sheet.write_row(0, 7, ["Reviewed", "By"], bold)
        sheet.write_datetime(1, 7, dt.datetime(2024, 7, 12), date)
        sheet.write(1, 8, "Finance committee")
        orders = book.add_worksheet("Orders")
        orders.add_table(
            "A1:D6",
            {
                "name": "LargeOrders",
                "columns": [{"header": h} for h in ("Order", "Customer", "Date", "Amount")],
                "data": [
                    [
                        f"SO-{1040 + i}",
                        customer,
                        dt.datetime(2024, 3, 4) + dt.timedelta(days=9 * i),
                        amount,
                    ]
                    for i, (customer, amount) in enumerate(
                        [
                            ("Nordwind AB", 48000),
                            ("Solaris SpA", 39500.5),
                            ("Wisła Logistics", 61200),
                            ("Atlantic Foods", 27750),
                            ("Northern Rail", 55010.75),
                        ]
                    )
                ],
            },
        )
        orders.set_column("C:C", 12, date)
        hidden = book.add_worksheet("Lookup")
        hidden.write_row(0, 0, ["Code", "Region"])
        hidden.write_row(1, 0, ["N", "North"])
        hidden.hide()

    return xlsxwriter_bytes(build)


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "samples") / "regional-sales.xlsx"
    target.write_bytes(sales_workbook())
    print(f"wrote {target}")
