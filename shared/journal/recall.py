"""Recall: the lines and JSON of past rounds, shared by the command line and the recall screens."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, tzinfo
from typing import Any

from shared.errors import ConsoleError
from shared.journal.core import Journal
from shared.journal.format import Event
from shared.messages import text
from shared.text import printable_event


def _summarise(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + " ".join(f"{k}={_summarise(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + " ".join(_summarise(v) for v in value) + "]"
    if value is None:
        return "-"
    return str(value)


def format_event(event: Event, lang: str = "es", *, tz: tzinfo | None = None) -> str:
    """One readable line: local time, seq, staff/role, type, payload summary.

    ``tz`` fixes the time zone shown (tests); by default the machine's local time.
    """
    when = datetime.fromisoformat(event.ts).astimezone(tz).strftime("%Y-%m-%d %H:%M:%S")
    if event.staff_id is None:
        who = text("journal.no_staff", lang)
    else:
        who = f"{event.staff_id}/{event.role}"
    details = " ".join(f"{k}={_summarise(v)}" for k, v in event.payload.items())
    return f"{when}  #{event.seq:<6} {who:<20} {event.type:<20} {details}".rstrip()


def signers(event: Event) -> str:
    """Who signed an entry: its staff ID, and the second supervisor's where two signed it."""
    second = event.payload.get("second_supervisor")
    return f"{event.staff_id} + {second}" if second else str(event.staff_id)


def recall_json(journal: Journal, round_ids: Iterable[int]) -> list[dict[str, Any]]:
    """Each round with every one of its events, in order, as plain JSON data."""
    return [
        {"round_id": round_id, "events": [event.to_dict() for event in journal.round_events(round_id)]}
        for round_id in round_ids
    ]


def recall_text(
    journal: Journal,
    round_ids: Iterable[int],
    lang: str = "es",
    describe: Callable[[Event, str], str] = format_event,
) -> tuple[list[str], list[int]]:
    """The lines of a text recall: a heading per round, then its events (each described by
    ``describe``: the game's own words where the app gives them, else the generic line); and
    the seqs of the entries the game's words could not read.

    Old journals may hold control codes in free text: each field is escaped before it is laid
    out (a line feed in a reason cannot forge a line). An entry of a shape the console never
    writes is still shown, as the generic line, with the refusal under it: the recall is how a
    supervisor finds it."""
    lines: list[str] = []
    unreadable: list[int] = []
    for round_id in round_ids:
        lines.append(text("journal.recall_round", lang, round=round_id))
        for event in map(printable_event, journal.round_events(round_id)):
            try:
                said = describe(event, lang)
            except ConsoleError as refused:
                unreadable.append(event.seq)
                said = f"{format_event(event, lang)}\n  {refused.message(lang)}"
            lines.extend("  " + line for line in said.splitlines())
    return lines, unreadable
