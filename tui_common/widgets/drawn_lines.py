"""A widget that draws its lines of text itself, for the regions that change on most keys."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from rich.console import Console
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual.app import RenderResult
from textual._border import get_box, render_border_label, render_row
from textual.color import Color
from textual.css.types import AlignHorizontal
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget

from tui_common.widgets.unscrolled import Unscrolled


def wrapped(text: Text, width: int, console: Console) -> list[Text]:
    """``text``'s rows at ``width`` as Textual wraps a widget's text: Rich's word wrap, each row
    broken inside a line without the spaces it ends with (Rich keeps them)."""
    rows: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        broken = list(line.wrap(console, width))
        for row in broken[:-1]:
            row.rstrip()
        rows += broken
    return rows


class DrawnLines(Unscrolled, Widget):
    """Lines of Rich text, one per row, in the widget's border, title, padding and colours.

    Textual draws a widget row by row through its style machinery: ~0.15 ms a row on a
    2-core VM, 1.7 ms for a box of 12 rows and ~15 ms for seven boxes on one key (issue 32).
    Here the rows are drawn once per change, as Textual would draw them, with Textual's own
    border pieces; a widget whose CSS asks for more than border, title, padding, colours
    and text style (outline, tint, opacity, hatch, a subtitle) is drawn by Textual, and
    ``tests/test_drawn_lines.py`` compares both drawings cell by cell.

    A subclass returns its lines from ``lines`` (one too long for the width wraps, as Textual
    wraps it) and calls ``redraw`` when they change.
    """

    _drawn: tuple[object, list[Strip]] | None = None

    def lines(self) -> Sequence[Text]:
        raise NotImplementedError

    def redraw(self) -> None:
        self._drawn = None
        self.refresh()

    def render(self) -> RenderResult:
        # Textual's own drawing, for the CSS this class does not draw.
        return Text("\n").join(self.lines())

    def notify_style_update(self) -> None:
        self._drawn = None
        super().notify_style_update()

    def render_lines(self, crop: Region) -> list[Strip]:
        if not self._draws_itself():
            return super().render_lines(crop)
        app = self.app
        key = (self.outer_size, app.theme, app.ansi_color)
        if self._drawn is None or self._drawn[0] != key:
            self._drawn = (key, self._draw())
        strips = self._drawn[1][crop.y:crop.bottom]
        if crop.column_span != (0, self.outer_size.width):
            x1, x2 = crop.column_span
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips

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

    def _draw(self) -> list[Strip]:
        width, height = self.outer_size
        styles = self.styles
        base_background, background = self.background_colors
        inner = Style(background=base_background + background)
        outer = Style(background=base_background)
        inner_rich = inner.rich_style
        (top, top_color), (right, right_color), (bottom, bottom_color), (left, left_color) = styles.border
        pad_top, pad_right, pad_bottom, pad_left = styles.padding
        content_width, content_height = self.content_region.size
        gutter = styles.gutter
        filters = self.get_line_filters()
        strips: list[Strip] = []
        seen: dict[RichStyle | None, RichStyle | None] = {}

        def filtered(style: RichStyle | None) -> RichStyle | None:
            """``style`` through the app's line filters (ANSI colours to the theme's, …): each
            maps a segment's style alone, so each style is mapped once, not each row's."""
            if style in seen:
                return seen[style]
            probe = [Segment(" ", style)]
            for line_filter in filters:
                probe = line_filter.apply(probe, background)
            seen[style] = probe[0].style
            return probe[0].style

        def edge(color: Color) -> Style:
            return Style(foreground=base_background + color)

        left_piece = get_box(left, inner, outer, edge(left_color))[1][0] if left else None
        right_piece = get_box(right, inner, outer, edge(right_color))[1][2] if right else None

        def with_sides(segments: list[Segment]) -> list[Segment]:
            return [*([left_piece] if left_piece else []), *segments, *([right_piece] if right_piece else [])]

        def border_row(is_top: bool) -> list[Segment]:
            kind, color = (top, top_color) if is_top else (bottom, bottom_color)
            border_style = edge(color)
            label = self._border_title if is_top else None
            label_segments: list[Segment] = []
            if label is not None:
                label_color, label_background, label_style = self._get_title_style_information(base_background)
                label_base = base_background + background
                label_style += Style(
                    (label_base + label_background) if label_background.a else None,
                    (label_base + label_color) if label_color.a else None,
                )
                label_segments = list(render_border_label(
                    (label, label_style), is_top, kind, width - 2, inner, outer, border_style, bool(left), bool(right)
                ))
            pieces = get_box(kind, inner, outer, border_style)
            align = cast(AlignHorizontal, styles.border_title_align if is_top else styles.border_subtitle_align)
            return list(render_row(pieces[0 if is_top else 2], width, bool(left), bool(right), label_segments, align))

        blank_content = Segment(" " * content_width, self.visual_style.rich_style)
        padded_blank = with_sides([Segment(" " * (width - bool(left) - bool(right)), inner_rich)])
        rows = self._content_rows(content_width, inner_rich)
        for y in range(height):
            if (top and y == 0) or (bottom and y == height - 1):
                line = border_row(y == 0)
            elif (pad_top and y < gutter.top) or (pad_bottom and y >= height - gutter.bottom):
                line = padded_blank
            else:
                content_y = y - gutter.top
                segments = rows[content_y] if content_y < min(len(rows), content_height) else [blank_content]
                line = with_sides([
                    *([Segment(" " * pad_left, inner_rich)] if pad_left else []),
                    *segments,
                    *([Segment(" " * pad_right, inner_rich)] if pad_right else []),
                ])
            strips.append(Strip([Segment(text, filtered(style)) for text, style, _ in line], width))
        return strips

    def _content_rows(self, width: int, inner_rich: RichStyle) -> list[list[Segment]]:
        """Each line's segments at ``width`` cells, in the widget's style as Textual's content
        would be: every span's colours over the widget's, blended as Textual blends them. No
        lines draw as one empty line, and a line too long wraps, as Textual draws them."""
        app = self.app
        console, ansi_theme, base = app.console, app.ansi_theme, self.visual_style
        styled: dict[str | RichStyle | None, RichStyle] = {}

        def final(style: str | RichStyle | None) -> RichStyle:
            done = styled.get(style)
            if done is None:
                rich = console.get_style(style, default=RichStyle()) if isinstance(style, str) else style or RichStyle()
                done = styled[style] = (base + Style.from_rich_style(rich, ansi_theme)).rich_style
            return done

        rows: list[list[Segment]] = []
        if width < 1:
            return rows  # no room inside the border and padding
        for long_line in self.lines() or [Text()]:
            for line in wrapped(long_line, width, console) if long_line.cell_len > width else [long_line]:
                segments = _side_by_side(line, final)
                if segments is None:
                    if line.style:
                        # Rich's ``render`` leaves a line's own style to the console: a span here.
                        line = line.copy()
                        line.stylize_before(line.style)
                        line.style = ""
                    segments = [Segment(segment.text, final(segment.style))
                                for segment in line.render(console) if segment.text]
                if line.cell_len < width:
                    segments.append(Segment(" " * (width - line.cell_len), inner_rich))
                rows.append(segments)
        return rows


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
