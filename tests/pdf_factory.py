"""Tiny PDFs written by the tests themselves: text in the standard fonts, rules and boxes.

The standard 14 fonts need no embedding (pdfminer knows their metrics), so a test can
lay out exactly the page a regression needs — a bold heading at body size, a letter-
spaced title, two columns, a borderless table — in a few lines:

    page = Page()
    page.text(72, 700, "Item 2. Management's Discussion", font="Helvetica-Bold", size=10)
    pdf_bytes([page])

Coordinates are PDF points from the bottom-left corner, as in a content stream.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FONTS = {
    "Helvetica": "F1",
    "Helvetica-Bold": "F2",
    "Times-Roman": "F3",
    "Times-Bold": "F4",
    "Courier": "F5",
    "Helvetica-Oblique": "F6",
    "Wingdings3": "F7",
    "Symbol": "F8",
}
UNMAPPED_FONTS = frozenset({"Wingdings3", "Symbol"})
"""Symbol fonts written without a Unicode map, as Word embeds them: readers see their
byte codes (`h` for a Wingdings 3 bullet, `b` for Symbol's β)."""
WIDTH, HEIGHT = 612.0, 792.0

BODY = [
    "The Company designs, manufactures and markets smartphones, personal computers,",
    "tablets, wearables and accessories, and sells a variety of related services to",
    "customers around the world through its retail and online stores and resellers.",
]
"""A paragraph of a filing's prose, three lines, for tests that need body text."""


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


@dataclass
class Page:
    """One US Letter page: a list of content-stream operations (`ops`, raw operators may
    be added), turned `rotate` degrees clockwise for display (`/Rotate`)."""

    ops: list[str] = field(default_factory=list)
    rotate: int = 0
    written: tuple[bytes, str] | None = None
    """The content stream as the file holds it, and its `/Filter` entry: for streams
    built otherwise than from `ops` (hostile ones), which then are not used."""
    size: tuple[float, float] = (WIDTH, HEIGHT)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        font: str = "Helvetica",
        size: float = 10.0,
        char_space: float = 0.0,
    ) -> Page:
        """`text` with its baseline at (x, y); `char_space` adds points after each glyph."""
        self.ops.append(
            f"BT /{FONTS[font]} {size:g} Tf {char_space:g} Tc {x:g} {y:g} Td "
            f"({_escape(text)}) Tj ET"
        )
        return self

    def lines(
        self,
        x: float,
        y: float,
        texts: list[str],
        font: str = "Helvetica",
        size: float = 10.0,
        leading: float | None = None,
    ) -> float:
        """Lines one under the other from baseline y; returns the baseline after the last."""
        step = leading if leading is not None else size * 1.2
        for line in texts:
            self.text(x, y, line, font, size)
            y -= step
        return y

    def rule(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.5) -> Page:
        self.ops.append(f"{width:g} w {x0:g} {y0:g} m {x1:g} {y1:g} l S")
        return self

    def box(self, x: float, y: float, w: float, h: float) -> Page:
        self.ops.append(f"0.5 w {x:g} {y:g} {w:g} {h:g} re S")
        return self


def _deflated(stream: bytes, layers: int) -> tuple[bytes, str]:
    """`stream` Flate-compressed `layers` times, and the /Filter entry that says so."""
    import zlib

    for _ in range(layers):
        stream = zlib.compress(stream, 9)
    return stream, (f" /Filter [{' '.join(['/FlateDecode'] * layers)}]" if layers else "")


def bomb_stream(megabytes: int, layers: int = 2) -> tuple[bytes, str]:
    """A content stream showing one string of `megabytes` MB of spaces, Flate-compressed
    `layers` times (two: about 1 KB), built without holding the inflated text; and its
    `/Filter` entry (for `Page.written`)."""
    import zlib

    inner = zlib.compressobj(9)
    parts = [inner.compress(b"BT /F1 10 Tf 72 680 Td (")]
    block = b" " * (1 << 20)
    parts += [inner.compress(block) for _ in range(megabytes)]
    parts += [inner.compress(b") Tj ET"), inner.flush()]
    stream, filters = _deflated(b"".join(parts), layers - 1)
    return stream, filters.replace(
        "[", "[/FlateDecode "
    ) if layers > 1 else " /Filter [/FlateDecode]"


def hexed_bomb_stream(megabytes: int) -> tuple[bytes, str]:
    """`bomb_stream` behind an ASCIIHex filter, which the stream bounds of
    `parsers/pdf/stream_limits.py` do not decode: only a memory limit holds it."""
    stream, filters = bomb_stream(megabytes)
    return stream.hex().encode() + b">", filters.replace("[", "[/ASCIIHexDecode ")


def _outline_objects(
    outline: list[tuple[int, str, int]], first_id: int, page_ids: list[int]
) -> list[bytes]:
    """The outline dictionary (object `first_id`) and one item per `(level, title,
    page index)`, nested by level, each pointing at the top of its page."""
    ids = [first_id + 1 + i for i in range(len(outline))]
    parents: list[int] = []
    stack: list[tuple[int, int]] = []  # (level, item index)
    for level, _, _ in outline:
        while stack and stack[-1][0] >= level:
            stack.pop()
        parents.append(stack[-1][1] if stack else -1)
        stack.append((level, len(parents) - 1))
    children: dict[int, list[int]] = {}
    for index, parent in enumerate(parents):
        children.setdefault(parent, []).append(index)
    top = children.get(-1, [])
    objects = [
        f"<< /Type /Outlines /First {ids[top[0]]} 0 R /Last {ids[top[-1]]} 0 R "
        f"/Count {len(outline)} >>".encode()
    ]
    for index, (_, title, page) in enumerate(outline):
        siblings = children[parents[index]]
        at = siblings.index(index)
        parent_id = first_id if parents[index] < 0 else ids[parents[index]]
        entry = f"<< /Title ({_escape(title)}) /Parent {parent_id} 0 R "
        entry += f"/Dest [{page_ids[page]} 0 R /XYZ null {HEIGHT:g} null] "
        if at > 0:
            entry += f"/Prev {ids[siblings[at - 1]]} 0 R "
        if at + 1 < len(siblings):
            entry += f"/Next {ids[siblings[at + 1]]} 0 R "
        kids = children.get(index, [])
        if kids:
            entry += f"/First {ids[kids[0]]} 0 R /Last {ids[kids[-1]]} 0 R /Count {len(kids)} "
        objects.append((entry + ">>").encode())
    return objects


@dataclass(frozen=True)
class Font:
    """A font beside the standard ones, for `pdf_bytes(fonts=…)`: its dictionary's
    entries as the file writes them, and a ToUnicode CMap to go with it."""

    entries: str
    to_unicode: bytes | None = None


def pdf_bytes(
    pages: list[Page],
    title: str = "",
    deflate_layers: int = 0,
    outline: list[tuple[int, str, int]] | None = None,
    fonts: dict[str, Font] | None = None,
) -> bytes:
    """A complete PDF of `pages` (no tags); content streams compressed `deflate_layers`
    times; bookmarks from `outline`, `(level, title, page index)` each; `fonts` adds
    fonts under their resource names (`F20`)."""
    objects: list[bytes] = []
    font_ids = {}
    for name in FONTS:
        font = f"/Type /Font /Subtype /Type1 /BaseFont /{name} /Encoding /WinAnsiEncoding"
        if name in UNMAPPED_FONTS:  # not a standard font: readers need its metrics
            objects.append(
                f"<< /Type /FontDescriptor /FontName /{name} /Flags 4 /FontBBox [0 -200 1000 900]"
                " /ItalicAngle 0 /Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 >>".encode()
            )
            widths = " ".join(["600"] * 224)
            font += f" /FirstChar 32 /LastChar 255 /Widths [{widths}]"
            font += f" /FontDescriptor {len(objects)} 0 R"
        objects.append(f"<< {font} >>".encode())
        font_ids[name] = len(objects)
    resources = " ".join(f"/{FONTS[n]} {i} 0 R" for n, i in font_ids.items())
    for resource, extra in (fonts or {}).items():
        entries = extra.entries
        if extra.to_unicode is not None:
            objects.append(
                b"<< /Length %d >>\nstream\n" % len(extra.to_unicode)
                + extra.to_unicode
                + b"\nendstream"
            )
            entries += f" /ToUnicode {len(objects)} 0 R"
        objects.append(f"<< {entries} >>".encode())
        resources += f" /{resource} {len(objects)} 0 R"
    pages_id = len(objects) + 2 * len(pages) + 1
    kids = []
    page_ids: list[int] = []
    for page in pages:
        stream = "\n".join(page.ops).encode("cp1252")  # WinAnsiEncoding: dashes, quotes
        stream, filters = page.written or _deflated(stream, deflate_layers)
        objects.append(
            b"<< /Length %d%s >>\nstream\n" % (len(stream), filters.encode())
            + stream
            + b"\nendstream"
        )
        content_id = len(objects)
        rotate = f"/Rotate {page.rotate} " if page.rotate else ""
        objects.append(
            (
                f"<< /Type /Page /Parent {pages_id} 0 R "
                f"/MediaBox [0 0 {page.size[0]:g} {page.size[1]:g}] "
                f"{rotate}/Contents {content_id} 0 R /Resources << /Font << {resources} >> >> >>"
            ).encode()
        )
        kids.append(f"{len(objects)} 0 R")
        page_ids.append(len(objects))
    objects.append(f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(pages)} >>".encode())
    assert len(objects) == pages_id
    outlines = ""
    if outline:
        outlines = f" /Outlines {len(objects) + 1} 0 R"
        objects += _outline_objects(outline, len(objects) + 1, page_ids)
    info = f" /Info {len(objects) + 2} 0 R" if title else ""
    objects.append(f"<< /Type /Catalog /Pages {pages_id} 0 R{outlines} >>".encode())
    catalog_id = len(objects)
    if title:
        objects.append(f"<< /Title ({_escape(title)}) >>".encode())
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root {catalog_id} 0 R{info} >>\n"
        f"startxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(out)
