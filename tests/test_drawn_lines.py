"""``DrawnLines`` draws its rows itself (issue 32): every row must be what Textual's own drawing
of the same widget gives, cell by cell — character, colours, bold, italic, reverse, dim,
underline, strike — on both consoles' tables through whole rounds, at 120×40 and 100×30,
and on made-up widgets of every border, padding, colour and style the consoles use. So must
the table screen's and its bands' rows, one blank row drawn and repeated (``BlankRows``), and
Madero's boxes, Midi's roads and hands, each drawn as one region (``DrawnBoxes``): what Textual drew
of as many bordered widgets in their bands, laid out by the CSS they had."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget
from tui_helpers import SIZE, aio

from madero_tui.widgets.box import BoxesBoard, box_lines
from madero_tui.widgets.top import TopRow
from midi_tui.widgets.hand import HandsBoard
from midi_tui.widgets.roads import RoadsBoard, road_boxes, road_lines
from shared.midi.roads import ROWS
from tui_common.widgets.drawn_boxes import DrawnBoxes
from tests.test_madero_tui import BETS, live_app as madero_app
from tests.test_midi_tui import bet, live_app as midi_app, sign_in, start_shoe
from tui_common.screens.table import Band, BlankRows
from tui_common.widgets.drawn_lines import DrawnLines, _look
from tui_common.widgets.quiet_static import QuietStatic

SMALL = (100, 30)


def cells(strips) -> list[list[tuple]]:
    rows = []
    for strip in strips:
        row = []
        for segment in strip:
            style = segment.style
            for character in segment.text:
                row.append((character,
                            style.color.get_truecolor() if style and style.color else None,
                            style.bgcolor.get_truecolor() if style and style.bgcolor else None,
                            *(bool(style and getattr(style, name)) for name in
                              ("bold", "italic", "reverse", "dim", "underline", "strike"))))
        rows.append(row)
    return rows


def textual_drawing(widget: Widget, crop: Region):
    """The widget drawn by Textual itself: its styles cache, its ``render()``; a drawn widget's
    looks (``DrawnLines.looks``) set as its own rules (how they are read from the CSS is checked
    against classes on made-up widgets)."""
    looks = widget.looks() if isinstance(widget, DrawnLines) else ()
    inline = widget.styles.inline
    for name in looks:
        for rule, value in _look(widget, name).styles.items():
            inline.set_rule(rule, value)
    widget.refresh()
    widget._styles_cache.clear()
    try:
        return Widget.render_lines(widget, crop)
    finally:
        if looks:
            inline.reset()
            widget._styles_cache.clear()


def assert_drawn_as_textual(screen, where: str) -> int:
    checked = 0
    for widget in screen.query(DrawnLines):
        if not widget.region.area or isinstance(widget, DrawnBoxes):
            continue  # not on screen (the log under the settlement); boxes: *_as_widgets below
        assert widget._draws_itself(), widget
        crop = Region(0, 0, *widget.outer_size)
        drawn = cells(widget.render_lines(crop))
        textual = cells(textual_drawing(widget, crop))
        assert drawn == textual, (where, widget.id, *(["".join(c[0] for c in row) for row in rows] for rows in (drawn, textual)),
                                  next(((y, x, a, b) for y, (ra, rb) in enumerate(zip(drawn, textual, strict=True))
                                        for x, (a, b) in enumerate(zip(ra, rb, strict=False)) if a != b), None))
        width, height = widget.outer_size
        if width > 2 and height > 1:
            part = Region(1, 1, width - 2, height - 1)
            assert cells(widget.render_lines(part)) == cells(textual_drawing(widget, part)), (where, widget.id, "cropped")
        checked += 1
    # The table screen and its bands: one blank row drawn and repeated (BlankRows).
    for blank in (*([screen] if isinstance(screen, BlankRows) else []), *screen.query(Band)):
        width, height = blank.outer_size
        for crop in (Region(0, 0, width, height), Region(1, 1, max(width - 2, 0), max(height - 1, 0))):
            assert cells(blank.render_lines(crop)) == cells(textual_drawing(blank, crop)), (where, blank.id, crop)
        checked += 1
    return checked


async def settled(pilot, done, app=None) -> None:
    """The Carrusel's server answers in a worker thread: its answer drawn."""
    for _ in range(200):
        if done():
            break
        await pilot.pause(0.02)
    assert done(), app and (app.engine.phase, app.table_screen.prompt.text, app.table_screen.key_bar.content.plain)


async def press_checking(pilot, *tokens: str, every_key: bool = True) -> int:
    """Each key, then every drawn widget on the screen compared with Textual's drawing (after
    each token's last key only, unless ``every_key``)."""
    named = {"enter", "escape", "backspace"}
    checked = 0
    for token in tokens:
        keys = [token] if token in named else list(token)
        for index, key in enumerate(keys):
            await pilot.press(key)
            if every_key or index == len(keys) - 1:
                await pilot.pause()
                checked += assert_drawn_as_textual(pilot.app.screen, f"after {key!r} of {token!r}")
    return checked


@pytest.mark.parametrize("size", [SIZE, SMALL])
@aio
async def test_madero_s_table_is_drawn_as_textual_draws_it_through_a_whole_round(tmp_path, size):
    """Every key at 120×40; at 100×30 (narrow boxes, a short settlement) each bet and card."""
    app = madero_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        checked = assert_drawn_as_textual(app.screen, "launch")
        await assert_boxes_drawn_as_widgets(pilot, app.table_screen.boxes)
        checked += await press_checking(pilot, *BETS, "n", "v", "r", "v", "v", "2c", "3d", "4h", "t", "p", "t",
                                        every_key=size == SIZE)
        await assert_boxes_drawn_as_widgets(pilot, app.table_screen.boxes)  # to act, selected, retired
        checked += await press_checking(pilot, "5s", "t", "p", "p", "9c", "ks", "kh", "ah", "ad", "kc", "kd", "7c", "7d",
                                        every_key=size == SIZE)
        if app.table_screen.lower.current != "settlement":
            checked += await press_checking(pilot, "enter")  # a meter prize's claim first (Art. 12 §58)
        await settled(pilot, lambda: app.table_screen.lower.current == "settlement", app)
        checked += assert_drawn_as_textual(app.screen, "the settlement")
        await assert_boxes_drawn_as_widgets(pilot, app.table_screen.boxes)  # what each box is paid
        assert app.table_screen.lower.region.area  # the settlement table checked too
        checked += await press_checking(pilot, "enter")
        await settled(pilot, lambda: not app.engine.round_open and app.table_screen.lower.current == "log")
        checked += await press_checking(pilot, "a", "10")
        assert checked > 250


@pytest.mark.parametrize("size", [SIZE, SMALL])
@aio
async def test_midi_s_table_is_drawn_as_textual_draws_it_through_a_coup(tmp_path, size):
    app = midi_app(tmp_path, lang="en")
    async with app.run_test(size=size) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 1, "b", 25)  # refused (its half is no whole chip, Art. 5 §2): the error line
        assert "Art. 5 §2" in app.message_line.text
        checked = assert_drawn_as_textual(app.screen, "a refusal")
        checked += await press_checking(pilot, "backspace", "backspace", "20", "enter", "2", "p", "40", "enter",
                                        "n", "24")
        hands = app.table_screen.hands
        assert hands.looks_of[:2] == [("hand--next",), ()], "PUNTO's third card is called for"
        await assert_hands_drawn_as_widgets(pilot, hands)
        checked += await press_checking(pilot, "34")
        assert hands.looks_of[:2] == [(), ("hand--winner",)], "BANCA wins, 7 to 6"
        await assert_hands_drawn_as_widgets(pilot, hands)
        checked += await press_checking(pilot, "enter")
        assert checked > 100
        board = app.table_screen.roads
        assert any(board._cells), "the coup's marks on the roads"
        await assert_roads_drawn_as_widgets(pilot, board)


class BoxWidget(Widget):
    """A Madero box as the console had it before ``BoxesBoard``: a bordered widget of its own,
    its looks its own rules, drawn by Textual."""

    DEFAULT_CSS = "BoxWidget { width: 1fr; height: 100%; border: round $panel-lighten-2; border-title-align: left; padding: 0 1; }"

    def __init__(self, board: BoxesBoard, index: int) -> None:
        super().__init__()
        self.view = board.views[index]
        self.border_title = board.titles[index].plain
        for name in board.looks_of[index]:
            for rule, value in _look(board, name).styles.items():
                self.styles.inline.set_rule(rule, value)

    def render(self) -> Text:
        return Text("\n").join(box_lines(self.view, self.content_size.width))


class BoxesAsWidgets(Screen[None]):
    """The board's boxes as widgets in a band of its size."""

    DEFAULT_CSS = "BoxesAsWidgets.-narrow BoxWidget { padding: 0 0; }"

    def __init__(self, board: BoxesBoard) -> None:
        super().__init__(classes="-narrow" if board.screen.has_class("-narrow") else None)
        self.board = board

    def compose(self) -> ComposeResult:
        band = Band()
        band.styles.width, band.styles.height = self.board.outer_size
        with band:
            for index in range(len(self.board.views)):
                yield BoxWidget(self.board, index)


class TopBoxWidget(Widget):
    """One of Madero's top row as the console had it before ``TopRow``: the bank, the board or
    the paytable, a bordered widget of its own drawn by Textual."""

    DEFAULT_CSS = "TopBoxWidget { height: 100%; border: round $secondary; padding: 0 1; }"

    def __init__(self, top: TopRow, index: int, id: str) -> None:
        super().__init__(id=id)
        self.top, self.index = top, index
        title = top.titles[index]
        self.border_title = None if title is None else title.plain

    def render(self) -> Text:
        return Text("\n").join(self.top.box(self.index, self.content_size.width)[0])


class TopAsWidgets(Screen[None]):
    """The top row's boxes as widgets in a band of its size."""

    DEFAULT_CSS = "TopAsWidgets #bank { width: 25; } TopAsWidgets #board { width: 1fr; } TopAsWidgets #paytable { width: 54; }"

    def __init__(self, top: TopRow) -> None:
        super().__init__()
        self.top = top

    def compose(self) -> ComposeResult:
        band = Band()
        band.styles.width, band.styles.height = self.top.outer_size
        with band:
            for index, name in enumerate(("bank", "board", "paytable")):
                yield TopBoxWidget(self.top, index, name)


async def assert_boxes_drawn_as_widgets(pilot, board: BoxesBoard) -> None:
    """The board's every cell is what Textual drew of its boxes as widgets."""
    await assert_drawn_as(pilot, board, BoxesAsWidgets(board))
    await assert_drawn_as(pilot, pilot.app.table_screen.top, TopAsWidgets(pilot.app.table_screen.top))


async def assert_drawn_as(pilot, board: DrawnBoxes, reference: Screen) -> None:
    """Every cell of ``board`` is what Textual drew of ``reference``'s widgets at its corner."""
    width, height = board.outer_size
    drawn = cells(board.render_lines(Region(0, 0, width, height)))
    await pilot.app.push_screen(reference)
    await pilot.pause()
    try:
        textual = cells([strip.crop(0, width) for strip in reference._compositor.render_strips()[:height]])
        assert drawn == textual, (width, height, [row for row, other in zip(drawn, textual, strict=True) if row != other][:1])
        assert cells(board.render_lines(Region(1, 1, width - 2, height - 1))) == [row[1:width - 1] for row in textual[1:]]
    finally:
        pilot.app.pop_screen()
        await pilot.pause()


class RoadWidget(Widget):
    """A road as the console had it before ``RoadsBoard``: a bordered widget of its own,
    drawn by Textual."""

    DEFAULT_CSS = "RoadWidget { border: round $primary-darken-2; height: 100%; padding: 0 0; }"

    def __init__(self, cells, title: str, **options) -> None:
        super().__init__(**options)
        self.cells = cells
        self.border_title = title

    def render(self) -> Text:
        return Text("\n").join(road_lines(self.cells, self.content_size.width))


class RoadsAsWidgets(Screen[None]):
    """Five road widgets in three bands of ``size``, laid out by the CSS the roads had
    (``midi.tcss`` before issue 32's ``RoadsBoard``)."""

    DEFAULT_CSS = """
    RoadsAsWidgets #roads { layout: vertical; }
    RoadsAsWidgets #roads-main, RoadsAsWidgets #roads-derived { height: 1fr; min-height: 3; max-height: 8; }
    RoadsAsWidgets #bead-plate { width: 34; }
    RoadsAsWidgets #big-road { width: 1fr; }
    RoadsAsWidgets #roads-derived RoadWidget { width: 1fr; }
    RoadsAsWidgets.-short #roads { layout: horizontal; }
    RoadsAsWidgets.-short #roads-main { width: 1fr; height: 100%; max-height: 8; }
    RoadsAsWidgets.-short #bead-plate { width: 1fr; }
    RoadsAsWidgets.-short #roads-derived { width: auto; height: 100%; max-height: 8; }
    RoadsAsWidgets.-short #roads-derived RoadWidget { width: 19; }
    """

    def __init__(self, size: tuple[int, int], short: bool, cells, titles: list[str]) -> None:
        super().__init__(classes="-short" if short else None)
        self.roads_size, self.cells, self.titles = size, cells, titles

    def compose(self) -> ComposeResult:
        roads = Band(id="roads")
        roads.styles.width, roads.styles.height = self.roads_size
        ids = ["bead-plate", "big-road", "big-eye-boy", "small-road", "cockroach-pig"]
        with roads:
            for band, numbers in (("roads-main", (0, 1)), ("roads-derived", (2, 3, 4))):
                with Band(id=band):
                    for n in numbers:
                        yield RoadWidget(self.cells[n], self.titles[n], id=ids[n])

    def laid_out(self) -> list[tuple[int, list[tuple[int, int]]]]:
        """The widgets' boxes as ``road_boxes`` words them: rows of (height, [(road, width)])."""
        rows: dict[int, tuple[int, list[tuple[int, int]]]] = {}
        for n, widget in enumerate(self.query(RoadWidget)):
            # By its band's place in the roads (side by side on a short terminal); its own size,
            # whole where the roads cut it off.
            row = rows.setdefault(widget.parent.virtual_region.y, (widget.outer_size.height, []))
            row[1].append((n, widget.outer_size.width))
        return [rows[y] for y in sorted(rows)]


async def roads_as_widgets(pilot, size: tuple[int, int], short: bool, cells, titles: list[str]) -> RoadsAsWidgets:
    reference = RoadsAsWidgets(size, short, cells, titles)
    await pilot.app.push_screen(reference)
    await pilot.pause()
    return reference


async def assert_roads_drawn_as_widgets(pilot, board: RoadsBoard) -> None:
    """The board's every cell is what Textual drew of the five road widgets at its size."""
    titles = [title.plain for title in board.titles]
    short = board.screen.has_class("-short")
    await assert_drawn_as(pilot, board, RoadsAsWidgets(tuple(board.outer_size), short, board._cells, titles))


def per_cell_road_lines(cells, cells_wide: int) -> list[Text]:
    """A road's rows the plainest way: each mark appended on its own, then cut to the width."""
    width = max(cells_wide // 2, 1)
    last = max((c[0] for c in cells), default=-1)
    first = max(0, last - width + 1)
    marks = {(col - first, row): (chars, style) for col, row, chars, style in cells if col >= first and row < ROWS}
    lines = []
    for row in range(ROWS):
        line = Text()
        for col in range(width):
            chars, style = marks.get((col, row), ("· ", "dim"))
            line.append(chars, style=style)
        line.truncate(cells_wide)
        lines.append(line)
    return lines


def styled_characters(line: Text) -> list[tuple[str, object]]:
    """Each character of ``line`` in the style Rich draws it in (overlapping spans combined)."""
    return [(character, segment.style) for segment in line.render(Console(width=200)) for character in segment.text]


ROAD_MARKS = st.sampled_from([("B ", "bold white on red"), ("P ", "bold white on blue"), ("T ", "bold black on green"),
                              ("●3", "bold red on dark_green"), ("○ ", "bold red"), ("╱ ", "bold blue"), ("· ", "dim")])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 70), st.integers(0, 7), ROAD_MARKS), max_size=90), st.integers(0, 120))
def test_a_road_s_rows_are_its_marks_each_in_its_style(marks, cells_wide):
    """``road_lines`` makes each row whole, a span per run of one style: every character and
    its style is what appending each mark on its own gives, at any width (odd, one cell, none)."""
    cells = [(col, row, chars, style) for col, row, (chars, style) in marks]
    rows, reference = road_lines(cells, cells_wide), per_cell_road_lines(cells, cells_wide)
    assert [styled_characters(row) for row in rows] == [styled_characters(row) for row in reference]
    assert all(row.cell_len <= cells_wide for row in rows)


@aio
async def test_the_roads_are_laid_out_as_textual_laid_out_their_bands(tmp_path):
    """``road_boxes`` at sizes of every kind (the shares of a width not divisible by three, a
    terminal too narrow or too short for the boxes) against the bands' layout by Textual."""
    app = midi_app(tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        await sign_in(pilot)
        titles = [title.plain for title in app.table_screen.roads.titles]
        no_marks = [[] for _ in titles]
        for width, height, short in [(120, 16, False), (121, 16, False), (140, 16, False), (160, 16, False),
                                     (118, 13, False), (120, 12, False), (100, 8, True), (101, 8, True),
                                     (120, 8, True), (90, 6, True), (78, 1, True), (60, 8, True), (50, 16, False)]:
            reference = await roads_as_widgets(pilot, (width, height), short, no_marks, titles)
            assert road_boxes(width, height, short) == reference.laid_out(), (width, height, short)
            app.pop_screen()
            await pilot.pause()


class HandWidget(Widget):
    """A hand or the counts as the console had them before ``HandsBoard``: a bordered widget
    of its own, its looks classes of the CSS it had (``midi.tcss`` before issue 32's board),
    drawn by Textual."""

    DEFAULT_CSS = """
    HandWidget { border: round $primary; height: 5; width: 1fr; padding: 0 1; }
    HandWidget.-winner { border: heavy $success; }
    HandWidget.-next { border: round $accent; }
    HandWidget#counts { width: 46; }
    """

    def __init__(self, text: Text, title: str, id: str) -> None:
        super().__init__(id=id)
        self.text = text
        self.border_title = title

    def render(self) -> Text:
        return self.text


class HandsAsWidgets(Screen[None]):
    """PUNTO, BANCA and the counts as widgets in a band of ``size``; ``looks``: the old classes
    of each hand (``-winner``, ``-next``)."""

    def __init__(self, size: tuple[int, int], texts: list[Text], titles: list[str], classes: list[str]) -> None:
        super().__init__()
        self.hands_size, self.texts, self.titles, self.hand_classes = size, texts, titles, classes

    def compose(self) -> ComposeResult:
        band = Band()
        band.styles.width, band.styles.height = self.hands_size
        with band:
            for index, name in enumerate(("punto", "banca", "counts")):
                widget = HandWidget(self.texts[index], self.titles[index], id=name)
                if index < 2:
                    widget.set_classes(self.hand_classes[index])
                yield widget

    def laid_out(self) -> list[tuple[int, list[tuple[int, int]]]]:
        widgets = list(self.query(HandWidget))
        return [(widgets[0].outer_size.height, [(n, widget.outer_size.width) for n, widget in enumerate(widgets)])]


async def assert_hands_drawn_as_widgets(pilot, board: HandsBoard) -> None:
    """The board's every cell is what Textual drew of the two hands and the counts as widgets,
    each hand in the classes its looks were."""
    classes = [" ".join("-" + look.removeprefix("hand--") for look in looks) for looks in board.looks_of[:2]]
    reference = HandsAsWidgets(tuple(board.outer_size), board.texts, [title.plain for title in board.titles], classes)
    await assert_drawn_as(pilot, board, reference)


@aio
async def test_the_hands_are_laid_out_as_textual_laid_out_their_band(tmp_path):
    """``HandsBoard.box_layout`` at widths of every kind (a rest not divisible by two, a
    terminal too narrow for the counts) against the band's layout by Textual."""
    app = midi_app(tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        await sign_in(pilot)
        board = app.table_screen.hands
        titles = [title.plain for title in board.titles]
        for width in (120, 100, 101, 117, 160, 47, 46, 30):
            board.styles.width = width
            await pilot.pause()
            assert board.outer_size.width == width
            reference = HandsAsWidgets((width, 5), board.texts, titles, ["", ""])
            await pilot.app.push_screen(reference)
            await pilot.pause()
            assert board.box_layout() == reference.laid_out(), width
            app.pop_screen()
            await pilot.pause()


class Lines(DrawnLines):
    DEFAULT_CSS = """
    Lines { height: 1fr; }
    Lines.-round { border: round $primary; padding: 0 1; }
    Lines.-heavy { border: heavy $accent; border-title-style: bold reverse; }
    Lines.-muted { color: $text-muted; }
    Lines.-error { background: $error 30%; color: $text; text-style: bold; }
    Lines.-boost { background: $boost; padding: 1 2; }
    Lines.-right { border-title-align: right; }
    Lines > .look--heavy { border: heavy $accent; border-title-style: bold reverse; }
    Lines > .look--muted { color: $text-muted; }
    Lines > .look--red { color: red 70%; border-title-color: auto 80%; }
    Lines > .look--title { border-title-color: $error; border-title-background: $boost; border-left: outer $success; }
    Lines.-look-heavy { border: heavy $accent; border-title-style: bold reverse; }
    Lines.-look-muted { color: $text-muted; }
    Lines.-look-red { color: red 70%; border-title-color: auto 80%; }
    Lines.-look-title { border-title-color: $error; border-title-background: $boost; border-left: outer $success; }
    """
    rows: list[Text] = []
    shown_looks: tuple[str, ...] = ()

    def lines(self) -> list[Text]:
        return self.rows

    def looks(self) -> tuple[str, ...]:
        return self.shown_looks


class Wrapped(QuietStatic):
    DEFAULT_CSS = "Wrapped { height: 1fr; padding: 0 1; }"


class Sample(App[None]):
    def compose(self) -> ComposeResult:
        yield Lines(id="lines")
        yield Wrapped(id="wrapped")


WORDS = ["Casilla", "7", "NETO", "+5.075", "−10.000", "10♥", "A♠", "Q♦", "libre", "ACTIVO", "Art. 8 §26.2:",
         "«Voy»", "sin", "juego", "apuesta", "Banca", "Punto", "empate", "日本", "x" * 30]
STYLES = ["", "bold", "italic", "bold green", "bold red", "dim", "reverse", "bold yellow", "red on white",
          "#ff8800", "underline", "strike"]


def made_up_text(rng: random.Random) -> Text:
    text = Text(style=rng.choice(["", "", "bold", "italic"]))
    for _ in range(rng.randint(0, 8)):
        text.append(rng.choice(WORDS) + rng.choice([" ", "  ", "", " "]), style=rng.choice(STYLES))
    return text


@pytest.mark.parametrize("filters", ["", "NO_COLOR", "dim"])
@aio
async def test_made_up_lines_in_every_border_padding_and_colour_are_drawn_as_textual_draws_them(monkeypatch, filters):
    """Under each of Textual's line filters too (a terminal without colour, a dimmed one)."""
    import textual.constants

    if filters == "NO_COLOR":
        monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(textual.constants, "FILTERS", "dim" if filters == "dim" else "")
    rng = random.Random(32)
    app = Sample()
    assert len(app.get_line_filters()) == (2 if filters else 1)  # ANSI colours to the theme's, and this one
    async with app.run_test(size=(60, 24)) as pilot:
        lines, wrapped = app.query_one(Lines), app.query_one(Wrapped)
        for example in range(100 if not filters else 30):
            lines.set_classes(" ".join(rng.sample(["-round", "-heavy", "-muted", "-error", "-boost", "-right"],
                                                  rng.randint(0, 3))))
            lines.border_title = rng.choice([None, " 3 ", " ▶ 7 ", "Banca larga " * 4])
            lines.rows = [made_up_text(rng) for _ in range(rng.randint(0, 14))]
            lines.styles.width = rng.randint(3, 60)
            lines.redraw()
            wrapped.show_text(Text("\n").join(made_up_text(rng) for _ in range(rng.randint(1, 4))))
            await pilot.pause()
            assert assert_drawn_as_textual(app.screen, f"example {example}") == 2


class Twins(App[None]):
    def compose(self) -> ComposeResult:
        yield Lines(id="looked")
        yield Lines(id="classed")


@aio
async def test_a_look_is_drawn_as_textual_draws_the_same_rules_set_by_a_class():
    """A look (``DrawnLines.looks``: a box selected, to act, muted) is drawn over the widget's own
    rules as a class set on it, after them in the CSS, is drawn by Textual; looks change back and
    forth without restyling the widget."""
    rng = random.Random(33)
    app = Twins()
    async with app.run_test(size=(60, 24)) as pilot:
        looked, classed = app.query_one("#looked", Lines), app.query_one("#classed", Lines)
        restyled: list[int] = []
        original = looked.update_node_styles
        for example in range(60):
            # A look changes how the border is drawn, never whether: that would be a new layout.
            base = ["-round", *rng.sample(["-heavy", "-muted", "-error", "-boost", "-right"], rng.randint(0, 3))]
            order = ["heavy", "muted", "red", "title"]  # the classes' order in the CSS: each over the one before
            names = tuple(sorted(rng.sample(order, rng.randint(0, 4)), key=order.index))
            looked.set_classes(" ".join(base))
            classed.set_classes(" ".join([*base, *(f"-look-{name}" for name in names)]))
            await pilot.pause()
            looked.update_node_styles = lambda *a, example=example: (restyled.append(example), original(*a))
            rows = [made_up_text(rng) for _ in range(4)]
            for _ in range(2):  # a look taken back, then again: the painter of each is kept
                looked.shown_looks = tuple(f"look--{name}" for name in names)
                for lines in (looked, classed):
                    lines.border_title = " ▶ 7 " if example % 2 else "Banca larga " * 4
                    lines.rows = rows
                    lines.styles.width = 30
                    lines.redraw()
                await pilot.pause()
                crop = Region(0, 0, *looked.outer_size)
                assert looked._draws_itself()
                assert cells(looked.render_lines(crop)) == cells(textual_drawing(classed, crop)), (example, names, base)
                looked.shown_looks = ()
                looked.redraw()
                await pilot.pause()
            looked.update_node_styles = original
        assert restyled == []


@aio
async def test_a_look_that_sets_a_rule_no_painter_draws_or_adds_a_border_is_refused():
    class Padded(Lines):
        DEFAULT_CSS = """
        Padded > .look--padded { padding: 2; }
        Padded > .look--framed { border: round red; }
        """

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield Padded()

    async with One().run_test(size=(40, 10)) as pilot:
        padded = pilot.app.query_one(Padded)
        with pytest.raises(ValueError, match="padding"):
            _look(padded, "look--padded")
        padded.shown_looks = ("look--framed",)
        with pytest.raises(ValueError, match="border edge"):
            padded.render_lines(Region(0, 0, 10, 3))


@aio
async def test_a_key_that_changes_every_box_draws_none_of_them_row_by_row(tmp_path):
    """«No va más» changes all seven boxes: Textual drew each row through its styles (~1.7 ms a
    box on a 2-core VM); the drawn widgets draw their rows at once."""
    app = madero_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await press_checking(pilot, *BETS)
        through_textual: list[str] = []
        original = StylesCache.render_widget

        def render_widget(self, widget, crop):
            through_textual.append(type(widget).__name__)
            return original(self, widget, crop)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(StylesCache, "render_widget", render_widget)
            await pilot.press("n")
            await pilot.pause()
        assert app.engine.round_open and "BoxesBoard" not in through_textual
        assert not {"LowerRegion", "KeyBar", "PromptLine"} & set(through_textual), through_textual


@aio
async def test_a_row_drawn_before_is_taken_again_not_drawn_anew(tmp_path):
    """«Voy» adds one entry to the log: its older rows were drawn at the key before, and only
    the new entry is drawn (each of the log's rows was drawn again on every key)."""
    from tui_common.widgets import drawn_lines

    app = madero_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await press_checking(pilot, *BETS, "n")
        log = app.table_screen.log_view
        entries = len(log._lines)
        drawn: list[tuple[str, str]] = []
        original = drawn_lines._Painter._segments

        def segments(self, line):
            drawn.append((self.widget.id, line.plain))
            return original(self, line)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(drawn_lines._Painter, "_segments", segments)
            await pilot.press("v")
            await pilot.pause()
        assert app.engine.boxes[1].decisions[0] is not None and len(log._lines) == entries + 1
        assert [line for widget, line in drawn if widget == "lower"] == [log._lines[-1]]
        assert_drawn_as_textual(app.screen, "after «voy»")


@pytest.mark.parametrize("size", [SIZE, SMALL])
@aio
async def test_a_box_redrawn_alone_repaints_its_whole_box(tmp_path, size):
    """A key that changes one box (the selection moving on) repaints that box, border and title
    included, and no other: Textual reads a repaint's region from the content's corner (inside
    the board's border and padding), and a box given from the board's own corner left its top
    row as it was (the old selection's heavy border, seen at the console)."""
    app = madero_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board = app.table_screen.boxes
        (height, row), = board.box_layout()
        repainted = Repainted()
        board._repaint_regions = repainted  # what Textual is asked to repaint, whenever its frame takes it
        await pilot.press("right")  # box 2 selected: boxes 1 and 2 drawn again
        await pilot.pause()
        assert board.looks_of[1] == ("box--selected", "box--muted")
        assert repainted.asked == [Region(0, 0, row[0][1], height), Region(row[0][1], 0, row[1][1], height)]


class Repainted(set):
    """A widget's regions to repaint, each kept as it is asked for (a frame clears the set)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[Region] = []

    def update(self, *regions) -> None:
        for each in regions:
            self.asked += sorted(each)
        super().update(*regions)
