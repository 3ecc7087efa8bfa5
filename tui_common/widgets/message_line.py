"""The one line where the console answers the croupier: refusals, confirmations."""

from __future__ import annotations

from rich.text import Text

from shared.errors import ConsoleError, RuleViolation
from shared.text import printable
from tui_common.widgets.quiet_static import QuietStatic


class MessageLine(QuietStatic):
    """Shows the last refusal (``show_error``) or confirmation (``show_info``).

    It never takes focus and never touches an entry widget, so whatever the croupier
    had typed stays where it was when a command is refused.
    """

    DEFAULT_CSS = """
    MessageLine { height: 1; padding: 0 1; }
    MessageLine.-error { background: $error 30%; color: $text; text-style: bold; }
    MessageLine > .message--info { color: $success; }
    """

    def __init__(self, lang: str = "es", *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.lang = lang
        self.last_error: ConsoleError | None = None
        self._info = False

    def looks(self) -> tuple[str, ...]:
        # A confirmation's colour is a look, not a class: a class set on the key that settles a
        # coup, and taken off on the next key, restyled the line on both (~2 M instructions
        # each, issue 32). A refusal's background and weight are more than a look may set.
        return ("message--info",) if self._info else ()

    def _inform(self, info: bool) -> None:
        if info != self._info:
            self._info = info
            self.redraw()

    def show_error(self, error: ConsoleError) -> None:
        """Show an engine refusal in the interface language; a rule's article comes first."""
        self.last_error = error
        text = Text("✖ ", style="bold")
        # A refusal may quote what was typed or read (a token, a file name): never raw.
        if isinstance(error, RuleViolation):
            text.append(printable(error.article), style="bold underline")
            text.append(": " + printable(ConsoleError.message(error, self.lang)))
        else:
            text.append(printable(error.message(self.lang)))
        self._inform(False)
        self.set_class(True, "-error")
        self.show_text(text)

    def show_info(self, message: str) -> None:
        self.last_error = None
        self.set_class(False, "-error")
        self._inform(True)
        self.show_text(Text(printable(message)))

    def clear(self) -> None:
        self.last_error = None
        self.set_class(False, "-error")
        self._inform(False)
        self.show_text(Text())

    @property
    def text(self) -> str:
        """What the line shows now, as plain text (tests read it)."""
        return self._shown_text.plain if self._shown_text is not None else ""
