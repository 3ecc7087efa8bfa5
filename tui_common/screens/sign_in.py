"""Sign-in: a staff ID and PIN handed to an engine call (open the shift, a relief, or the
croupier on duty proving it is still them after a relaunch)."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Input, Label, Static

from shared.errors import ConsoleError
from shared.staff import Actor, Credentials
from tui_common.i18n import input_error, t
from tui_common.screens.form import FormScreen
from tui_common.widgets.message_line import MessageLine


class SignInScreen(FormScreen[Actor | None]):
    """Asks for staff ID and PIN and calls ``sign_in(Credentials)``: ``engine.open_shift``, or
    ``engine.verify_confirm_on_duty`` with ``staff_id`` fixed (only the PIN is typed).

    A refusal (wrong PIN, locked account, wrong role) shows on the screen's message line;
    the ID stays typed and the PIN field is cleared. Dismisses with the signed-in ``Actor``,
    or None when ``esc`` backs out.
    """

    BINDINGS = [Binding("escape", "back", show=False)]

    def __init__(
        self,
        sign_in: Callable[[Credentials], Actor],
        lang: str = "es",
        *,
        title: str | None = None,
        help_text: str | None = None,
        staff_id: str | None = None,
        id: str = "sign-in",
    ) -> None:
        super().__init__(id=id)
        self.sign_in = sign_in
        self.lang = lang
        self.title_text = title or t("signin_title", lang)
        self.help_text = help_text or t("signin_help", lang)
        self.fixed_id = staff_id

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical(classes="dialog -form"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static(self.help_text, classes="dialog-body")
            yield Label(t("staff_id", lang))
            yield Input(self.fixed_id or "", id="staff-id", max_length=32, disabled=self.fixed_id is not None)
            yield Label(t("pin", lang))
            yield Input(id="pin", password=True, restrict=r"[0-9]*", max_length=8)
            yield MessageLine(lang, id="signin-message")
            yield Static(t("signin_keys", lang), classes="dialog-keys")

    def on_mount(self) -> None:
        if self.fixed_id is not None:
            self.set_focus(self.query_one("#pin", Input))

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
            actor = self.sign_in(Credentials(staff_id, pin_input.value))
        except ConsoleError as error:
            pin_input.value = ""
            self.set_focus(pin_input)
            message.show_error(error)
            return
        self.dismiss(actor)

    def action_back(self) -> None:
        self.dismiss(None)
