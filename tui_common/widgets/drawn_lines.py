"""A widget that draws its lines of text itself, for the regions that change on most keys."""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Callable, Sequence
from typing import Any, cast

from rich.console import Console
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual.app import RenderResult
from textual._border import get_box, render_border_label, render_row
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from textual.css.types import AlignHorizontal, EdgeType
from textual.dom import DOMNode
from textual.content import Content
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.style import Style

from shared.record import record
from tui_common.widgets.unscrolled import Unscrolled


def wrapped(text: Text, width: int, console: Console) -> list[Text]:
    """``text``'s rows at ``width`` as Textual wraps a widget's text: Rich's word wrap, each row
    broken inside a line without the spaces it ends with (Rich keeps them)."""
    rows: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        if line.cell_len <= width and "\t" not in line.plain:
            rows.append(line)  # fits: Rich's wrap would give it back as it is, at a cost
            continue
        broken = list(line.wrap(console, width))
        for row in broken[:-1]:
            row.rstrip()
        rows += broken
    return rows


class DrawnLines(Unscrolled):
    """Lines of Rich text, one per row, in the widget's border, title, padding and colours.

    Textual draws a widget row by row through its style machinery: ~0.15 ms a row on a
    2-core VM, 1.7 ms for a box of 12 rows and ~15 ms for seven boxes on one key (issue 32).
    Here the rows are drawn once per change, as Textual would draw them, with Textual's own
    border pieces; a widget whose CSS asks for more than border, title, padding, colours
    and text style (outline, tint, opacity, hatch, a subtitle) is drawn by Textual, and
    ``tests/test_drawn_lines.py`` compares both drawings cell by cell.

    A subclass returns its lines from ``lines`` (one too long for the width wraps, as Textual
    wraps it) and calls ``redraw`` when they change.

    A look that follows the game (the box selected, the box to act) is a class of the CSS
    drawn over the widget's own rules, named by ``looks`` (see ``LOOK_RULES``), not a class
    set on the widget: a class that changes restyles the widget through Textual's stylesheet
    (~0.6 ms a box, seven boxes on the key that opens a round). A look's rules are read from
    the stylesheet once per widget class (``BoxesBoard > .box--selected { ... }``), so they may
    not depend on the widget's id or ancestors.
    """

    PAINTERS_KEPT = 32
    """Painters remembered before the memory starts over (a widget of seven boxes, each in its looks)."""

    _drawn: list[Strip] | None = None
    _painter: _Painter | None = None
    _painters: dict[tuple[object, ...], _Painter] | None = None

    def lines(self) -> Sequence[Text]:
        raise NotImplementedError

    def looks(self) -> tuple[str, ...]:
        """The looks the widget is drawn in now, each over the one before."""
        return ()

    def redraw(self) -> None:
        self._drawn = None
        self.refresh()

    def render(self) -> RenderResult:
        # Textual's own drawing, for the CSS this class does not draw.
        return Text("\n").join(self.lines())

    def notify_style_update(self) -> None:
        self._drawn = self._painter = self._painters = None
        super().notify_style_update()

    def render_lines(self, crop: Region) -> list[Strip]:
        if not self._draws_itself():
            if self.looks():
                raise TypeError(f"{self!r} has looks, which only DrawnLines draws, and CSS it cannot draw")
            return super().render_lines(crop)
        painter = self.painter(None, self.looks())
        if self._painter is not painter:
            self._painter = painter
            self._drawn = None
        if self._drawn is None:
            self._drawn = painter.draw(self.lines(), self._border_title)
        return self._cropped(self._drawn, crop)

    def _cropped(self, drawn: list[Strip], crop: Region) -> list[Strip]:
        """The rows of ``drawn`` (the widget's, whole) that ``crop`` asks for, cut to its columns."""
        strips = drawn[crop.y:crop.bottom]
        if crop.column_span != (0, self.outer_size.width):
            x1, x2 = crop.column_span
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips

    def painter(self, size: Size | None, looks: tuple[str, ...]) -> _Painter:
        """How a box of ``size`` (None: the widget's own) draws in this widget's styles and
        ``looks``, kept per size and look: a box selected, then not, then selected again draws
        its rows once, and a widget of several boxes (Midi's roads) has a painter for each size."""
        app = self.app
        key = (size or self.outer_size, app.theme, app.ansi_color, looks)
        painters = self._painters
        if painters is None or len(painters) > self.PAINTERS_KEPT or any(k[1:3] != key[1:3] for k in painters):
            painters = self._painters = {}
        painter = painters.get(key)
        if painter is None:
            painter = painters[key] = _Painter(self, key, [_look(self, name) for name in looks], size)
        return painter

    def _draws_itself(self) -> bool:
        styles = self.styles
        return (
            self.opacity == 1.0
            and styles.text_opacity == 1.0
            and not styles.tint.a
            and not any(edge for edge, _ in styles.outline)
            and (not styles.has_rule("hatch") or styles.hatch == "none")
            and self._border_subtitle is None
        )


LOOK_RULES = frozenset({"border_top", "border_right", "border_bottom", "border_left", "color", "auto_color",
                        "border_title_color", "auto_border_title_color", "border_title_background",
                        "border_title_style"})
"""The rules a look may set: what a painter draws differently (border, text colour, title)."""

_read_looks: weakref.WeakKeyDictionary[Stylesheet, dict[tuple[type, str], _Look]] = weakref.WeakKeyDictionary()


@record
class _Look:
    """A look's rules, as the stylesheet gives them to the class ``name`` under the widget."""

    rules: object
    """The stylesheet's rules read: a new theme or CSS makes new ones, and the look is read again."""
    styles: dict[str, object]


def _look(widget: DrawnLines, name: str) -> _Look:
    stylesheet = widget.app.stylesheet
    known = _read_looks.setdefault(stylesheet, {})
    look = known.get((type(widget), name))
    if look is None or look.rules is not stylesheet.rules:
        # Textual's own way to read a component class's rules: a node of that class under the widget.
        node = DOMNode(classes=name)
        node._attach(widget)
        stylesheet.apply(node)
        rules = node.styles.base.get_rules()
        if not rules or not rules.keys() <= LOOK_RULES:
            raise ValueError(f"the look {name!r} of {type(widget).__name__} sets {sorted(rules) or 'nothing'};"
                             f" a look sets only {sorted(LOOK_RULES)}")
        look = known[(type(widget), name)] = _Look(stylesheet.rules, {rule: getattr(node.styles, rule) for rule in rules})
    return look


_styles_by_console: weakref.WeakKeyDictionary[Console, dict[tuple[object, ...], dict[Any, Any]]] = (
    weakref.WeakKeyDictionary())
"""Per app (its console), the styles its painters worked out, by what they depend on."""
_STYLE_CONTEXTS_KEPT = 64
"""Contexts remembered before the memory starts over (themes switched back and forth)."""


class _Painter:
    """How one widget draws at one size, in one set of styles: its colours, its border pieces,
    and the rows it has drawn — most rows of a redraw were drawn before (a box's bets, the
    log's older entries), so each is drawn once and taken again. A new size, theme or style
    (a class, focus) makes a new painter, and so does a new look."""

    ROWS_KEPT = 256
    """Rows remembered before the memory starts over (a log draws new rows all shift long)."""

    def __init__(self, widget: DrawnLines, key: tuple[object, ...], looks: list[_Look], size: Size | None = None) -> None:
        self.key = key
        self.widget = widget
        self.width, self.height = size or widget.outer_size
        styles = widget.styles
        self.styles = styles
        look: dict[str, object] = {}
        for each in looks:
            look.update(each.styles)
        self.look = look
        self.base_background, self.background = widget.background_colors
        self.inner = Style(background=self.base_background + self.background)
        self.outer = Style(background=self.base_background)
        self.inner_rich = self.inner.rich_style
        self.border: tuple[tuple[EdgeType, Color], ...] = tuple(
            cast(tuple[EdgeType, Color], look.get(f"border_{side}", edge))
            for side, edge in zip(("top", "right", "bottom", "left"), styles.border, strict=True))
        if [bool(kind) for kind, _ in self.border] != [bool(kind) for kind, _ in styles.border]:
            raise ValueError(f"a look of {widget!r} adds or takes a border edge: the widget's size is its layout's")
        (_, _), (right, right_color), (_, _), (left, left_color) = self.border
        self.left, self.right = bool(left), bool(right)
        self.padding = styles.padding
        self.gutter = styles.gutter
        self.content_width, self.content_height = widget.content_region.size if size is None else \
            (max(0, self.width - self.gutter.width), max(0, self.height - self.gutter.height))
        self.filters = widget.get_line_filters()
        self.console, self.ansi_theme = widget.app.console, widget.app.ansi_theme
        self.visual_style = widget.visual_style
        if "color" in look:  # the widget's own colour is the last of its ancestors' (Widget.visual_style)
            color = cast(Color, look["color"])
            if look.get("auto_color"):  # "auto 60%" ($text-muted): the text's contrast on its background
                color = self.background.get_contrast_text(color.a)
            self.visual_style = dataclasses.replace(self.visual_style, foreground=color)
        self.left_piece = get_box(left, self.inner, self.outer, self._edge(left_color))[1][0] if left else None
        self.right_piece = get_box(right, self.inner, self.outer, self._edge(right_color))[1][2] if right else None
        # Shared by every painter in the same colours, filters and background (most widgets
        # of a table): each style is worked out once per app, not once per widget (13-15
        # widgets at a launch's first frame).
        shared = _styles_by_console.setdefault(self.console, {})
        if len(shared) > _STYLE_CONTEXTS_KEPT:
            shared.clear()
        self.filtered_styles: dict[RichStyle | None, RichStyle | None] = shared.setdefault(
            ("filtered", self.background, *self.filters), {})
        self.final_styles: dict[str | RichStyle | None, RichStyle] = shared.setdefault(
            ("final", self.ansi_theme, self.visual_style), {})
        self.rows: dict[object, list[list[Segment]]] = {}
        self.strips: dict[object, Strip] = {}

    def _edge(self, color: Color) -> Style:
        return Style(foreground=self.base_background + color)

    def draw(self, lines: Sequence[Text], title: Content | None) -> list[Strip]:
        height = self.height
        (top, _), _, (bottom, _), _ = self.border
        pad_top, _, pad_bottom, _ = self.padding
        gutter = self.gutter
        if len(self.strips) > self.ROWS_KEPT:
            self.rows.clear()
            self.strips.clear()
        rows = self._content_rows(lines)
        strips: list[Strip] = []
        for y in range(height):
            if (top and y == 0) or (bottom and y == height - 1):
                key: object = ("border", y == 0, title if y == 0 else None)
            elif (pad_top and y < gutter.top) or (pad_bottom and y >= height - gutter.bottom):
                key = ("padding",)
            else:
                content_y = y - gutter.top
                key = rows[content_y] if content_y < min(len(rows), self.content_height) else ("blank",)
            strip = self.strips.get(key)
            if strip is None:
                strip = self.strips[key] = self._strip(key)
            strips.append(strip)
        return strips

    def _strip(self, key: object) -> Strip:
        """The row ``key`` names, with its sides and padding, through the app's filters."""
        inner_rich = self.inner_rich
        if key[0] == "border":  # type: ignore[index]
            line = self._border_row(key[1], key[2])  # type: ignore[index]
        elif key == ("padding",):
            line = self._with_sides([Segment(" " * (self.width - self.left - self.right), inner_rich)])
        else:
            _, pad_right, _, pad_left = self.padding
            if key == ("blank",):
                segments = [Segment(" " * self.content_width, self.visual_style.rich_style)]
            else:
                line_key, row = cast(tuple[object, int], key)
                segments = self.rows[line_key][row]
            line = self._with_sides([
                *([Segment(" " * pad_left, inner_rich)] if pad_left else []),
                *segments,
                *([Segment(" " * pad_right, inner_rich)] if pad_right else []),
            ])
        filtered = self._filtered
        return Strip([Segment(text, filtered(style)) for text, style, _ in line], self.width)

    def _filtered(self, style: RichStyle | None) -> RichStyle | None:
        """``style`` through the app's line filters (ANSI colours to the theme's, …): each maps
        a segment's style alone, so each style is mapped once, not each row's."""
        seen = self.filtered_styles
        if style in seen:
            return seen[style]
        probe = [Segment(" ", style)]
        for line_filter in self.filters:
            probe = line_filter.apply(probe, self.background)
        seen[style] = probe[0].style
        return probe[0].style

    def _with_sides(self, segments: list[Segment]) -> list[Segment]:
        return [*([self.left_piece] if self.left_piece else []), *segments,
                *([self.right_piece] if self.right_piece else [])]

    def _border_row(self, is_top: bool, label: Content | None) -> list[Segment]:
        widget, styles, width = self.widget, self.styles, self.width
        (top, top_color), _, (bottom, bottom_color), _ = self.border
        kind, color = (top, top_color) if is_top else (bottom, bottom_color)
        border_style = self._edge(color)
        label_segments: list[Segment] = []
        if label is not None:
            label_color, label_background, label_style = widget._get_title_style_information(self.base_background)
            look = self.look
            if "border_title_color" in look:
                label_color = cast(Color, look["border_title_color"])
                if look.get("auto_border_title_color"):  # as DOMNode._get_title_style_information
                    label_color = self.base_background.get_contrast_text(label_color.a)
            label_background = cast(Color, look.get("border_title_background", label_background))
            if "border_title_style" in look:
                label_style = Style.from_rich_style(cast(RichStyle, look["border_title_style"]))
            label_base = self.base_background + self.background
            label_style += Style(
                (label_base + label_background) if label_background.a else None,
                (label_base + label_color) if label_color.a else None,
            )
            label_segments = list(render_border_label(
                (label, label_style), is_top, kind, width - 2, self.inner, self.outer, border_style, self.left, self.right
            ))
        pieces = get_box(kind, self.inner, self.outer, border_style)
        align = cast(AlignHorizontal, styles.border_title_align if is_top else styles.border_subtitle_align)
        return list(render_row(pieces[0 if is_top else 2], width, self.left, self.right, label_segments, align))

    def _content_rows(self, lines: Sequence[Text]) -> list[object]:
        """A key per content row: each line's rows at the content's width, in the widget's
        style as Textual's content would be — every span's colours over the widget's, blended
        as Textual blends them. No lines draw as one empty line, and a line too long wraps,
        as Textual draws them."""
        width = self.content_width
        keys: list[object] = []
        if width < 1:
            return keys  # no room inside the border and padding
        for line in lines or [Text()]:
            key = (line.plain, line.style, tuple(line.spans))
            rows = self.rows.get(key)
            if rows is None:
                rows = self.rows[key] = [self._segments(row) for row in wrapped(line, width, self.console)]
            keys += [(key, index) for index in range(len(rows))]
        return keys

    def _segments(self, line: Text) -> list[Segment]:
        segments = _side_by_side(line, self._final)
        if segments is None:
            if line.style:
                # Rich's ``render`` leaves a line's own style to the console: a span here.
                line = line.copy()
                line.stylize_before(line.style)
                line.style = ""
            segments = [Segment(segment.text, self._final(segment.style))
                        for segment in line.render(self.console) if segment.text]
        if line.cell_len < self.content_width:
            segments.append(Segment(" " * (self.content_width - line.cell_len), self.inner_rich))
        return segments

    def _final(self, style: str | RichStyle | None) -> RichStyle:
        done = self.final_styles.get(style)
        if done is None:
            rich = self.console.get_style(style, default=RichStyle()) if isinstance(style, str) else style or RichStyle()
            done = self.final_styles[style] = (self.visual_style + Style.from_rich_style(rich, self.ansi_theme)).rich_style
        return done


def _side_by_side(line: Text, final: Callable[[str | RichStyle | None], RichStyle]) -> list[Segment] | None:
    """``line``'s segments when its spans lie side by side, as appended text leaves them (most
    lines): each piece in its span's style, the rest in the line's own. None when spans
    overlap (Rich's ``render`` combines them)."""
    text, spans = line.plain, line.spans
    segments: list[Segment] = []
    position = 0
    for span in spans:
        if span.start < position:
            return None
        if span.start > position:
            segments.append(Segment(text[position:span.start], final(line.style or None)))
        if span.end > span.start:
            if line.style:
                return None  # the line's style under the span's: Rich combines them
            segments.append(Segment(text[span.start:span.end], final(span.style)))
        position = max(position, span.end)
    if position < len(text):
        segments.append(Segment(text[position:], final(line.style or None)))
    return segments
