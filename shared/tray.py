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
from dataclasses import field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from shared.base_events import CashBuyIn, Reported, RoundClosed, TrayClosed, TrayCredit, TrayFill, TrayOpened
from shared.errors import InputError
from shared.messages import Msg
from shared.money import ZERO
from shared.record import record
from shared.regex import Regex

if TYPE_CHECKING:
    from shared.report import Reading, ShiftClose

TRAY_EVENTS = frozenset(c.type for c in (TrayOpened, TrayFill, TrayCredit, CashBuyIn, TrayClosed))

_PAIR = Regex(r"\s*([0-9]+(?:[.,][0-9]+)?)\s*[xX×]\s*([0-9]+)\s*")


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


@record(frozen=False)
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

    def take(self, reading: Reading) -> None:
        """Fold one journal entry into the ledger (entries that move no tray chips are ignored)."""
        body, seq = reading.body, reading.event.seq
        if isinstance(body, TrayOpened):
            self.opening = body.total
            self.breakdown["opening"] = body.count
            self.opened_seq = seq
        elif isinstance(body, TrayFill):
            self.fills += body.total
        elif isinstance(body, TrayCredit):
            self.credits += body.total
        elif isinstance(body, CashBuyIn):
            self.buy_ins += body.amount
        elif isinstance(body, TrayClosed):
            self.counted = body.counted
            self.breakdown["closing"] = body.count
            self.closed_seq = seq
        elif isinstance(body, RoundClosed):
            self.collected += body.collected
            self.paid += body.paid
        elif isinstance(body, Reported) and body.reported().moves_money:
            item = body.reported()
            # The commission tallies are taken in chips when collected; a supervisor's correction
            # of a payment is chips out of the tray (or back in when negative).
            self.commission += item.commission
            self.paid += item.adjusted
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


def tray_ledgers(readings: Iterable[Reading]) -> list[TrayLedger]:
    """Every tray from its opening to its close (the last may still be open), from the report's
    entries read with the tray's (``report_events(…, also=TRAY_EVENTS)``)."""
    ledgers: list[TrayLedger] = []
    current: TrayLedger | None = None
    for reading in readings:
        if isinstance(reading.body, TrayOpened):
            current = TrayLedger()
            ledgers.append(current)
        if current is not None:
            current.take(reading)
            if isinstance(reading.body, TrayClosed):
                current = None
    return ledgers
