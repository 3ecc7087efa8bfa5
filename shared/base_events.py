"""The events both games journal alike: shifts, the chip tray, and the close of a round.

Shift and tray events keep the exact keys and JSON shapes the journal held when they were
written as plain rows (``record(type, payload)``), so old rows decode as they stand and new
rows hash as they did. ``RoundClosed`` is written by each game in the transaction that
closes a round (settled, voided, NULO): the figures the shift report, the tray and the
recall frame read without knowing the game. Games say which of their own events close a
round (``ClosesRound``), so a journal written before ``round_closed`` existed reads the same
(``shared.report``); their events the report counts besides rounds (adjustments, commission
collections, dead hands, rulings) say how (``Reported``).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, ClassVar, Protocol, runtime_checkable

from shared.events import (
    VERSION_KEY,
    ConsoleClosed,
    ClockCorrected,
    ConsoleStarted,
    EventBody,
    EventCodec,
    GamingDayClosed,
    JournalArchived,
    JournalUpgraded,
    event_body,
)
from shared.messages import DEFAULT_LANG, Localized, Msg, Plain, catalog
from shared.money import ZERO
from shared.record import record

TABLE_CONFIG = "table_config"
"""The table configuration read from a file, in force from this entry on (``shared.table_file``):
a plain row, not a typed event."""


def _role(role: str) -> Localized:
    """A staff role's name; a role the catalog does not know (an older journal's) as written."""
    code = f"staff.role_{role}"
    return Msg.of(code) if code in catalog(DEFAULT_LANG) else Plain(role)


@event_body
class ShiftOpened(EventBody):
    """A croupier (or supervisor) takes the table; ``previous`` names the one relieved."""

    type: ClassVar[str] = "shift_opened"
    staff_id: str
    role: str
    previous: str | None

    def recall(self) -> Msg:
        if self.previous:
            return Msg.of("events.relief", staff_id=self.staff_id, previous=self.previous)
        return Msg.of("events.shift_opened", staff_id=self.staff_id)


@event_body
class ShiftClosed(EventBody):
    """A supervisor ends the shift of ``staff_id`` (with a reason if one was given)."""

    type: ClassVar[str] = "shift_closed"
    staff_id: str
    reason: str | None = None

    def to_payload(self) -> dict[str, Any]:
        # A close without a reason never had the key.
        payload = super().to_payload()
        if self.reason is None:
            del payload["reason"]
        return payload

    def recall(self) -> Msg:
        return Msg.of("events.shift_closed", staff_id=self.staff_id)


@event_body
class StaffEnrolled(EventBody):
    """A person enrolled (never their PIN or its hash); ``by``: the supervisor, None for the first."""

    type: ClassVar[str] = "staff_enrolled"
    staff_id: str
    name: str
    role: str
    by: str | None

    def recall(self) -> Msg:
        return Msg.of("events.staff_enrolled", role=_role(self.role), staff_id=self.staff_id, name=self.name)


@event_body
class StaffDeactivated(EventBody):
    type: ClassVar[str] = "staff_deactivated"
    staff_id: str
    name: str
    role: str
    reason: str

    def recall(self) -> Msg:
        return Msg.of("events.staff_deactivated", role=_role(self.role), staff_id=self.staff_id, name=self.name,
                      reason=self.reason)


@event_body
class StaffPinReset(EventBody):
    """A supervisor gave a temporary PIN, to be changed at the next sign-in."""

    type: ClassVar[str] = "staff_pin_reset"
    staff_id: str
    name: str
    reason: str

    def recall(self) -> Msg:
        return Msg.of("events.staff_pin_reset", staff_id=self.staff_id, reason=self.reason)


@event_body
class StaffUnlocked(EventBody):
    type: ClassVar[str] = "staff_unlocked"
    staff_id: str
    name: str
    reason: str

    def recall(self) -> Msg:
        return Msg.of("events.staff_unlocked", staff_id=self.staff_id, reason=self.reason)


@event_body
class StaffPinChanged(EventBody):
    type: ClassVar[str] = "staff_pin_changed"
    staff_id: str

    def recall(self) -> Msg:
        return Msg.of("events.staff_pin_changed", staff_id=self.staff_id)


@event_body
class PinFailed(EventBody):
    """A wrong PIN for ``staff_id`` at ``table``; ``attempt`` 0: no such ID was typed."""

    type: ClassVar[str] = "pin_failed"
    staff_id: str
    table: str
    attempt: int

    def recall(self) -> Msg:
        if not self.attempt:
            return Msg.of("events.pin_failed_unknown", staff_id=self.staff_id, table=self.table)
        return Msg.of("events.pin_failed", staff_id=self.staff_id, table=self.table, attempt=self.attempt)


@event_body
class AccountLocked(EventBody):
    """Too many wrong PINs: the next attempt waits ``until`` (local time, as written)."""

    type: ClassVar[str] = "account_locked"
    staff_id: str
    table: str
    until: str

    def recall(self) -> Msg:
        return Msg.of("events.account_locked", staff_id=self.staff_id, until=self.until, table=self.table)


@event_body
class StaffCredentials(EventBody):
    """The PIN credentials now in force, by staff ID: each a keyed digest of the stored salt,
    hash and cost (``shared.staff``: without the table key it neither reveals nor proves
    anything). The staff table's copy of each credential must match the latest one here."""

    type: ClassVar[str] = "staff_credentials"
    credentials: dict[str, str]

    def recall(self) -> Msg:
        return Msg.of("events.staff_credentials", staff=", ".join(sorted(self.credentials)))


@event_body
class StaffAttemptsCleared(EventBody):
    """A right PIN after wrong ones: the count of wrong PINs (and any delay) starts again."""

    type: ClassVar[str] = "staff_attempts_cleared"
    staff_id: str

    def recall(self) -> Msg:
        return Msg.of("events.staff_attempts_cleared", staff_id=self.staff_id)


STAFF_CODEC = EventCodec(StaffEnrolled, StaffDeactivated, StaffPinReset, StaffUnlocked, StaffPinChanged, PinFailed,
                         AccountLocked, StaffCredentials, StaffAttemptsCleared)
"""Staff administration, credentials and sign-in failures, journaled by ``shared.staff``: the
staff registry is their fold (no table state)."""


@event_body
class TrayCount(EventBody):
    """A tray count signed by the croupier and a supervisor: chips by denomination, and their total."""

    count: dict[str, int]
    total: Decimal
    croupier: str
    supervisor: str

    def recall(self) -> Msg:
        return Msg.of(f"events.{self.type}", total=self.total, croupier=self.croupier, supervisor=self.supervisor)


@event_body
class TrayOpened(TrayCount):
    type: ClassVar[str] = "tray_opened"


@event_body
class TrayFill(TrayCount):
    """Chips brought to the table («reposición»)."""

    type: ClassVar[str] = "tray_fill"


@event_body
class TrayCredit(TrayCount):
    """Chips taken from the table («retiro de fichas»)."""

    type: ClassVar[str] = "tray_credit"


@event_body
class TrayClosed(TrayCount):
    """The closing count beside what the flows expected; ``reason`` explains a difference."""

    type: ClassVar[str] = "tray_closed"
    counted: Decimal
    expected: Decimal
    difference: Decimal
    reason: str

    def recall(self) -> Msg:
        return Msg.of("events.tray_closed_reason" if self.reason else "events.tray_closed", counted=self.counted,
                      expected=self.expected, difference=self.difference, reason=self.reason,
                      croupier=self.croupier, supervisor=self.supervisor)


@event_body
class CashBuyIn(EventBody):
    """Chips given for cash at the table («cambio»)."""

    type: ClassVar[str] = "cash_buy_in"
    amount: Decimal

    def recall(self) -> Msg:
        return Msg.of("events.cash_buy_in", amount=self.amount)


@event_body
class RoundClosed(EventBody):
    """A round (a Midi coup) closed, with its money as the engine settled it.

    ``staked`` is the apostado (handle): the stakes of the bets the rules settled; ``returned``
    the stakes given back because the round or a box was void (NULO, misdeal, collusion);
    ``rounding`` what paying whole chips gave the players above the regulated amounts."""

    type: ClassVar[str] = "round_closed"
    game: str
    round: int
    croupier: str | None
    voided: bool
    arbitrated: bool
    staked: Decimal
    returned: Decimal
    paid: Decimal
    collected: Decimal
    rounding: Decimal = ZERO

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> EventBody:
        # A year's report reads one a round: built directly, not through the generic decoder
        # (which still reads a payload of another version).
        if VERSION_KEY in payload:
            return super().from_payload(payload)
        p = payload
        return cls(p["game"], p["round"], p["croupier"], p["voided"], p["arbitrated"], Decimal(p["staked"]),
                   Decimal(p["returned"]), Decimal(p["paid"]), Decimal(p["collected"]), Decimal(p["rounding"]))

    def recall(self) -> Msg:
        """The close in the croupier's words (both games' recall frames). ``handed`` is what the
        croupier put before the players: the winnings and every settled stake not collected
        (a winner's, and a tie's: a Midi tie hands Punto and Banca back), which ``returned``
        (void stakes) does not count; the tie's share alone is not in this record (each
        game's settlement line says it). Void stakes
        are named only when a box was void (§69), so the usual line fits a recall row."""
        code = ("report.round_closed_void" if self.voided else
                "report.round_closed_box_void" if self.returned else "report.round_closed")
        return Msg.of(code, round=self.round, staked=self.staked, paid=self.paid, collected=self.collected,
                      handed=self.paid + self.staked - self.collected, returned=self.returned)


@runtime_checkable
class ClosesRound(Protocol):
    """A game event that closes a round: it says what the round's ``RoundClosed`` holds."""

    def round_closed(self, game: str, round_id: int, croupier: str | None) -> RoundClosed: ...


@runtime_checkable
class Reported(Protocol):
    """A game event outside a round's settlement that the shift report counts."""

    def reported(self) -> ReportItem: ...


@record
class ReportItem:
    """What one ``Reported`` event adds to the report of the croupier on duty."""

    adjusted: Decimal = ZERO
    """Paid to a player (positive) or collected from one (negative) by a supervisor (§73)."""
    commission: Decimal = ZERO
    """Commission collected (Midi Art. 5 §3)."""
    rounding: Decimal = ZERO
    """What rounding the collection to the chip gave the players."""
    dead_hand: bool = False
    correction: bool = False
    """One supervisor's correction or ruling on the game other than a void, a dead hand or an
    adjustment (a card corrected, community cards dealt again, a void hand, a supervisor's end
    of shoe or deal): counted apart from the arbitrations, which need two supervisors."""

    @property
    def moves_money(self) -> bool:
        return bool(self.adjusted or self.commission or self.rounding)


BASE_CODEC = EventCodec(ShiftOpened, ShiftClosed, TrayOpened, TrayFill, TrayCredit, TrayClosed, CashBuyIn,
                        RoundClosed)
"""The typed events of a table's shifts, tray and closed rounds (the base engine records them)."""


@runtime_checkable
class Recalled(Protocol):
    """An event with words of its own for the recall frame and the log line."""

    def recall(self) -> Msg: ...


def table_config_recall(payload: Mapping[str, Any]) -> Msg:
    """The ``table_config`` row in words: which file set the table up, and its limits."""
    values = payload["values"]
    return Msg.of("events.table_config", table=values["table_id"], file=payload["file"],
                  minimum=Decimal(values["minimum"]), maximum=Decimal(values["maximum"]))


COMMON_CODEC = STAFF_CODEC + BASE_CODEC + EventCodec(GamingDayClosed, JournalArchived, JournalUpgraded,
                                                        ConsoleStarted, ConsoleClosed, ClockCorrected)
"""Every typed event that is no game's own: each says its recall words (``Recalled``)."""


def common_recall(event_type: str, payload: Mapping[str, Any]) -> Msg | None:
    """The words of an event every table journals (shift, staff, tray, cash, a closed round, the
    table's set-up, the gaming day, an archive); None for a game's own event. Both consoles'
    recall, their log line and ``journal recall`` read them here."""
    if event_type == TABLE_CONFIG:
        return table_config_recall(payload)
    if event_type not in COMMON_CODEC.types:
        return None
    body = COMMON_CODEC.decode(event_type, payload)
    assert isinstance(body, Recalled), event_type  # test_base_events: every common event has words
    return body.recall()
