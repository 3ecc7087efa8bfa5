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
# Every entry type shift_report() reads: a report need not read (or parse) any other.
REPORT_TYPES = frozenset(SETTLED | VOIDED | {"adjustment", "shift_opened"})


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
