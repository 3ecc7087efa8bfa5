"""The shift report (console.md, "Supervisor tools"): rounds, hands per hour, apostado
(handle), win and hold % by croupier, read from a table's journal. ``report --help`` defines
every figure (``help.report_terms`` in the catalogs); both games count the same way.

The report knows no game's payloads: it reads the common events (``shared.base_events``) —
each round's ``round_closed``, the shifts — and the game events that say what they add
(``Reported``: adjustments, commission collections, dead hands, rulings). A journal written
before ``round_closed`` existed is read, not migrated: up to its first ``round_closed``, each
game event that closed a round says which ``RoundClosed`` it stands for (``ClosesRound``), so
the chain stays as it was signed and the report reads no row it does not need.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, cast

from shared.base_events import BASE_CODEC, ClosesRound, ReportItem, Reported, RoundClosed, ShiftClosed, ShiftOpened
from shared.events import ClockCorrected, EventBody, EventCodec, GamingDayClosed, JournalArchived, gaming_day_of
from shared.journal import Event, ReadView
from shared.money import ZERO
from shared.record import record

SHIFT_TYPES = frozenset({ShiftOpened.type, ShiftClosed.type})
SECOND = "second_supervisor"
"""The field of a game event that two supervisors signed: the second one's ID."""



@dataclass
class CroupierShift:
    staff_id: str
    rounds: int = 0
    voided: int = 0
    handle: Decimal = ZERO
    """Apostado: the stakes of the bets the rules settled."""
    void_returned: Decimal = ZERO
    """Stakes given back because the round or the box was void."""
    arbitrated: int = 0
    """Voided rounds that management arbitrated after betting began (Madero §73): flagged."""
    paid: Decimal = ZERO
    collected: Decimal = ZERO
    commission: Decimal = ZERO
    """Midi commission tallies collected (Art. 5 §3)."""
    rounding: Decimal = ZERO
    """What rounding to whole chips gave players above the regulated amounts."""
    adjusted_paid: Decimal = ZERO
    """Supervisors' adjustments paid to players."""
    adjusted_collected: Decimal = ZERO
    """Supervisors' adjustments collected from players."""
    seconds_on_duty: float = 0.0
    """Time at the table: the sum of the croupier's turns on duty (``Duty``), what ``report``
    and ``report --shift`` both divide the rounds by."""

    @property
    def adjustments(self) -> Decimal:
        """The adjustments' net effect on the players (paid less collected)."""
        return self.adjusted_paid - self.adjusted_collected

    @property
    def win(self) -> Decimal:
        return self.collected - self.paid + self.commission - self.adjustments

    @property
    def hold_percent(self) -> Decimal | None:
        return None if not self.handle else (self.win * 100 / self.handle).quantize(Decimal("0.01"))

    @property
    def hours(self) -> float:
        return self.seconds_on_duty / 3600

    @property
    def rounds_per_hour(self) -> float | None:
        return self.rounds / self.hours if self.hours > 0 else None

    def to_dict(self) -> dict[str, Any]:
        rate = self.rounds_per_hour
        return {
            "croupier": self.staff_id,
            "rounds": self.rounds,
            "voided": self.voided,
            "arbitrated": self.arbitrated,
            "rounds_per_hour": None if rate is None else round(rate, 1),
            "handle": str(self.handle),
            "void_returned": str(self.void_returned),
            "paid": str(self.paid),
            "collected": str(self.collected),
            "commission": str(self.commission),
            "rounding": str(self.rounding),
            "adjusted_paid": str(self.adjusted_paid),
            "adjusted_collected": str(self.adjusted_collected),
            "win": str(self.win),
            "hold_percent": None if self.hold_percent is None else str(self.hold_percent),
        }


@dataclass
class Duty:
    """Who is on duty and the time each croupier has been, on the readings' ``clock`` (each
    journaled step back added back) and only forward (issue 29): a turn runs from a croupier's
    ``shift_opened`` to the next one or the ``shift_closed``; before the first ``shift_opened``
    read (a window that opens mid-shift, a training table, which has no shifts) the croupier on
    duty is the one who closed the last round."""

    seconds: dict[str, float] = field(default_factory=dict)
    on: str | None = None
    shifts: bool = False
    """Whether a ``shift_opened`` was read: from then on only shifts say who is on duty."""
    since: datetime | None = None

    def step(self, when: datetime) -> None:
        """Time goes on to ``when``: to whoever is on duty, forward only."""
        if self.on is not None and self.since is not None:
            self.seconds[self.on] = self.seconds.get(self.on, 0.0) + max(0.0, (when - self.since).total_seconds())
        self.since = when

    def run_to(self, last: Reading, end: datetime | None) -> None:
        """The turn still open after ``last``, the last entry read: to ``end`` (the journal's
        last entry), else to ``last``."""
        self.step(last.clock if end is None else max(last.clock, end + last.set_back))

    def read(self, body: EventBody, croupier: str | None = None) -> None:
        """After ``step``: who is on duty from this entry on (``croupier``: who closed its round)."""
        if isinstance(body, ShiftOpened):
            self.on, self.shifts = body.staff_id, True
        elif isinstance(body, ShiftClosed):
            self.on = None
        elif not self.shifts and croupier is not None:
            self.on = croupier


@dataclass
class ShiftReport:
    by_croupier: dict[str, CroupierShift] = field(default_factory=dict)
    duty: Duty = field(default_factory=Duty)

    @property
    def total(self) -> CroupierShift:
        total = CroupierShift("TOTAL", seconds_on_duty=sum(self.duty.seconds.values()))
        for line in self.by_croupier.values():
            for name in ("rounds", "voided", "arbitrated", "handle", "void_returned", "paid", "collected", "commission",
                         "rounding", "adjusted_paid", "adjusted_collected"):
                setattr(total, name, getattr(total, name) + getattr(line, name))
        return total


@record
class Reading:
    """One entry the report folds: the journal row (when, and who signed it) and its event, a
    ``RoundClosed`` (derived from the event that closed the round in an older journal), a
    shift's opening or close, or a game's ``Reported`` event."""

    event: Event
    body: EventBody
    set_back: timedelta = timedelta(0)
    """How far the clock was set back (``clock_corrected``) between the first entry read and
    this one, all steps back added up."""

    @property
    def when(self) -> datetime:
        """The time the entry was journaled at (what is shown)."""
        return datetime.fromisoformat(self.event.ts)

    @property
    def clock(self) -> datetime:
        """``when`` on a clock that never went back (each step back added back): what
        durations are measured on, so the time a clock set back took is neither lost nor counted twice."""
        return self.when + self.set_back


def report_types(codec: EventCodec) -> tuple[frozenset[str], frozenset[str]]:
    """The game event types the report reads: those it counts (``Reported``), and those that
    closed a round before ``round_closed`` was journaled (``ClosesRound``)."""
    classes = codec.by_type.values()
    return (frozenset(c.type for c in classes if issubclass(c, Reported)),
            frozenset(c.type for c in classes if issubclass(c, ClosesRound)))


def two_signed_types(codec: EventCodec) -> frozenset[str]:
    """The game event types that may carry a second supervisor's signature (two-person control)."""
    return frozenset(c.type for c in codec.by_type.values() if SECOND in getattr(c, "__dataclass_fields__", {}))


def report_events(view: ReadView, codec: EventCodec, game: str, *, after: int = 0, before: int | None = None,
                  since: str | None = None, until: str | None = None,
                  also: frozenset[str] = frozenset()) -> Iterator[Reading]:
    """The entries the report folds, in journal order, one at a time, with seq above ``after``
    and below ``before`` and from ``since`` to before ``until`` (ISO texts, UTC) in the journal's
    order (``ReadView.window``: a clock set back drops nothing).

    A journal written before ``round_closed`` existed has none before the first one: up to it,
    each game event that closed a round reads as the ``RoundClosed`` it would have written,
    with the croupier on duty (the last ``shift_opened``). Old journals are read, never
    rewritten: the chain stays as it was signed. Shift entries are read from the start
    whatever the bounds, to know who was on duty; only rows of the wanted types are read
    (and of the base's types ``also``: the tray's, for its ledger).
    """
    reported, closing = report_types(codec)
    first = view.first_seq(RoundClosed.type)
    # The first round_closed follows the event that closed its round: older rows are legacy.
    cutover = None if first is None else first - 1
    start, before = view.window(after=after, before=before, since=since, until=until)
    legacy_before = cutover if before is None or (cutover is not None and cutover < before) else before
    signed = two_signed_types(codec)
    streams = [
        view.events(SHIFT_TYPES, before=before),
        view.events(reported | (signed - closing) | also | {RoundClosed.type, ClockCorrected.type},
                    after=start, before=before),
    ]
    if cutover != 0:
        streams.append(view.events(closing, after=start, before=legacy_before))
    if cutover is not None and signed & closing:
        # After the legacy rows a void two supervisors signed is read for its signatures alone
        # (its round's money is the round_closed after it).
        streams.append(view.events(signed & closing, after=max(start, cutover - 1), before=before))
    on_duty: str | None = None
    set_back = timedelta(0)
    for event in heapq.merge(*streams, key=lambda e: e.seq):
        if event.type == ClockCorrected.type:
            set_back += datetime.fromisoformat(event.payload["previous"]) - datetime.fromisoformat(event.payload["now"])
            continue
        if event.type in SHIFT_TYPES:
            body: EventBody = ShiftOpened.from_payload(event.payload) if event.type == ShiftOpened.type \
                else ShiftClosed.from_payload(event.payload)
            if isinstance(body, ShiftOpened):
                on_duty = body.staff_id
            if event.seq <= start:
                continue
        elif event.type in BASE_CODEC.types:
            body = BASE_CODEC.decode(event.type, event.payload)
        else:
            body = codec.decode(event.type, event.payload)
            if event.type in closing and (cutover is None or event.seq < cutover):
                assert isinstance(body, ClosesRound)
                body = body.round_closed(game, event.round_id, on_duty or event.staff_id)
        yield Reading(event, body, set_back)


def gaming_day_windows(view: ReadView, day: str) -> list[tuple[int, int | None]]:
    """The (after, before) seq ranges of the gaming days recorded as ``day`` (ISO date): each
    closed one runs from the close before it to its own ``gaming_day_closed``, which names it;
    the open one, after the last close, is its first entry's (``gaming_day_of``). By the
    journal's order and what it recorded, not by the entries' times (a clock set back)."""
    windows: list[tuple[int, int | None]] = []
    after = 0
    for close in view.events([GamingDayClosed.type]):
        if close.payload["day"] == day:
            windows.append((after, close.seq + 1))
        after = close.seq
    first = next((e for e in view.events(after=after) if e.type != JournalArchived.type), None)
    if first is not None and gaming_day_of(first.ts) == day:
        windows.append((after, None))
    return windows


def last_moment(view: ReadView) -> datetime | None:
    """When the journal's last entry was made (an open shift's duty runs to it)."""
    _, entries = view.head()
    return next((datetime.fromisoformat(e.ts) for e in view.events(after=entries - 1)), None)


def base_reading(event: Event) -> Reading:
    """A shift, tray or round-closed entry with its typed event."""
    return Reading(event, BASE_CODEC.decode(event.type, event.payload))


def shift_readings(view: ReadView) -> Iterator[Reading]:
    """The shifts' openings and closes alone (the outline of every shift)."""
    return map(base_reading, view.events(SHIFT_TYPES))


def shift_report(readings: Iterable[Reading], end: datetime | None = None) -> ShiftReport:
    """Fold the report's entries into per-croupier figures (the croupier on duty at each one);
    a turn still open at the last entry read runs to ``end`` (as ``shift_closes``)."""
    report = ShiftReport()
    on_duty: str | None = None
    last: Reading | None = None
    for reading in readings:
        body, last = reading.body, reading
        closer = (body.croupier or reading.event.staff_id or "—") if type(body) is RoundClosed else None
        report.duty.step(reading.clock)
        report.duty.read(body, closer)
        if isinstance(body, ShiftOpened):
            on_duty = body.staff_id
            continue
        if closer is not None:
            who = closer
        elif isinstance(body, ShiftClosed) or not isinstance(body, Reported) or not body.reported().moves_money:
            continue  # (a void two supervisors signed is read for its signatures: its money is its round's)
        else:
            who = on_duty or reading.event.staff_id or "—"
        _fold(report.by_croupier.setdefault(who, CroupierShift(who)), body)
    if last is not None:
        report.duty.run_to(last, end)
    for who, line in report.by_croupier.items():
        line.seconds_on_duty = report.duty.seconds.get(who, 0.0)
    return report


def _fold(line: CroupierShift, body: EventBody) -> None:
    """Add one closed round, or one counted event of the game, to ``line``."""
    if type(body) is RoundClosed:
        line.rounds += 1
        line.voided += body.voided
        line.arbitrated += body.arbitrated
        if body.arbitrated and isinstance(line, DutyLine):
            line.arbitrated_rounds.append(body.round)
        line.handle += body.staked
        line.void_returned += body.returned
        line.paid += body.paid
        line.collected += body.collected
        line.rounding += body.rounding
        return
    item: ReportItem = cast(Reported, body).reported()
    if item.adjusted > 0:  # positive: paid to the box; negative: collected from it
        line.adjusted_paid += item.adjusted
    else:
        line.adjusted_collected -= item.adjusted
    line.commission += item.commission
    line.rounding += item.rounding
    if isinstance(line, DutyLine):
        line.dead_hands += item.dead_hand
        line.corrections += item.correction


# --- the report of one shift, croupier by croupier (``report --shift``, the close screen) -----

@record
class TwoSigned:
    """An entry two supervisors signed: its round, its type, the first and the second."""

    seq: int
    round: int | None
    entry: str
    supervisor: str | None
    second_supervisor: str


@dataclass
class DutyLine(CroupierShift):
    """One croupier's figures in one shift (a relief and a return make two turns on duty)."""

    dead_hands: int = 0
    corrections: int = 0
    arbitrated_rounds: list[int] = field(default_factory=list)
    """The rounds two supervisors voided as management's arbitration (§73), each listed."""
    two_signed: list[TwoSigned] = field(default_factory=list)
    """Every entry two supervisors signed, with both of them (the text report's; the JSON keeps
    its golden figures)."""

    def add(self, other: DutyLine) -> None:
        for name in ("rounds", "voided", "arbitrated", "handle", "void_returned", "paid", "collected", "commission",
                     "rounding", "adjusted_paid", "adjusted_collected", "seconds_on_duty", "dead_hands",
                     "corrections"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.arbitrated_rounds = sorted(self.arbitrated_rounds + other.arbitrated_rounds)
        self.two_signed = sorted(self.two_signed + other.two_signed, key=lambda s: s.seq)

    def to_dict(self) -> dict[str, Any]:
        return super().to_dict() | {
            "minutes_on_duty": round(self.seconds_on_duty / 60, 1),
            "dead_hands": self.dead_hands,
            "corrections": self.corrections,
            "arbitrated_rounds": self.arbitrated_rounds,
        }


@dataclass
class ShiftClose:
    """One shift from its first ``shift_opened`` to its ``shift_closed`` (or to now if open).
    ``head_hash`` and ``entries`` are the journal's at the close (the ``shift_closed`` entry):
    what an auditor keeps to show later that nothing was cut from the end."""

    number: int
    opened: datetime
    first_seq: int = 0
    closed: datetime | None = None
    closed_by: str | None = None
    head_hash: str | None = None
    entries: int | None = None
    by_croupier: dict[str, DutyLine] = field(default_factory=dict)

    @property
    def total(self) -> DutyLine:
        total = DutyLine("TOTAL")
        for line in self.by_croupier.values():
            total.add(line)
        return total

    def to_dict(self) -> dict[str, Any]:
        return {
            "shift": self.number,
            "opened": self.opened.isoformat(),
            "closed": None if self.closed is None else self.closed.isoformat(),
            "closed_by": self.closed_by,
            "journal_head_hash": self.head_hash,
            "journal_entries": self.entries,
            "croupiers": [line.to_dict() for line in self.by_croupier.values()],
            "total": self.total.to_dict(),
        }


def shift_closes(readings: Iterable[Reading], end: datetime | None = None) -> list[ShiftClose]:
    """Every shift of the journal, oldest first; the last one may still be open (its duty
    time then runs to ``end``, the journal's last entry, or else the last entry read). Events
    outside any shift belong to none."""
    shifts: list[ShiftClose] = []
    shift: ShiftClose | None = None
    duty = Duty()
    last: Reading | None = None

    def end_shift(open_shift: ShiftClose) -> None:
        for who, line in open_shift.by_croupier.items():
            line.seconds_on_duty = duty.seconds.get(who, 0.0)

    for reading in readings:
        event, body, clock, last = reading.event, reading.body, reading.clock, reading
        if isinstance(body, ShiftOpened):
            if shift is None:
                shift = ShiftClose(len(shifts) + 1, reading.when, event.seq)
                shifts.append(shift)
                duty = Duty()
            duty.step(clock)
            duty.read(body)
            shift.by_croupier.setdefault(body.staff_id, DutyLine(body.staff_id))
            continue
        if shift is None or duty.on is None:
            continue
        duty.step(clock)
        if isinstance(body, ShiftClosed):
            end_shift(shift)
            shift.closed, shift.closed_by = reading.when, event.staff_id
            shift.head_hash, shift.entries = event.hash, event.seq
            shift = None
            continue
        on_duty = shift.by_croupier[duty.on]
        # Read from the entry itself: an old journal's void reads as the round it closed.
        second = event.payload.get(SECOND)
        if second is not None:
            on_duty.two_signed.append(TwoSigned(event.seq, event.round_id, event.type, event.staff_id, second))
        if type(body) is RoundClosed or isinstance(body, Reported):
            _fold(on_duty, body)  # (a void read for its signatures: its money is its round_closed's)
    if shift is not None and last is not None:
        duty.run_to(last, end)
        end_shift(shift)
    return shifts
