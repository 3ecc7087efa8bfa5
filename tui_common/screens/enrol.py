"""Staff enrolment: the first supervisor of a live table, then (optionally) a croupier."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Input, Label, Static

from shared.errors import ConsoleError
from shared.record import record
from shared.staff import STAFF_ID_MAX, STAFF_ID_RESTRICT
from shared.text import STAFF_NAME
from tui_common.i18n import input_error, t
from tui_common.screens.form import FormScreen
from tui_common.widgets.message_line import MessageLine


@record
class Enrolment:
    """What the form collected; the PIN is not shown in reprs."""

    staff_id: str
    name: str
    pin: str

    def __repr__(self) -> str:
        return f"Enrolment(staff_id={self.staff_id!r}, name={self.name!r})"


class EnrolScreen(FormScreen[Enrolment | None]):
    """A form for staff ID, name, PIN and PIN again; ``enrol(Enrolment)`` does the work.

    ``enrol`` is the app's call into ``StaffRegistry.enrol`` with the role and the ``by``
    actor it wants; a refusal (bad ID, short PIN, ID taken) shows on the screen's message
    line and nothing typed is lost except the PINs. ``esc`` dismisses None: an optional form
    is skipped; without the first supervisor the app cannot open the table and quits.
    """

    BINDINGS = [Binding("escape", "skip", show=False)]

    def __init__(
        self,
        enrol: Callable[[Enrolment], object],
        *,
        title: str,
        help_text: str,
        lang: str = "es",
        optional: bool = False,
        id: str | None = "enrol",
    ) -> None:
        super().__init__(id=id)
        self.enrol = enrol
        self.title_text = title
        self.help_text = help_text
        self.lang = lang
        self.optional = optional

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical(classes="dialog -form"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static(self.help_text, classes="dialog-body")
            yield Label(t("staff_id", lang))
            yield Input(id="staff-id", max_length=STAFF_ID_MAX, restrict=STAFF_ID_RESTRICT)
            yield Label(t("name", lang))
            yield Input(id="name", max_length=STAFF_NAME.max_length)
            yield Label(t("pin", lang))
            yield Input(id="pin", password=True, restrict=r"[0-9]*", max_length=8)
            yield Label(t("pin_repeat", lang))
            yield Input(id="pin2", password=True, restrict=r"[0-9]*", max_length=8)
            yield MessageLine(lang, id="enrol-message")
            yield Static(t("enter_accept" if self.optional else "enrol_first_keys", lang), classes="dialog-keys")

    async def submit(self, field: Widget | None) -> None:
        order = ["staff-id", "name", "pin", "pin2"]
        inputs = {name: self.query_one(f"#{name}", Input) for name in order}
        labels = {"staff-id": "staff_id", "name": "name", "pin": "pin", "pin2": "pin_repeat"}
        # enter moves to the next empty field; the form is sent once all are filled.
        for name in order:
            if not inputs[name].value.strip():
                if field is inputs[name] or (field is not None and order.index(name) <= order.index(field.id or "")):
                    self.query_one(MessageLine).show_error(input_error("field_required", field=t(labels[name], self.lang)))
                self.set_focus(inputs[name])
                return
        message = self.query_one(MessageLine)
        if inputs["pin"].value != inputs["pin2"].value:
            inputs["pin"].value = inputs["pin2"].value = ""
            self.set_focus(inputs["pin"])
            message.show_error(input_error("pins_differ"))
            return
        form = Enrolment(inputs["staff-id"].value.strip(), inputs["name"].value.strip(), inputs["pin"].value)
        try:
            await self.off_loop(lambda: self.enrol(form))
        except ConsoleError as error:
            inputs["pin"].value = inputs["pin2"].value = ""
            self.set_focus(inputs["pin"])
            message.show_error(error)
            return
        self.dismiss(form)

    def action_skip(self) -> None:
        self.dismiss(None)
