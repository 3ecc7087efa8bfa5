"""Free text on its way in and out: one validator for what staff and files type, one escaper
for what reaches a terminal.

A name, a reason or a table's currency ends up on a croupier's screen and in a supervisor's
``journal recall``; a terminal obeys control codes (clear the screen, write the clipboard,
reorder text with bidi overrides). So:

- **In**: ``TextField.check`` refuses any character that is not printable (str.isprintable:
  controls, format characters such as bidi overrides, line and paragraph separators,
  unassigned code points) and bounds the length, per field.
- **Out**: ``printable`` turns every such character still in a string (journals written
  before the check existed, a forged journal, an echoed command-line argument) into a visible
  ``\\uXXXX``, which is also a valid JSON escape, so JSON output stays JSON.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from shared.errors import InputError
from shared.messages import Msg, text
from shared.record import record
from shared.regex import Regex


@record
class TextField:
    """A free-text field: its name (a ``field.*`` code) and its length bounds."""

    name: str
    max_length: int
    min_length: int = 1

    def render(self, lang: str) -> str:
        """The field's name in ``lang`` (a ``Localized`` parameter of the refusals below)."""
        return text(self.name, lang)

    def check(self, value: object) -> str:
        """``value`` if it is a string of printable characters within the bounds, else an
        InputError naming the field (the text itself is never echoed)."""
        error = self.problem(value)
        if error is not None:
            raise error
        assert isinstance(value, str)
        return value

    def problem(self, value: object) -> InputError | None:
        """What ``check`` would raise, for a caller that reports it its own way."""
        if not isinstance(value, str):
            return InputError(Msg.of("common.text_not_text", field=self))
        if self.min_length and not value:
            return InputError(Msg.of("common.text_empty", field=self))
        if not self.min_length <= len(value) <= self.max_length:
            return InputError(Msg.of("common.text_length", field=self, low=self.min_length, high=self.max_length,
                                     length=len(value)))
        if not value.isprintable():
            position = next(i for i, ch in enumerate(value, 1) if not ch.isprintable())
            return InputError(Msg.of("common.text_unprintable", field=self, position=position,
                                     char=_escape(value[position - 1])))
        return None


STAFF_NAME = TextField("field.staff_name", 60)
REASON = TextField("field.reason", 200)
TABLE_NAME = TextField("field.table_name", 60, min_length=0)
CURRENCY = TextField("field.currency", 8)
CARRUSEL_ID = TextField("field.carrusel_id", 64)
TRAINEE = TextField("field.trainee", 40)


_ASCII_SPACE = Regex(r"[ \t\r\n]+")


def ascii_words(text: str) -> list[str]:
    """The words of a file or a typed list, split on ASCII spaces, tabs and line ends only: a
    no-break space or a line separator (U+2028) is part of a word, so a word that holds one
    is refused as unreadable instead of being read as two."""
    return [word for word in _ASCII_SPACE.split(text) if word]


def _escape(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:  # as JSON writes it: a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def printable(text: str, *, newlines: bool = False) -> str:
    """``text`` with every unprintable character written as ``\\uXXXX``; with ``newlines``,
    line feeds are kept (multi-line output whose lines the program itself made)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or (newlines and ch == "\n") else _escape(ch) for ch in text)


def printable_data(value: Any) -> Any:
    """JSON-like data with every string in it (keys too) made ``printable``."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {printable_data(k): printable_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [printable_data(v) for v in value]
    return value


def printable_event(event: Any) -> Any:
    """A copy of a journal event for display, its text fields and payload made printable
    (a reason with a line feed cannot forge a line of its own)."""
    return dataclasses.replace(
        event,
        table_id=printable(event.table_id),
        staff_id=None if event.staff_id is None else printable(event.staff_id),
        role=None if event.role is None else printable(event.role),
        type=printable(event.type),
        payload=printable_data(event.payload),
    )
