"""The PDFium engine (the default): a page's characters, drawing, tags and bookmarks
through PDFium's C library (pypdfium2).

    engine.py      `PdfiumPdf`: opening, repairs, the document's evidence, one page read
                   through the modules below into a `PageReading`
    api.py         the PDFium calls made per character or object, bound with plain C types
    geometry.py    PDF user space to pdfplumber's top-left coordinates; glyph boxes
    text.py        a page's characters through PDFium's text page, in runs of one style
    glyph_names.py ligature glyphs PDFium gives no letters, spelt from the glyph names
    visibility.py  invisible text: the OCR layer kept, copies of visible text dropped
    objects.py     a page's drawing: ruling edges, bullet shapes, images, forms' marked
                   content, text objects in order
    repeats.py     double letters PDFium's text page drops as fake-bold copies, put back
    ruling.py      whether a page's ruling could hold a table at all
    tables.py      ruled grids: pdfplumber's table finder over PDFium's edges and characters
    structure.py   tags and bookmarks through PDFium
"""
