"""The supervisor override panel: ID + PIN + a reason + one action from the app's list.

The panel decides nothing: it collects a ``SupervisorRequest`` and hands it to the app's
``perform`` callback, which calls the engine; the engine verifies the credentials and the
rule, and any refusal is shown inside the panel with everything typed kept (except the PIN).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from shared.errors import AuthError, ConsoleError
from shared.staff import STAFF_ID_MAX, STAFF_ID_RESTRICT, Credentials
from shared.text import REASON
from tui_common.i18n import input_error, t
from tui_common.screens.form import FormScreen
from tui_common.supervisor import SupervisorAction, SupervisorField, SupervisorRequest, SupervisorResult
from tui_common.widgets.message_line import MessageLine

__all__ = ["SupervisorAction", "SupervisorField", "SupervisorPanel", "SupervisorRequest", "SupervisorResult"]


class SupervisorPanel(FormScreen[SupervisorResult | None]):
    """``SupervisorPanel(actions, perform, lang)``; ``perform(request) -> str`` returns the
    confirmation text to show on the main screen, or raises a ``ConsoleError``.

    Keys: ↑↓ choose the action, ``tab`` moves between fields, ``enter`` goes to the next
    empty field and sends the request once every field is filled; ``esc`` closes.
    """

    BINDINGS = [Binding("escape", "close", show=False)]

    def __init__(
        self,
        actions: Sequence[SupervisorAction],
        perform: Callable[[SupervisorRequest], str],
        lang: str = "es",
    ) -> None:
        super().__init__(id="supervisor-panel")
        self.actions = list(actions)
        self.perform = perform
        self.lang = lang

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical(classes="dialog -form -supervisor"):
            yield Static(t("supervisor_title", lang), classes="dialog-title")
            if not self.actions:
                yield Static(t("supervisor_none", lang), classes="dialog-body")
                yield Static(t("esc_close", lang), classes="dialog-keys")
                return
            yield Label(t("supervisor_action", lang))
            yield OptionList(*(Option(self._option_text(a, False), id=a.id) for a in self.actions), id="actions")
            with Horizontal(classes="form-row"):
                with Vertical():
                    yield Label(t("staff_id", lang))
                    yield Input(id="sup-id", max_length=STAFF_ID_MAX, restrict=STAFF_ID_RESTRICT)
                with Vertical():
                    yield Label(t("pin", lang))
                    yield Input(id="sup-pin", password=True, restrict=r"[0-9]*", max_length=8)
            for action in self.actions:
                for spec in action.fields:
                    with Vertical(classes=f"action-field -for-{action.id}"):
                        yield Label(t(spec.label, lang))
                        if spec.secret:
                            yield Input(id=f"f-{action.id}-{spec.key}", password=True, restrict=r"[0-9]*", max_length=8)
                        else:
                            # «p. ej.»: an example, never mistaken for a value typed in (without
                            # colour a placeholder looks like any other text).
                            yield Input(id=f"f-{action.id}-{spec.key}",
                                        placeholder=t("example", lang, value=spec.placeholder) if spec.placeholder else "")
            with Vertical(id="reason-field", classes="action-field"):
                yield Label(t("supervisor_reason", lang))
                yield Input(id="reason", max_length=REASON.max_length)
            yield MessageLine(lang, id="supervisor-message")
            yield Static(t("enter_accept", lang), classes="dialog-keys")

    def on_mount(self) -> None:
        if self.actions:
            options = self.query_one("#actions", OptionList)
            options.highlighted = 0
            self._show_fields(self.actions[0].id)
            options.focus()

    @property
    def selected(self) -> SupervisorAction | None:
        if not self.actions:
            return None
        index = self.query_one("#actions", OptionList).highlighted
        return self.actions[index or 0]

    def select(self, action_id: str) -> None:
        """Highlight an action by id (tests and callers that pre-select one)."""
        index = [a.id for a in self.actions].index(action_id)
        self.query_one("#actions", OptionList).highlighted = index

    def _option_text(self, action: SupervisorAction, highlighted: bool) -> str:
        # ▸ marks the chosen action as well as the highlight's colour (a monochrome terminal, NO_COLOR).
        return f"{'▸' if highlighted else ' '} {t(action.label, self.lang)}"

    @on(OptionList.OptionHighlighted, "#actions")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        options = event.option_list
        for index, action in enumerate(self.actions):
            options.replace_option_prompt_at_index(index, self._option_text(action, index == event.option_index))
        if event.option.id is not None:
            self._show_fields(event.option.id)


    def _show_fields(self, action_id: str) -> None:
        for box in self.query(".action-field"):
            box.display = box.has_class(f"-for-{action_id}")
        action = next(a for a in self.actions if a.id == action_id)
        self.query_one("#reason-field").display = action.needs_reason

    def _ordered_inputs(self) -> list[tuple[Input, str]]:
        action = self.selected
        assert action is not None
        out = [(self.query_one("#sup-id", Input), "staff_id"), (self.query_one("#sup-pin", Input), "pin")]
        out += [(self.query_one(f"#f-{action.id}-{spec.key}", Input), spec.label) for spec in action.fields]
        if action.needs_reason:
            out.append((self.query_one("#reason", Input), "supervisor_reason"))
        return out

    def _focus_next_empty(self, current: Input | None) -> bool:
        """Focus the first empty field; complain only if it is at or before ``current``."""
        inputs = self._ordered_inputs()
        position = next((i for i, (w, _) in enumerate(inputs) if w is current), -1)
        for index, (widget, label) in enumerate(inputs):
            if not widget.value.strip():
                if index <= position:
                    self.query_one(MessageLine).show_error(input_error("field_required", field=t(label, self.lang)))
                self.set_focus(widget)
                return True
        return False

    async def take_key(self, key: str, character: str | None) -> bool:
        # An ID typed straight after F2, the highlighted action not yet chosen: it chooses it
        # and goes to the ID field, as enter would, so the PIN typed behind it reaches the
        # PIN field (never the ID field, in clear).
        if isinstance(self.focused, OptionList) and character is not None and character.isprintable():
            await self.submit(self.focused)
        return await super().take_key(key, character)

    async def submit(self, field: Widget | None) -> None:
        # enter on the list of actions chooses the highlighted one; in a field, moves on.
        if self._focus_next_empty(field if isinstance(field, Input) else None):
            return
        action = self.selected
        assert action is not None
        pin = self.query_one("#sup-pin", Input)
        request = SupervisorRequest(
            action=action.id,
            credentials=Credentials(self.query_one("#sup-id", Input).value.strip(), pin.value),
            reason=self.query_one("#reason", Input).value.strip() if action.needs_reason else "",
            values={spec.key: self.query_one(f"#f-{action.id}-{spec.key}", Input).value.strip() for spec in action.fields},
        )
        try:
            message = await self.off_loop(lambda: self.perform(request))
        except ConsoleError as error:
            self.query_one(MessageLine).show_error(error)
            if isinstance(error, AuthError):
                pin.value = ""
                self.set_focus(pin)
            for spec in action.fields:  # a PIN typed for the action is never kept after a refusal
                if spec.secret:
                    self.query_one(f"#f-{action.id}-{spec.key}", Input).value = ""
            return
        self.dismiss(SupervisorResult(action.id, request.credentials.staff_id, request.reason, message))

    def action_close(self) -> None:
        self.dismiss(None)
