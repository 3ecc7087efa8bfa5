"""The shift report (console.md, "Supervisor tools"): rounds, hands per hour, drop, win and
hold % by croupier, read from a table's journal.

Drop here is the money staked on the table's settled rounds (the console sees bets, not the
drop box); win is what the bank collected less what it paid, adjustments included; hold is
win over drop. A voided round counts as played but moves no money (every bet is returned).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from shared.journal import Event
from shared.money import ZERO

SETTLED = {"round_settled", "coup_settled"}
VOIDED = {"round_voided", "coup_voided"}


@dataclass
class CroupierShift:
    staff_id: str
    rounds: int = 0
    voided: int = 0
    drop: Decimal = ZERO
    paid: Decimal = ZERO
    collected: Decimal = ZERO
    adjustments: Decimal = ZERO
    first: datetime | None = None
    last: datetime | None = None

    @property
    def win(self) -> Decimal:
        return self.collected - self.paid - self.adjustments

    @property
    def hold_percent(self) -> Decimal | None:
        return None if not self.drop else (self.win * 100 / self.drop).quantize(Decimal("0.01"))

    @property
    def hours(self) -> float:
        if self.first is None or self.last is None:
            return 0.0
        return (self.last - self.first).total_seconds() / 3600

    @property
    def rounds_per_hour(self) -> float | None:
        return self.rounds / self.hours if self.hours > 0 else None

    def to_dict(self) -> dict:
        rate = self.rounds_per_hour
        return {
            "croupier": self.staff_id,
            "rounds": self.rounds,
            "voided": self.voided,
            "rounds_per_hour": None if rate is None else round(rate, 1),
            "drop": str(self.drop),
            "paid": str(self.paid),
            "collected": str(self.collected),
            "adjustments": str(self.adjustments),
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
            total.rounds += line.rounds
            total.voided += line.voided
            total.drop += line.drop
            total.paid += line.paid
            total.collected += line.collected
            total.adjustments += line.adjustments
            for moment in (line.first, line.last):
                if moment is not None:
                    total.first = moment if total.first is None else min(total.first, moment)
                    total.last = moment if total.last is None else max(total.last, moment)
        return total


def _totals(event: Event) -> tuple[Decimal, Decimal, Decimal]:
    """(staked, paid, collected) of one settlement event, whichever game wrote it."""
    payload = event.payload
    if "settlement" in payload:  # Madero: the settlement's own totals
        t = payload["settlement"]["totals"]
        return Decimal(t["staked"]), Decimal(t["paid"]), Decimal(t["collected"])
    staked = paid = collected = ZERO
    for line in payload.get("lines", ()):  # Midi: one line per bet
        stake = Decimal(line["stake"])
        staked += stake
        if line["outcome"] == "win":
            paid += Decimal(line["paid"])
        elif line["outcome"] == "lose":
            collected += stake
    return staked, paid, collected


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
        if event.type not in SETTLED | VOIDED | {"adjustment"}:
            continue
        who = on_duty or event.staff_id or "—"
        line = report.by_croupier.setdefault(who, CroupierShift(who))
        if event.type == "adjustment":
            line.adjustments += Decimal(event.payload["amount"])
            continue
        line.rounds += 1
        line.first = when if line.first is None else min(line.first, when)
        line.last = when if line.last is None else max(line.last, when)
        if event.type in VOIDED:
            line.voided += 1
            continue
        staked, paid, collected = _totals(event)
        line.drop += staked
        line.paid += paid
        line.collected += collected
    return report


# --- the report of one shift, croupier by croupier (``report --shift``, the close screen) -----

SHIFT_OPENED = "shift_opened"
SHIFT_CLOSED = "shift_closed"
DEAD_HANDS = {"dead_hand"}
# Supervisor rulings on the game other than voids, dead hands and adjustments (counted apart).
ARBITRATIONS = {"collusion", "community_error", "card_corrected", "supervisor_deals"}


@dataclass(frozen=True)
class SettlementFigures:
    """The money of one settled round or coup. The one place a settlement's figures are read:
    the payout engines' commission tally plugs in at ``commission`` (read from each bet's
    ``commission`` where the engine records one; nothing records it yet)."""

    staked: Decimal
    paid: Decimal
    collected: Decimal
    rounding: Decimal  # paid − exact winnings, summed: what rounding to the chip gave the players
    commission: Decimal


def settlement_figures(event: Event) -> SettlementFigures:
    staked, paid, collected = _totals(event)
    payload = event.payload
    if "settlement" in payload:
        bets = [bet for box in payload["settlement"]["boxes"] for bet in box["bets"]]
    else:
        bets = list(payload.get("lines", ()))
    rounding = sum((Decimal(b["paid"]) - Decimal(b["exact"]) for b in bets if b.get("exact") is not None), ZERO)
    commission = sum((Decimal(b["commission"]) for b in bets if b.get("commission") is not None), ZERO)
    return SettlementFigures(staked, paid, collected, rounding, commission)


@dataclass
class DutyLine(CroupierShift):
    """One croupier's figures in one shift; time at the table is the sum of their turns on duty
    (a relief and a return make two turns), not the span from their first to last round."""

    seconds_on_duty: float = 0.0
    dead_hands: int = 0
    arbitrations: int = 0
    rounding: Decimal = ZERO
    commission: Decimal = ZERO

    @property
    def hours(self) -> float:
        return self.seconds_on_duty / 3600

    @property
    def win(self) -> Decimal:
        # Commission is chips the bank takes beside the losing bets (as in the tray's flows).
        return self.collected + self.commission - self.paid - self.adjustments

    def add(self, other: DutyLine) -> None:
        for name in ("rounds", "voided", "drop", "paid", "collected", "adjustments", "seconds_on_duty",
                     "dead_hands", "arbitrations", "rounding", "commission"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_dict(self) -> dict:
        return super().to_dict() | {
            "minutes_on_duty": round(self.seconds_on_duty / 60, 1),
            "dead_hands": self.dead_hands,
            "arbitrations": self.arbitrations,
            "rounding": str(self.rounding),
            "commission": str(self.commission),
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

    def to_dict(self) -> dict:
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
    if kind == "adjustment":
        line.adjustments += Decimal(event.payload["amount"])
    elif kind in DEAD_HANDS:
        line.dead_hands += 1
    elif kind in ARBITRATIONS or (kind == "shoe_ended" and event.payload.get("reason") == "supervisor"):
        line.arbitrations += 1
    elif kind in SETTLED | VOIDED:
        line.rounds += 1
        line.first = when if line.first is None else line.first
        line.last = when
        if kind in VOIDED:
            line.voided += 1
            return
        figures = settlement_figures(event)
        line.drop += figures.staked
        line.paid += figures.paid
        line.collected += figures.collected
        line.rounding += figures.rounding
        line.commission += figures.commission
