"""The table screen's amount entry as the console drives it: opened for a bet (``open``),
typed into (``key``), placed by enter (``accept``) or dropped by esc (``cancel``). What an
amount is placed as is the game's (``place_amount``, ``last_amount``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shared.errors import ConsoleError
from shared.money import fmt_money
from tui_common.i18n import input_error
from tui_common.widgets.amount_entry import AmountEntry, AmountKey
from tui_common.widgets.key_bar import KeyBar

if TYPE_CHECKING:
    from tui_common.console import Console


class Amounts:
    def __init__(self, app: Console) -> None:
        self.app = app
        self._entry: AmountEntry | None = None

    def entry(self) -> AmountEntry | None:
        """The table screen's amount entry, once the screen is mounted (None if it has none)."""
        screen = self.app.table_screen
        if screen is None or not screen.is_mounted:
            return None
        if self._entry is None:
            # Looked up once: the bindings' checks ask for it dozens of times a key, and a
            # query walks the whole screen (about a tenth of a key's time).
            self._entry = next(iter(screen.query(AmountEntry)), None)
        return self._entry

    def is_open(self) -> bool:
        """Whether an amount is being typed (the key bar then says enter / esc)."""
        entry = self.entry()
        return entry is not None and entry.is_open

    def open(self, label: str, tag: Any, *, single_digit: bool = False) -> None:
        """Open the amount entry for ``tag`` (whatever ``place_amount`` needs to know).

        An amount typed in the entry already open is placed first (``a 25 b 5``: two bets, no
        enter between them); if the engine refuses it, it stays typed and the entry stays.
        """
        app = self.app
        entry = self.entry()
        assert entry is not None and app.table_screen is not None
        if entry.is_open and entry.amount is not None:
            try:
                app.place_amount(entry.tag, entry.amount)
            except ConsoleError as error:
                app.show_error(error)
                return
            app.message_line.clear()
            app.refresh_table()
        repeat = app.last_amount(tag)
        if repeat:
            label += " " + app.t("amount_repeat", amount=fmt_money(repeat, lang=app.lang))
        entry.start(label, tag=tag, single_digit=single_digit)
        app.table_screen.query_one(KeyBar).refresh_hints()  # now enter / esc

    def key(self, key: str, character: str | None) -> bool:
        """A key typed into the open amount entry (the digit of a one-digit entry places it)."""
        entry = self.entry()
        if entry is None or not entry.is_open:
            return False
        pressed = entry.press(key, character)
        if pressed is AmountKey.SUBMITTED:
            self.accept()
        return pressed is not None

    def accept(self) -> None:
        """Place the open amount (or the last pase's, when nothing is typed); a refused
        amount stays typed to be corrected."""
        app = self.app
        entry = self.entry()
        assert entry is not None
        amount = entry.amount if entry.amount is not None else app.last_amount(entry.tag)
        if amount is None:
            app.show_error(input_error("amount_missing"))
            return
        try:
            app.place_amount(entry.tag, amount)
        except ConsoleError as error:
            app.show_error(error)
            return
        entry.close()
        app.message_line.clear()
        app.refresh_table()

    def cancel(self) -> None:
        entry = self.entry()
        assert entry is not None
        entry.close()
        self.app.message_line.clear()
        self.app.refresh_table()
