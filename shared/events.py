"""Typed journal events: one frozen dataclass per event type, one codec, one fold per game.

A game declares its events as frozen dataclasses deriving from ``EventBody``; each field is
a key of the payload written to the journal, under the same name and in the same JSON shape
the journal has always held, so a journal written before the events were typed decodes as
it stands. A body whose shape changes bumps its class's ``version`` and says, in
``upcast()``, how an older payload reads; the version goes into the payload (``"_v"``) only
when it is above 1, so rows of version 1 are byte for byte what they were.

``EventCodec`` maps journal rows (type and payload) to bodies and back, each field through
``shared.codec`` (the codec snapshots use too); ``Fold`` dispatches a body to the handler
registered for its class and can say which event types have none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar, cast, dataclass_transform

from shared.codec import decode, encode
from shared.errors import unreadable
from shared.messages import Msg
from shared.record import record

VERSION_KEY = "_v"


class EventBody:
    """Base of every typed event: a frozen dataclass (``event_body``, a ``shared.record``) whose
    fields are the payload's keys."""

    type: ClassVar[str]
    version: ClassVar[int] = 1

    @classmethod
    def upcast(cls, payload: dict[str, Any], version: int) -> dict[str, Any]:
        """The payload of an older ``version`` in today's shape (the identity while version is 1)."""
        return payload

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = encode(self)
        if self.version > 1:
            payload[VERSION_KEY] = self.version
        return payload

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> EventBody:
        data = dict(payload)
        version = data.pop(VERSION_KEY, 1)
        if version != cls.version:
            data = cls.upcast(data, version)
        return cast(EventBody, decode(cls, data))


E = TypeVar("E", bound=EventBody)


@dataclass_transform(frozen_default=True)
def event_body(cls: type[E]) -> type[E]:
    """An event class: a record (``shared.record``), its ``==``, ``hash`` and ``repr`` what
    ``dataclass(frozen=True)`` would generate, compiled once for all."""
    return record(cls)


class EventCodec:
    """The event types of one journal (a game's and the base's): row ⇄ body."""

    def __init__(self, *classes: type[EventBody]) -> None:
        self.by_type: dict[str, type[EventBody]] = {}
        for cls in classes:
            if cls.type in self.by_type:
                raise ValueError(f"event type {cls.type!r} declared twice")
            self.by_type[cls.type] = cls

    def __add__(self, other: EventCodec) -> EventCodec:
        return EventCodec(*self.by_type.values(), *other.by_type.values())

    @property
    def types(self) -> frozenset[str]:
        return frozenset(self.by_type)

    def decode(self, type: str, payload: Mapping[str, Any]) -> EventBody:
        """The body of a row; a payload of a shape its class cannot read (a part missing, a
        value of the wrong kind: never one the console wrote) is refused naming the type."""
        try:
            cls = self.by_type[type]
        except KeyError:
            raise ValueError(f"unknown event type {type!r}") from None
        try:
            return cls.from_payload(payload)
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
            raise unreadable(type) from exc

    @staticmethod
    def encode(body: EventBody) -> tuple[str, dict[str, Any]]:
        return body.type, body.to_payload()


S = TypeVar("S")


class Fold(Generic[S]):
    """A game's fold: one handler per event class, found by the body's class.

    ``missing(codec)`` names the event types of ``codec`` with no handler, so a test can
    insist the fold is exhaustive.
    """

    def __init__(self) -> None:
        self.handlers: dict[type[EventBody], Callable[[S, Any], None]] = {}

    def on(self, *classes: type[E]) -> Callable[[Callable[[S, E], None]], Callable[[S, E], None]]:
        def register(handler: Callable[[S, E], None]) -> Callable[[S, E], None]:
            for cls in classes:
                if cls in self.handlers:
                    raise ValueError(f"{cls.__name__} folded twice")
                self.handlers[cls] = handler
            return handler
        return register

    def apply(self, state: S, body: EventBody) -> None:
        self.handlers[type(body)](state, body)

    def missing(self, codec: EventCodec, ignore: Iterable[str] = ()) -> set[str]:
        handled = {cls.type for cls in self.handlers}
        return set(codec.types) - handled - set(ignore)


# --- events of every table's journal (not of one game) ----------------------------------------


def gaming_day_of(first_entry: str) -> str:
    """A gaming day's name: the local date of its first entry's time (ISO text)."""
    return datetime.fromisoformat(first_entry).astimezone().date().isoformat()


@event_body
class GamingDayClosed(EventBody):
    """A supervisor closed the gaming day ``day`` (ISO date, the day its first entry was
    written): its entries may then be moved to an archive file (``journal archive``)."""

    type: ClassVar[str] = "gaming_day_closed"
    day: str
    reason: str = ""

    def recall(self) -> Msg:
        return Msg.of("events.gaming_day_closed_reason" if self.reason else "events.gaming_day_closed", day=self.day,
                      reason=self.reason)


@event_body
class JournalArchived(EventBody):
    """Entries 1..``count`` were moved to the archive file ``archive``, whose last entry has
    hash ``head``: the live journal goes on from that head."""

    type: ClassVar[str] = "journal_archived"
    archive: str
    count: int
    head: str

    def recall(self) -> Msg:
        return Msg.of("events.journal_archived", count=self.count, archive=self.archive)


@event_body
class ConsoleStarted(EventBody):
    """A live table's console was launched; ``previous``: how the session before it ended —
    ``closed`` (the console was closed), ``interrupted`` (a crash, a kill, a power cut: no
    close was journaled) or ``none`` (the first launch)."""

    type: ClassVar[str] = "console_started"
    previous: str

    def recall(self) -> Msg:
        return Msg.of(f"events.console_started_{self.previous}")


@event_body
class ConsoleClosed(EventBody):
    """A live table's console was closed (the next launch says its session ended cleanly)."""

    type: ClassVar[str] = "console_closed"

    def recall(self) -> Msg:
        return Msg.of("events.console_closed")


def utc_seconds(moment: str) -> str:
    """A journaled time (ISO text, UTC) to the second, as a person reads it."""
    return moment[:19].replace("T", " ") + " UTC"


@event_body
class ClockCorrected(EventBody):
    """The table's clock gave a time (``now``) earlier than the entry before's (``previous``):
    the journal records the step back before the entry it stamps, so every reader sees where
    its times stop going forward and reports select by the journal's order, not by time."""

    type: ClassVar[str] = "clock_corrected"
    previous: str
    now: str

    def recall(self) -> Msg:
        return Msg.of("events.clock_corrected", previous=utc_seconds(self.previous), now=utc_seconds(self.now))


@event_body
class JournalUpgraded(EventBody):
    """``journal upgrade`` converted a journal of row format ``from_format`` into this one:
    the old file (kept aside as ``kept_as``) ended at ``old_head`` (``HASH:COUNT``, as its
    ``journal anchor`` printed it), and its entries, copied one for one, end here at
    ``new_head``; a supervisor signed for it."""

    type: ClassVar[str] = "journal_upgraded"
    from_format: int
    old_head: str
    new_head: str
    kept_as: str

    def recall(self) -> Msg:
        return Msg.of("events.journal_upgraded", format=self.from_format, old_head=self.old_head,
                      new_head=self.new_head, kept_as=self.kept_as)
