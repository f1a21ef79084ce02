"""The `inspect --html` report: self-contained and escaped, and rendered by a real browser
(headless Chromium) with its chunk blocks, badges, histogram and flag filter."""

from __future__ import annotations

import colorsys
import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from structchunk.cli.inspect import inspect_command
from structchunk.quality.flags import FlagRules
from structchunk.quality.inspection import Inspection, inspect_documents
from structchunk.quality.report_html import histogram_bins, render_report
from structchunk.quality.views import ChunkView, DocumentChunks

BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
BROWSER_TIMEOUT = 90
"""Seconds for one headless run; a cold start on a loaded 2-core CI machine takes ~5."""

HOSTILE = '<script>alert("x")</script> & "quotes" <img src=x onerror=alert(1)>'


def find_browser() -> str | None:
    """$STRUCTCHUNK_BROWSER, else Chromium or Chrome on PATH."""
    configured = os.environ.get("STRUCTCHUNK_BROWSER")
    if configured:
        return configured
    return next((path for name in BROWSER_NAMES if (path := shutil.which(name))), None)


def chunk(
    index: int, text: str, path: tuple[str, ...] = ("Guide", "Keys"), **fields: object
) -> ChunkView:
    values: dict[str, object] = {
        "source": "guide.md",
        "index": index,
        "text": text,
        "body": text,
        "heading_path": path,
        "n_tokens": len(text.split()),
        "lines": (index * 3 + 1, index * 3 + 2),
    }
    values.update(fields)
    return ChunkView(**values)  # type: ignore[arg-type]


def sample_inspection() -> Inspection:
    """Five chunks: two clean, one too small, one table piece, one hostile text."""
    chunks = [
        chunk(0, "Rotate a key every ninety days so that leaked keys stop working soon."),
        chunk(1, "Too small."),
        chunk(2, "| key | age |\n|---|---|\n| a | 3 |", table_rows=(1, 1, 4)),
        chunk(3, HOSTILE + " and then some more words to be long enough."),
        chunk(4, "The last chunk of the guide ends with a full stop, as it should."),
    ]
    return inspect_documents([DocumentChunks("guide.md", chunks)], FlagRules(budget=40), "words")


def test_all_text_is_escaped_and_nothing_is_fetched() -> None:
    html = render_report(sample_inspection())
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quotes&quot;" in html
    assert 'http-equiv="Content-Security-Policy"' in html and "default-src 'none'" in html
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html)
    assert "@import" not in html and not re.search(r"url\((?!#)", html)  # url(#id) is local
    assert html.count("<script>") == 1  # ours, with no data in it


def test_documents_are_listed_under_paths_relative_to_where_it_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: one scroll of cards under absolute paths, with no way to a document."""
    monkeypatch.chdir(tmp_path)
    inside, outside = str(tmp_path / "docs" / "guide.md"), "/elsewhere/notes.md"
    documents = [
        DocumentChunks(inside, [chunk(n, "Rotate a key.", source=inside) for n in (0, 1)]),
        DocumentChunks(outside, [chunk(0, "Too small.", source=outside)]),
    ]
    html = render_report(inspect_documents(documents, FlagRules(budget=40), "words"))
    nav = html[html.index("<nav") : html.index("</nav>")]
    assert '<a href="#d0">docs/guide.md</a> <small>2 chunks, 2 flagged</small>' in nav
    assert '<a href="#d1">/elsewhere/notes.md</a> <small>1 chunk, 1 flagged</small>' in nav
    assert "<h2>docs/guide.md</h2>" in html and inside not in html
    assert "<nav" not in render_report(sample_inspection())  # one document: no list


def test_histogram_bins_split_at_the_budget() -> None:
    bins = histogram_bins([1, 5, 10, 11, 30], budget=10)
    assert sum(n for _, _, n in bins) == 5
    assert any(high == 10 for _, high, _ in bins) and any(low == 11 for low, _, _ in bins)
    assert bins[-1][1] == 30
    assert histogram_bins([], budget=256)[0][0] == 0


# -- in a real browser -----------------------------------------------------------------


def run_browser(browser: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        *args,
    ]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=BROWSER_TIMEOUT, check=False
    )


@pytest.fixture(scope="module")
def browser() -> str:
    found = find_browser()
    if found is None:
        pytest.skip(
            "no headless browser: install Debian's `chromium` package (or set "
            "$STRUCTCHUNK_BROWSER) to test the HTML report as rendered"
        )
    return found


@pytest.fixture
def report(tmp_path: Path) -> Path:
    path = tmp_path / "report.html"
    path.write_text(render_report(sample_inspection()), encoding="utf-8")
    return path


def status(dom: str) -> dict[str, str]:
    match = re.search(r'<p id="status"([^>]*)>', dom)
    assert match, "the status line is missing"
    return dict(re.findall(r'([\w-]+)="([^"]*)"', match.group(1)))


def test_the_browser_renders_blocks_and_badges(browser: str, report: Path, tmp_path: Path) -> None:
    result = run_browser(browser, tmp_path / "profile", "--dump-dom", report.as_uri())
    dom = result.stdout
    assert result.returncode == 0 and dom, result.stderr[-2000:]
    assert dom.count('<article class="chunk') == 5
    assert dom.count('class="badge" data-flag="TOO_SMALL"') == 2  # legend + chunk 1
    assert 'data-flag="TABLE_SPLIT"' in dom and 'class="bar"' in dom
    shown = status(dom)
    assert shown["data-filter"] == "all" and shown["data-shown"] == "5"
    assert int(shown["data-badges-drawn"]) == 2  # laid out with a size: really drawn
    assert "Showing 5 of 5 chunks (all)." in dom
    assert "<script>alert" not in dom.split("<main>")[1]


def test_the_flag_filter_shows_flagged_chunks_with_their_neighbours(
    browser: str, report: Path, tmp_path: Path
) -> None:
    """Before: the filter hid the chunk on the other side of a cut."""
    url = report.as_uri() + "#filter=TOO_SMALL"
    dom = run_browser(browser, tmp_path / "profile", "--dump-dom", url).stdout
    assert status(dom)["data-shown"] == "1" and status(dom)["data-context"] == "2"
    articles = re.findall(r"<article [^>]*>", dom)
    visible = [a for a in articles if "hidden" not in a]
    assert len(articles) == 5 and len(visible) == 3
    assert 'data-flags="TOO_SMALL"' in visible[1] and "context" not in visible[1]
    assert all(re.search(r'class="chunk[ a-z]* context"', visible[n]) for n in (0, 2))
    assert ["-c0" in visible[0], "-c2" in visible[2]] == [True, True]
    assert 'data-filter="TOO_SMALL" aria-pressed="true"' in dom
    assert "with 2 neighbours dimmed." in dom


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_a_screenshot_of_a_report_made_by_the_command(browser: str, tmp_path: Path) -> None:
    source = tmp_path / "sizes.md"
    source.write_text(
        "# Sizes\n\nEvery size we sell.\n\n| size | price |\n|---|---|\n"
        + "".join(f"| s{n} | {n} euros |\n" for n in range(12)),
        encoding="utf-8",
    )
    group = click.Group(commands=[inspect_command])
    report = tmp_path / "report.html"
    result = CliRunner().invoke(
        group, ["inspect", str(source), "--max-tokens", "20", "--html", str(report)]
    )
    assert result.exit_code == 0, result.output
    shot = tmp_path / "shot.png"
    run_browser(
        browser,
        tmp_path / "profile",
        "--window-size=1000,1400",
        f"--screenshot={shot}",
        report.as_uri(),
    )
    data = shot.read_bytes()
    assert png_size(data) == (1000, 1400)
    assert len(data) > 20_000  # a blank page compresses to a few kB; ours has text and colour


# -- the source view -------------------------------------------------------------------

SOURCE = "# Keys\n\nRotate <b>every</b> key.\n\nRevoke old keys at once.\n"


def source_inspection(offsets: list[tuple[tuple[int, int], ...]]) -> Inspection:
    chunks = [
        chunk(n, f"chunk {n} text long enough to be fine here", offsets=spans)
        for n, spans in enumerate(offsets)
    ]
    document = DocumentChunks("keys.md", chunks, source_text=SOURCE)
    return inspect_documents([document], FlagRules(budget=40), "words")


def test_the_source_view_shades_each_chunks_spans_and_marks_each_cut() -> None:
    rotate, revoke = SOURCE.index("Rotate"), SOURCE.index("Revoke")
    both = (revoke, revoke + len("Revoke"))  # an overlap: two chunks share the word
    html = render_report(source_inspection([((rotate, revoke + 6),), (both, (revoke + 7, 51))]))
    view = html[html.index('<pre class="source"') : html.index("</pre>", html.index("d0-source"))]
    assert view.count('<span class="cut"') == 1  # where the second chunk begins
    assert '<mark data-chunks="d0-c0" style="--hue:0">Rotate &lt;b&gt;every&lt;/b&gt;' in view
    assert '<mark data-chunks="d0-c0 d0-c1" style="--hue:0">Revoke</mark>' in view
    assert view.startswith('<pre class="source" id="d0-source"># Keys\n\n<mark')  # untaken
    assert 'class="doc-body with-source"' in html


def test_no_source_view_without_offsets_or_for_a_huge_source(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert '<pre class="source"' not in render_report(sample_inspection())
    monkeypatch.setattr("structchunk.quality.source_view.MAX_SOURCE_CHARS", 10)
    html = render_report(source_inspection([((0, 6),)]))
    assert '<pre class="source"' not in html and "Source view left out" in html


def test_a_chunk_selected_in_the_browser_lights_up_its_spans(browser: str, tmp_path: Path) -> None:
    """The page's own click handler, run by Chromium (the `#chunk=` link clicks the card)."""
    group = click.Group(commands=[inspect_command])
    report = tmp_path / "report.html"
    sample = Path(__file__).resolve().parent.parent / "samples" / "api-keys.md"
    result = CliRunner().invoke(
        group, ["inspect", str(sample), "--max-tokens", "60", "--html", str(report)]
    )
    assert result.exit_code == 0, result.output
    dom = run_browser(
        browser, tmp_path / "profile", "--dump-dom", report.as_uri() + "#chunk=d0-c1"
    ).stdout
    shown = status(dom)
    assert shown["data-selected"] == "d0-c1" and int(shown["data-marks-active"]) >= 1
    active = re.findall(r'<mark data-chunks="[^"]*d0-c1[^"]*"[^>]*class="active"[^>]*>', dom)
    assert len(active) == int(shown["data-marks-active"])
    assert re.search(r'<article class="chunk[^"]* active"[^>]*id="d0-c1"', dom)


# -- the page view ---------------------------------------------------------------------

SAMPLE_PDF = Path(__file__).resolve().parent.parent / "samples" / "rust-data-types.pdf"


def pdf_inspection(path: Path) -> Inspection:
    from structchunk import chunk_file
    from structchunk.quality.views import view_of_chunk

    chunks = [view_of_chunk(c) for c in chunk_file(path, max_tokens=256)]
    return inspect_documents([DocumentChunks(str(path), chunks)], FlagRules(256), "words")


def test_the_page_view_draws_each_page_with_its_chunks_boxes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    inspection = pdf_inspection(SAMPLE_PDF)
    html = render_report(inspection)
    chunks = inspection.documents[0].chunks
    assert html.count('<figure class="page"') == 7
    assert html.count("<rect data-chunks=") == sum(len(c.boxes) for c in chunks)
    page, x0, top, _, _ = chunks[1].boxes[0]
    assert f'<rect data-chunks="d0-c1" x="{x0}" y="{top}"' in html
    assert html.count('src="data:image/jpeg;base64,') == 7  # embedded: nothing fetched
    monkeypatch.setattr("structchunk.quality.page_view.MAX_REPORT_PAGES", 2)
    capped = render_report(inspection)
    assert capped.count('<figure class="page"') == 2 and "Pages 3–7 are not drawn" in capped


def test_a_missing_pdf_leaves_a_note_not_a_failure(tmp_path: Path) -> None:
    path = tmp_path / "gone.pdf"
    shutil.copy(SAMPLE_PDF, path)
    inspection = pdf_inspection(path)
    path.unlink()
    html = render_report(inspection)
    assert "Pages not drawn:" in html and '<figure class="page"' not in html


def test_a_screenshot_shows_the_selected_chunks_box_over_its_page(
    browser: str, tmp_path: Path
) -> None:
    from PIL import Image

    group = click.Group(commands=[inspect_command])
    report = tmp_path / "report.html"
    result = CliRunner().invoke(group, ["inspect", str(SAMPLE_PDF), "--html", str(report)])
    assert result.exit_code == 0, result.output
    # tall enough that the chosen block is in view: headless shots of a scrolled page are blank
    url, size = report.as_uri() + "#chunk=d0-c1", "--window-size=1100,2400"
    dom = run_browser(browser, tmp_path / "p1", size, "--hide-scrollbars", "--dump-dom", url)
    shown = status(dom.stdout)
    assert shown["data-selected"] == "d0-c1" and int(shown["data-marks-active"]) >= 1
    left, top, width, height = map(int, shown["data-first-mark"].split(","))
    assert width > 50 and height > 3
    shot = tmp_path / "shot.png"
    run_browser(browser, tmp_path / "p2", size, "--hide-scrollbars", f"--screenshot={shot}", url)
    image = Image.open(shot).convert("RGB")

    def chunk_1_colour(pixel: tuple[int, int, int]) -> bool:
        """Chunk 1's hue (47°), saturated: its outline, drawn thick when chosen."""
        hue, saturation, _ = colorsys.rgb_to_hsv(*(v / 255 for v in pixel))
        return abs(hue * 360 - 47) < 12 and saturation > 0.3

    columns = range(left + 5, left + width - 5)
    edge = [
        any(chunk_1_colour(image.getpixel((x, y))) for y in range(top - 1, top + 4))
        for x in columns
    ]
    assert sum(edge) > 0.8 * len(edge)
    outside = [chunk_1_colour(image.getpixel((x, top - 12))) for x in columns]
    assert sum(outside) < 0.2 * len(outside)  # the box, not a colour wash over everything


def test_a_jsonl_of_our_pdf_records_draws_the_pages_still_at_their_path(tmp_path: Path) -> None:
    from structchunk import chunk_file
    from structchunk.quality.views import read_chunk_file
    from structchunk.records import to_json_line
    from structchunk.tokenizers import get_tokenizer

    records = tmp_path / "chunks.jsonl"
    chunks = chunk_file(SAMPLE_PDF)
    records.write_text("".join(to_json_line(c) for c in chunks), encoding="utf-8")
    words = get_tokenizer("words")
    documents = read_chunk_file(str(records), words.count, words.name)
    html = render_report(inspect_documents(documents, FlagRules(512), "words"))
    assert html.count('<figure class="page"') == 7
    assert html.count("<rect data-chunks=") == sum(len(c.boxes or []) for c in chunks)


def test_furniture_the_parser_left_out_is_hatched_on_its_page(tmp_path: Path) -> None:
    from pdf_factory import Page, pdf_bytes

    from structchunk.batch.inputs import InputFile
    from structchunk.options import ChunkOptions
    from structchunk.quality.loading import chunk_document

    bodies = [
        "Create a new key before the old one expires.",
        "Switch every client over to the new key.",
        "Revoke the old key once no request uses it.",
    ]
    pages = [
        Page().text(72, 740, "Key rotation guide").text(72, 690, body).text(300, 40, str(n))
        for n, body in enumerate(bodies, start=1)
    ]
    path = tmp_path / "guide.pdf"
    path.write_bytes(pdf_bytes(pages))
    document = chunk_document(InputFile(str(path), "pdf"), path.read_bytes(), ChunkOptions())
    assert {int(box[0]) for box in document.dropped_boxes} == {1, 2, 3}
    html = render_report(inspect_documents([document], FlagRules(512), "words"))
    assert html.count('<rect class="furniture"') == len(document.dropped_boxes)
    assert 'id="furniture-hatch"' in html


def test_a_report_that_cannot_be_written_is_one_line_after_the_table(tmp_path: Path) -> None:
    """`--html` into a folder that is a file raised `OutputError` as a traceback; now
    one line names the report, the summary table stands and the exit code is 1."""
    source = tmp_path / "notes.md"
    source.write_text("# Notes\n\nA short note.\n", encoding="utf-8")
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder", encoding="utf-8")
    group = click.Group(commands=[inspect_command])
    result = CliRunner().invoke(
        group, ["inspect", str(source), "--html", str(blocker / "report.html")]
    )
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Notes" in result.stdout or "chunks" in result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "report.html" in lines[0]
    assert "blocker is a file, not a folder" in lines[0]  # not mkdir's "File exists"
