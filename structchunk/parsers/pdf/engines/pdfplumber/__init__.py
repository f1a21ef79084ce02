"""The pdfplumber engine: pdfminer's interpretation of every page, in pure Python.

engine.py      `PlumberPdf`: the document (tags, bookmarks, metadata) and its pages
page.py        one pdfplumber page read: words, ruled grids, bullets, tags, rotated
               pages; the hidden-text filter and the ruled-grid reader the PDFium
               engine also uses for a page too crowded to collect itself
"""
