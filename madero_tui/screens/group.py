"""Boxes played by one player (Art. 14 §72): which boxes, and the one whose cards they see."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Input, Label, Static

from shared.errors import ConsoleError, InputError
from shared.messages import Msg
from tui_common.i18n import t
from tui_common.screens.form import FormScreen
from tui_common.widgets.message_line import MessageLine


def parse_boxes(text: str) -> list[int]:
    """«2 3 4» or «2,3,4» → [2, 3, 4]; anything else is refused with a readable message."""
    try:
        return [int(part) for part in text.replace(",", " ").split()]
    except ValueError:
        raise InputError(Msg.of("box_input.box_numbers", text=text)) from None


class GroupBoxesScreen(FormScreen[str | None]):
    """``group(boxes, seeing)`` is the engine's ``group_boxes``; the first box typed is the one
    the player looks at, the others are played blind. One box alone ungroups it."""

    BINDINGS = [Binding("escape", "close", show=False)]

    def __init__(self, group: Callable[[list[int], int], object], lang: str = "es") -> None:
        super().__init__(id="group-boxes")
        self.group = group
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -form"):
            yield Static(t("mad_group_title", self.lang), classes="dialog-title")
            yield Static(t("mad_group_help", self.lang), classes="dialog-body")
            yield Label(t("mad_group_boxes", self.lang))
            # Not «boxes»: the table screen's row of that id is 12 rows high (madero.tcss).
            yield Input(id="group-boxes-field", placeholder="2 3 4")
            yield MessageLine(self.lang, id="group-message")
            yield Static(t("enter_accept", self.lang), classes="dialog-keys")

    def on_mount(self) -> None:
        self.set_focus(self.query_one(Input))

    async def submit(self, field: Widget | None) -> None:
        value = self.query_one(Input).value
        try:
            boxes = parse_boxes(value)
            if not boxes:
                raise InputError(Msg.of("ui.mad_group_empty"))
            self.group(boxes, boxes[0])
        except ConsoleError as error:
            self.query_one(MessageLine).show_error(error)
            return
        self.dismiss(value)

    def action_close(self) -> None:
        self.dismiss(None)
