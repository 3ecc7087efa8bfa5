"""Widgets that never scroll, so that a key that resizes them lays the screen out once."""

from __future__ import annotations

from textual.geometry import Size
from textual.widget import Widget

from tui_common import textual_classes  # noqa: F401  (sets up the classes below from their parents')


class Unscrolled(Widget):
    """A widget whose content never scrolls: its virtual size is only ever its own size.

    Textual 8 sets a resized widget's ``virtual_size``, a layout reactive, after the reflow
    that resized it: that asks for a second reflow of the whole screen, which changes nothing
    here (nothing scrolls, so nothing depends on the virtual size) and costs its own frame,
    one tick (16.7 ms) after the first. A key that opened an amount entry drew its last frame
    ~30 ms after the key for it (issue 32). Here the reflow's virtual size is taken without
    that second pass; the widget is still repainted at its new size.
    """

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)
