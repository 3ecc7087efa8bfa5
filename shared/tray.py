"""The table's chip tray ("caja de la mesa"), reconciled to the chip, for both games.

The tray is counted by denomination when the table opens and when it closes; in between the
console knows every flow: fills and credits (chips brought to or taken from the table, each
signed by the croupier and a supervisor), chips given for cash buy-ins, and what the rounds
collected, took in commission and paid. Each flow is defined once here (``FLOWS``, and
``TrayLedger.take``); the expected tray is

    opening + fills − credits + collected + commission − paid − buy-ins

and the close records it beside the counted tray and the difference. A difference above the
table's ``tray_tolerance`` needs a supervisor's reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from shared.errors import InputError
from shared.journal import Event
from shared.messages import Msg
from shared.money import ZERO
from shared.report import COMMISSION, SETTLED, ShiftClose, commission_collected, round_money

TRAY_OPENED = "tray_opened"
TRAY_FILL = "tray_fill"
TRAY_CREDIT = "tray_credit"
CASH_BUY_IN = "cash_buy_in"
TRAY_CLOSED = "tray_closed"
TRAY_EVENTS = frozenset({TRAY_OPENED, TRAY_FILL, TRAY_CREDIT, CASH_BUY_IN, TRAY_CLOSED})

_PAIR = re.compile(r"\s*([0-9]+(?:[.,][0-9]+)?)\s*[xX×]\s*([0-9]+)\s*")


def parse_count(text: str) -> dict[str, int]:
    """A count typed as «denomination x chips» pairs: ``1000x20 500x40 100x100``.

    Returns denomination (as a plain decimal string) → number of chips; a denomination given
    twice is refused rather than added, so a typo is seen."""
    pairs = [p for p in re.split(r"[\s;]+(?=[0-9]+(?:[.,][0-9]+)?\s*[xX×])", text.strip()) if p]
    if not pairs:
        raise InputError(Msg.of("tray.count_missing"))
    count: dict[str, int] = {}
    for pair in pairs:
        match = _PAIR.fullmatch(pair)
        if match is None:
            raise InputError(Msg.of("tray.pair_expected", pair=pair.strip()[:20]))
        value = Decimal(match.group(1).replace(",", "."))  # the pattern admits digits only
        if value <= 0:
            raise InputError(Msg.of("tray.chip_zero", pair=pair.strip()))
        key = format(value.normalize(), "f")
        if key in count:
            raise InputError(Msg.of("tray.chip_twice", chip=key))
        count[key] = int(match.group(2))
    return count


def count_total(count: Mapping[str, int]) -> Decimal:
    return sum((Decimal(value) * chips for value, chips in count.items()), ZERO)


@dataclass
class TrayLedger:
    """The tray's flows since it was opened, each a total in money."""

    opening: Decimal = ZERO
    fills: Decimal = ZERO
    credits: Decimal = ZERO
    collected: Decimal = ZERO
    commission: Decimal = ZERO
    paid: Decimal = ZERO
    buy_ins: Decimal = ZERO
    counted: Decimal | None = None
    flows: int = 0
    opened_seq: int | None = None
    closed_seq: int | None = None
    breakdown: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def expected(self) -> Decimal:
        return (self.opening + self.fills - self.credits + self.collected + self.commission
                - self.paid - self.buy_ins)

    @property
    def difference(self) -> Decimal | None:
        """Counted − expected: positive when the tray holds more than it should."""
        return None if self.counted is None else self.counted - self.expected

    def take(self, event: Event) -> None:
        """Fold one journal entry into the ledger (entries that move no tray chips are ignored)."""
        kind, payload = event.type, event.payload
        if kind == TRAY_OPENED:
            self.opening = Decimal(payload["total"])
            self.breakdown["opening"] = payload["count"]
            self.opened_seq = event.seq
        elif kind == TRAY_FILL:
            self.fills += Decimal(payload["total"])
        elif kind == TRAY_CREDIT:
            self.credits += Decimal(payload["total"])
        elif kind == CASH_BUY_IN:
            self.buy_ins += Decimal(payload["amount"])
        elif kind == TRAY_CLOSED:
            self.counted = Decimal(payload["counted"])
            self.breakdown["closing"] = payload["count"]
            self.closed_seq = event.seq
        elif kind in SETTLED:
            money = round_money(event)
            self.collected += money.collected
            self.paid += money.paid
        elif kind == COMMISSION:  # the Midi commission tallies, taken in chips when collected
            self.commission += commission_collected(event)[0]
        elif kind == "adjustment":
            # A supervisor's correction of a payment: chips out of the tray (or back in when negative).
            self.paid += Decimal(payload["amount"])
        else:
            return
        self.flows += 1

    def to_dict(self) -> dict[str, Any]:
        money = ("opening", "fills", "credits", "collected", "commission", "paid", "buy_ins", "expected")
        out: dict[str, Any] = {name: str(getattr(self, name)) for name in money}
        out["counted"] = None if self.counted is None else str(self.counted)
        out["difference"] = None if self.difference is None else str(self.difference)
        return out


def trays_of_shift(shift: ShiftClose, ledgers: Iterable[TrayLedger]) -> list[TrayLedger]:
    """The trays closed during ``shift`` (for its report)."""
    last = shift.entries if shift.entries is not None else float("inf")
    return [ledger for ledger in ledgers if ledger.closed_seq is not None and shift.first_seq <= ledger.closed_seq <= last]


def tray_ledgers(events: Iterable[Event]) -> list[TrayLedger]:
    """Every tray of the journal from its opening to its close (the last may still be open)."""
    ledgers: list[TrayLedger] = []
    current: TrayLedger | None = None
    for event in events:
        if event.type == TRAY_OPENED:
            current = TrayLedger()
            ledgers.append(current)
        if current is not None:
            current.take(event)
            if event.type == TRAY_CLOSED:
                current = None
    return ledgers
