"""The shift report (console.md, "Supervisor tools"): rounds, hands per hour, apostado
(handle), win and hold % by croupier, read from a table's journal. ``report --help`` defines
every figure (``help.report_terms`` in the catalogs); both games count the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from shared.journal import Event
from shared.money import ZERO

SETTLED = {"round_settled", "coup_settled"}
VOIDED = {"round_voided", "coup_voided"}
COMMISSION = "commission_collected"

# Every entry type shift_report() reads: a report need not read (or parse) any other.
REPORT_TYPES = frozenset(SETTLED | VOIDED | {"adjustment", "shift_opened", COMMISSION})


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
    first: datetime | None = None
    last: datetime | None = None

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
        if self.first is None or self.last is None:
            return 0.0
        return (self.last - self.first).total_seconds() / 3600

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
class ShiftReport:
    by_croupier: dict[str, CroupierShift] = field(default_factory=dict)

    @property
    def total(self) -> CroupierShift:
        total = CroupierShift("TOTAL")
        for line in self.by_croupier.values():
            for name in ("rounds", "voided", "arbitrated", "handle", "void_returned", "paid", "collected", "commission",
                         "rounding", "adjusted_paid", "adjusted_collected"):
                setattr(total, name, getattr(total, name) + getattr(line, name))
            for moment in (line.first, line.last):
                if moment is not None:
                    total.first = moment if total.first is None else min(total.first, moment)
                    total.last = moment if total.last is None else max(total.last, moment)
        return total


@dataclass
class RoundMoney:
    """One settled or voided round's money, whichever game wrote it."""

    handle: Decimal = ZERO
    void_returned: Decimal = ZERO
    paid: Decimal = ZERO
    collected: Decimal = ZERO
    rounding: Decimal = ZERO


def round_money(event: Event) -> RoundMoney:
    payload = event.payload
    out = RoundMoney()
    if "settlement" in payload:  # Madero: the settlement's own totals and boxes
        settlement = payload["settlement"]
        t = settlement["totals"]
        void = ZERO
        if event.type in VOIDED:
            void = Decimal(t["staked"])
        else:  # a box voided for collusion (§69) gets every bet back, like a voided round
            void = sum((Decimal(bet["stake"]) for box in settlement["boxes"] if box["status"] == "voided"
                        for bet in box["bets"]), ZERO)
        out.handle, out.void_returned = Decimal(t["staked"]) - void, void
        out.paid, out.collected = Decimal(t["paid"]), Decimal(t["collected"])
        return out
    for line in payload.get("lines", ()):  # Midi: one line per bet
        stake = Decimal(line["stake"])
        if line["outcome"] == "void":
            out.void_returned += stake
            continue
        out.handle += stake
        if line["outcome"] == "win":
            out.paid += Decimal(line["paid"])
            # Rounding gave the player what the bet was paid above the regulated amount and
            # what it sent to the commission tally (journals before the tally have none).
            out.rounding += Decimal(line["paid"]) - Decimal(line.get("commission", "0")) - Decimal(line["exact"])
        elif line["outcome"] == "lose":
            out.collected += stake
    return out


def shift_report(events: Iterable[Event], since: datetime | None = None) -> ShiftReport:
    """Fold the journal's events into per-croupier figures (the croupier on duty at each one)."""
    report = ShiftReport()
    on_duty: str | None = None
    for event in events:
        if event.type == "shift_opened":
            on_duty = event.staff_id
            continue
        when = datetime.fromisoformat(event.ts)
        if since is not None and when < since:
            continue
        if event.type not in SETTLED | VOIDED | {"adjustment", COMMISSION}:
            continue
        who = on_duty or event.staff_id or "—"
        _fold(report.by_croupier.setdefault(who, CroupierShift(who)), event, when)
    return report


def commission_collected(event: Event) -> tuple[Decimal, Decimal]:
    """A ``commission_collected`` entry's money: the chips collected, and what rounding the
    tallies to the chip gave the players (Art. 5 §3)."""
    boxes = event.payload["boxes"].values()
    collected = sum((Decimal(box["collected"]) for box in boxes), ZERO)
    return collected, sum((Decimal(box["tally"]) for box in boxes), ZERO) - collected


def _fold(line: CroupierShift, event: Event, when: datetime) -> None:
    """Add one settled or voided round, adjustment or commission collection to ``line``."""
    if event.type == "adjustment":  # positive: paid to the box; negative: collected from it
        amount = Decimal(event.payload["amount"])
        if amount > 0:
            line.adjusted_paid += amount
        else:
            line.adjusted_collected -= amount
        return
    if event.type == COMMISSION:  # only this collection of the 5 % rounds (Art. 5 §3)
        commission, rounding = commission_collected(event)
        line.commission += commission
        line.rounding += rounding
        return
    line.rounds += 1
    line.first = when if line.first is None else min(line.first, when)
    line.last = when if line.last is None else max(line.last, when)
    if event.type in VOIDED:
        line.voided += 1
        line.arbitrated += bool(event.payload.get("arbitration"))
    money = round_money(event)
    line.handle += money.handle
    line.void_returned += money.void_returned
    line.paid += money.paid
    line.collected += money.collected
    line.rounding += money.rounding


# --- the report of one shift, croupier by croupier (``report --shift``, the close screen) -----

SHIFT_OPENED = "shift_opened"
SHIFT_CLOSED = "shift_closed"
DEAD_HANDS = {"dead_hand"}
# Supervisor rulings on the game other than voids, dead hands and adjustments (counted apart).
ARBITRATIONS = {"collusion", "community_error", "card_corrected", "supervisor_deals"}


@dataclass
class DutyLine(CroupierShift):
    """One croupier's figures in one shift; time at the table is the sum of their turns on duty
    (a relief and a return make two turns), not the span from their first to last round."""

    seconds_on_duty: float = 0.0
    dead_hands: int = 0
    arbitrations: int = 0

    @property
    def hours(self) -> float:
        return self.seconds_on_duty / 3600

    def add(self, other: DutyLine) -> None:
        for name in ("rounds", "voided", "arbitrated", "handle", "void_returned", "paid", "collected", "commission",
                     "rounding", "adjusted_paid", "adjusted_collected", "seconds_on_duty", "dead_hands",
                     "arbitrations"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_dict(self) -> dict[str, Any]:
        return super().to_dict() | {
            "minutes_on_duty": round(self.seconds_on_duty / 60, 1),
            "dead_hands": self.dead_hands,
            "arbitrations": self.arbitrations,
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


def shift_closes(events: Iterable[Event]) -> list[ShiftClose]:
    """Every shift of the journal, oldest first; the last one may still be open (its duty
    time then runs to the journal's last entry). Events outside any shift belong to none."""
    shifts: list[ShiftClose] = []
    shift: ShiftClose | None = None
    on_duty: DutyLine | None = None
    since: datetime | None = None
    when: datetime | None = None

    def end_turn(at: datetime) -> None:
        if on_duty is not None and since is not None:
            on_duty.seconds_on_duty += (at - since).total_seconds()

    for event in events:
        when = datetime.fromisoformat(event.ts)
        if event.type == SHIFT_OPENED:
            if shift is None:
                shift = ShiftClose(len(shifts) + 1, when, event.seq)
                shifts.append(shift)
            end_turn(when)
            who = event.payload["staff_id"]
            on_duty = shift.by_croupier.setdefault(who, DutyLine(who))
            since = when
            continue
        if shift is None or on_duty is None:
            continue
        if event.type == SHIFT_CLOSED:
            end_turn(when)
            shift.closed, shift.closed_by = when, event.staff_id
            shift.head_hash, shift.entries = event.hash, event.seq
            shift, on_duty, since = None, None, None
            continue
        _count(on_duty, event, when)
    if shift is not None and when is not None:
        end_turn(when)
    return shifts


def _count(line: DutyLine, event: Event, when: datetime) -> None:
    kind = event.type
    if kind in DEAD_HANDS:
        line.dead_hands += 1
    elif kind in ARBITRATIONS or (kind == "shoe_ended" and event.payload.get("reason") == "supervisor"):
        line.arbitrations += 1
    elif kind in SETTLED | VOIDED | {"adjustment", COMMISSION}:
        _fold(line, event, when)
