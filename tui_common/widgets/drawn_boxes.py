"""Several boxes drawn as one widget: a table's row of like regions (Madero's boxes, Midi's roads)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from rich.text import Text
from textual.content import Content
from textual.geometry import Region, Size
from textual.strip import Strip

from tui_common.widgets.drawn_lines import DrawnLines

BoxRows = list[tuple[int, list[tuple[int, int]]]]
"""Rows of boxes, top to bottom: each row's height and its boxes, left to right, as (box, width)."""


def fr_shares(total: int, count: int) -> list[int]:
    """``total`` cells shared by ``count`` widgets of ``1fr`` as Textual shares them: where a
    share is not whole, the later widget takes the extra cell."""
    edges = [total * k // count for k in range(count + 1)]
    return [b - a for a, b in itertools.pairwise(edges)]


def boxes_of(numbers: Iterable[int], widths: Iterable[int], least: int = 2) -> list[tuple[int, int]]:
    """(box, width) of each box, ``least`` wide at least: its border and padding (``gutter``),
    as Textual sizes a bordered widget with no room left for it."""
    return [(box, max(width, least)) for box, width in zip(numbers, widths, strict=True)]


class DrawnBoxes(DrawnLines):
    """Boxes side by side in rows, each in this widget's border, padding and colours, with its
    own lines, title and looks (``DrawnLines.looks``), drawn by ``DrawnLines``' painter.

    A box as a widget of its own was one more node for Textual to style, lay out, compose and
    draw: Madero's seven boxes and Midi's five roads in their bands were ~30 M instructions of
    each console's launch (issue 32). Here the widget's own CSS (``border``, ``padding``, the
    looks' component classes) is each box's, ``box_layout`` places them as Textual placed the
    widgets (each console's tests compare both, cell by cell), and a box redrawn is drawn alone.
    """

    _laid_out: BoxRows | None = None
    _box_strips: dict[tuple[int, int, int], list[Strip]] | None = None
    """Each box's rows, by (box, width, height): a key that changes one box draws that one."""

    def box_layout(self) -> BoxRows:
        raise NotImplementedError

    def box(self, box: int, content_width: int) -> tuple[Sequence[Text], Content | None, tuple[str, ...]]:
        """Box ``box``'s lines at ``content_width``, its title and its looks."""
        raise NotImplementedError

    def titled(self, title: str) -> Content:
        """``title`` as Textual keeps a widget's border title (``Widget.border_title``'s steps)."""
        return self.render_str(title).expand_tabs(4).split()[0]

    def redraw_boxes(self, boxes: Iterable[int] | None = None) -> None:
        """Draw ``boxes`` again (None: every box) at the next frame; only their regions repaint."""
        strips = self._box_strips
        if boxes is None or strips is None or self._laid_out is None:
            self._box_strips = None
            self.redraw()
            return
        changed = set(boxes)
        for key in [key for key in strips if key[0] in changed]:
            del strips[key]
        self._drawn = None
        # Textual takes a region to repaint from the content's corner: each box's is from the
        # widget's own, border included.
        corner = -self.content_offset
        y = 0
        regions = []
        for height, row in self._laid_out:
            x = 0
            for box, width in row:
                if box in changed:
                    regions.append(Region(x, y, width, height).translate(corner))
                x += width
            y += height
        if regions:
            self.refresh(*regions)

    def notify_style_update(self) -> None:
        self._box_strips = None
        super().notify_style_update()

    def render_lines(self, crop: Region) -> list[Strip]:
        if not self._draws_itself():
            raise TypeError(f"{self!r}: its CSS asks for what the boxes' painter does not draw")
        layout = self.box_layout()
        width = self.outer_size.width
        if self._drawn is None or self._laid_out != layout:
            if self._laid_out != layout:
                self._box_strips = None
            self._laid_out = layout
            drawn_boxes = self._box_strips = self._box_strips or {}
            self._drawn = []
            for height, row in layout:
                drawn = []
                for box, box_width in row:
                    strips = drawn_boxes.get((box, box_width, height))
                    if strips is None:
                        lines, title, looks = self.box(box, max(0, box_width - self.styles.gutter.width))
                        strips = self.painter(Size(box_width, height), looks).draw(lines, title)
                        drawn_boxes[box, box_width, height] = strips
                    drawn.append(strips)
                # Boxes wider than the region (a terminal too narrow for them) are cut at its edge.
                self._drawn += [Strip.join(box[y] for box in drawn).crop(0, width) for y in range(height)]
        return self._cropped(self._drawn, crop)
