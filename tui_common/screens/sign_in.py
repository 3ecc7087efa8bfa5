"""Shift sign-in: the croupier's staff ID and PIN open the shift (``engine.open_shift``)."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Input, Label, Static

from shared.errors import ConsoleError
from shared.staff import Actor, Credentials
from tui_common.i18n import input_error, t
from tui_common.screens.form import FormScreen
from tui_common.widgets.message_line import MessageLine


class SignInScreen(FormScreen[Actor]):
    """Asks for staff ID and PIN and calls ``open_shift(Credentials)`` (the engine's).

    A refusal (wrong PIN, locked account, wrong role) shows on the screen's message line;
    the ID stays typed and the PIN field is cleared. Dismisses with the signed-in ``Actor``.
    """

    def __init__(self, open_shift: Callable[[Credentials], Actor], lang: str = "es") -> None:
        super().__init__(id="sign-in")
        self.open_shift = open_shift
        self.lang = lang

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical(classes="dialog -form"):
            yield Static(t("signin_title", lang), classes="dialog-title")
            yield Static(t("signin_help", lang), classes="dialog-body")
            yield Label(t("staff_id", lang))
            yield Input(id="staff-id", max_length=32)
            yield Label(t("pin", lang))
            yield Input(id="pin", password=True, restrict=r"[0-9]*", max_length=8)
            yield MessageLine(lang, id="signin-message")
            yield Static(t("enter_accept", lang).split(" · ")[0], classes="dialog-keys")

    def submit(self, field: Widget | None) -> None:
        if field is self.query_one("#staff-id", Input):
            self.set_focus(self.query_one("#pin", Input))
            return
        staff_id = self.query_one("#staff-id", Input).value.strip()
        pin_input = self.query_one("#pin", Input)
        message = self.query_one(MessageLine)
        if not staff_id:
            message.show_error(input_error("field_required", field=t("staff_id", self.lang)))
            self.set_focus(self.query_one("#staff-id", Input))
            return
        try:
            actor = self.open_shift(Credentials(staff_id, pin_input.value))
        except ConsoleError as error:
            pin_input.value = ""
            self.set_focus(pin_input)
            message.show_error(error)
            return
        self.dismiss(actor)
