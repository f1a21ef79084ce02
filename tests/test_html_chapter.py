"""The chapter seam of the HTML reader (used by EPUB): a whole body walked into a caller's
sink, targets reported where the walk meets them."""

from __future__ import annotations

from structchunk.document import Block, ListBlock, Paragraph
from structchunk.parsers.html.chapter import walk_chapter


class Recorder:
    """A `ChapterSink` that writes down what it is told, in order."""

    def __init__(self) -> None:
        self.events: list[tuple[str, ...]] = []

    def heading(self, level: int, title: str) -> None:
        self.events.append(("heading", str(level), title))

    def add(self, block: Block) -> None:
        if isinstance(block, Paragraph):
            self.events.append(("paragraph", block.text))
        elif isinstance(block, ListBlock):
            self.events.append(("list", *[item.text for item in block.items]))
        else:
            self.events.append((type(block).__name__.lower(),))

    def target(self, fragment: str) -> None:
        self.events.append(("target", fragment))


def walk(body: str, targets: set[str] | None = None, head: str = "") -> list[tuple[str, ...]]:
    recorder = Recorder()
    page = f"<html><head>{head}</head><body>{body}</body></html>"
    walk_chapter(page.encode("utf-8"), recorder, targets or set())
    return recorder.events


def test_the_whole_body_is_kept_and_the_title_is_not_a_heading() -> None:
    events = walk(
        "<header><p>Chapter header</p></header><h1>Title</h1><p>text</p>"
        "<aside><p>A sidebar</p></aside><footer><p>end</p></footer>",
        head="<title>Page title</title>",
    )
    assert events == [
        ("paragraph", "Chapter header"),
        ("heading", "1", "Title"),
        ("paragraph", "text"),
        ("paragraph", "A sidebar"),
        ("paragraph", "end"),
    ]


def test_targets_are_reported_before_what_they_hold_and_after_what_precedes_them() -> None:
    events = walk(
        '<p>before <a id="mid"/>after</p><section id="s"><h2>Two</h2></section>'
        '<h3><a name="inner"></a>Three</h3><p id="other">not asked</p>',
        {"mid", "s", "inner"},
    )
    assert events == [
        ("paragraph", "before"),
        ("target", "mid"),
        ("paragraph", "after"),
        ("target", "s"),
        ("heading", "2", "Two"),
        ("target", "inner"),
        ("heading", "3", "Three"),
        ("paragraph", "not asked"),
    ]


def test_a_target_inside_a_list_is_not_reported() -> None:
    events = walk('<ul><li id="i1">one</li><li>two</li></ul>', {"i1"})
    assert events == [("list", "one", "two")]


def test_note_references_are_bracketed_and_never_content_is_dropped() -> None:
    events = walk(
        '<p>word<a epub:type="noteref" href="#n">2</a>,'
        ' more<a role="doc-noteref" href="#m">3</a></p>'
        '<nav><ol><li><a href="c.xhtml">Contents entry</a></li></ol></nav>'
        '<div epub:type="pagebreak">12</div><script>code()</script><p style="display:none">x</p>'
    )
    assert events == [("paragraph", "word [2], more [3]")]


def test_an_empty_chapter_reports_nothing() -> None:
    recorder = Recorder()
    walk_chapter(b"  \n", recorder, {"x"})
    assert recorder.events == []


def test_a_chapter_deeper_than_libxml2_builds_reads_like_a_shallow_one() -> None:
    """Past 2 048 levels the chapter is read into Python nodes: same events."""
    inner = (
        '<h2 id="deep">Deep</h2><p>word<a epub:type="noteref" href="#n">2</a> more</p>'
        '<div epub:type="pagebreak">12</div><p>after</p>'
    )

    def chapter(levels: int) -> list[tuple[str, ...]]:
        return walk("<div>" * levels + inner + "</div>" * levels + "<p>end</p>", {"deep"})

    assert (
        chapter(3000)
        == chapter(3)
        == [
            ("target", "deep"),
            ("heading", "2", "Deep"),
            ("paragraph", "word [2] more"),
            ("paragraph", "after"),
            ("paragraph", "end"),
        ]
    )
