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
from shared.actor import Actor
from shared.staff import STAFF_ID_MAX, STAFF_ID_RESTRICT, Credentials, PinChangeRequired
from tui_common.i18n import input_error, t
from tui_common.screens.form import FormScreen
from tui_common.widgets.message_line import MessageLine


class SignInScreen(FormScreen[Actor | None]):
    """Asks for staff ID and PIN and calls ``sign_in(Credentials)``: ``engine.shift.open``, or
    ``engine.shift.verify_confirm_on_duty`` with ``staff_id`` fixed (only the PIN is typed).

    A refusal (wrong PIN, locked account, wrong role) shows on the screen's message line;
    the ID stays typed and the PIN field is cleared. A PIN a supervisor reset opens two more
    fields: the new PIN, twice; ``change_pin(Credentials, new)`` (the registry's) sets it and
    the sign-in goes on with it. Dismisses with the signed-in ``Actor``, or None when ``esc``
    backs out.
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
        change_pin: Callable[[Credentials, str], object] | None = None,
        id: str = "sign-in",
    ) -> None:
        super().__init__(id=id)
        self.sign_in = sign_in
        self.lang = lang
        self.title_text = title or t("signin_title", lang)
        self.help_text = help_text or t("signin_help", lang)
        self.fixed_id = staff_id
        self.change_pin = change_pin

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical(classes="dialog -form"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static(self.help_text, classes="dialog-body")
            yield Label(t("staff_id", lang))
            yield Input(self.fixed_id or "", id="staff-id", max_length=STAFF_ID_MAX, restrict=STAFF_ID_RESTRICT, disabled=self.fixed_id is not None)
            yield Label(t("pin", lang))
            yield Input(id="pin", password=True, restrict=r"[0-9]*", max_length=8)
            with Vertical(id="new-pin-box"):
                yield Static(t("pin_change_title", lang), classes="dialog-title")
                yield Label(t("staff_new_pin", lang))
                yield Input(id="new-pin", password=True, restrict=r"[0-9]*", max_length=8)
                yield Label(t("pin_repeat", lang))
                yield Input(id="new-pin2", password=True, restrict=r"[0-9]*", max_length=8)
            yield MessageLine(lang, id="signin-message")
            yield Static(t("signin_keys", lang), classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one("#new-pin-box").display = False
        if self.fixed_id is not None:
            self.set_focus(self.query_one("#pin", Input))

    async def submit(self, field: Widget | None) -> None:
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
        creds = Credentials(staff_id, pin_input.value)
        try:
            if self.query_one("#new-pin-box").display:
                changed = await self._change_pin(creds, field)
                if changed is None:
                    return
                creds = changed
            actor = await self.off_loop(lambda: self.sign_in(creds))
        except PinChangeRequired as error:
            if self.change_pin is None:
                raise
            message.show_error(error)
            self.query_one("#new-pin-box").display = True
            self.set_focus(self.query_one("#new-pin", Input))
            return
        except ConsoleError as error:
            pin_input.value = ""
            for name in ("#new-pin", "#new-pin2"):
                self.query_one(name, Input).value = ""
            self.set_focus(pin_input)
            message.show_error(error)
            return
        self.dismiss(actor)

    async def _change_pin(self, creds: Credentials, field: Widget | None) -> Credentials | None:
        """The new PIN typed twice: set it (the registry checks the old one) and sign in with it."""
        new, again = self.query_one("#new-pin", Input), self.query_one("#new-pin2", Input)
        if field is new or not new.value:
            self.set_focus(new if not new.value else again)
            return None
        if new.value != again.value:
            new.value = again.value = ""
            self.set_focus(new)
            self.query_one(MessageLine).show_error(input_error("pins_differ"))
            return None
        change_pin = self.change_pin
        assert change_pin is not None
        await self.off_loop(lambda: change_pin(creds, new.value))
        return Credentials(creds.staff_id, new.value)

    def action_back(self) -> None:
        self.dismiss(None)
