"""The chip tray's commands (``table.tray``; ``shared.tray`` defines the flows): open, fill,
credit, buy-in and close, each ``verify_x`` / ``x``, declared in the command table like any
other, and what the open tray holds so far (its ledger, a fill due).

The tray's folded state stays the table's (the seq of the open tray's opening, the ledger
folded so far): the desk reads it and records through the table.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING

from shared.actor import Actor, Role
from shared.base_events import CashBuyIn, TrayClosed, TrayCount, TrayCredit, TrayFill, TrayOpened
from shared.commands import Authority, Field, Offer, Signature, When, command
from shared.desk import Desk
from shared.engine.signers import SHIFT_ROLES
from shared.errors import AuthError, InputError
from shared.events import EventBody
from shared.messages import Msg
from shared.money import ZERO
from shared.staff import Credentials
from shared.tray import TRAY_EVENTS, TrayLedger, count_total, parse_count

if TYPE_CHECKING:
    from shared.engine import TableEngine  # noqa: F401 (named by the desk's Desk["TableEngine"])

SIGNED_COUNT = (Signature("croupier", "tray_croupier_id", "tray_croupier_pin"),
                Field("count", "tray_count", "1000x20 500x40 100x100"))
"""A tray count on the panel: the panel's ID and PIN are the supervisor's, the croupier signs here."""


def tray_count(count: str | dict[str, int]) -> dict[str, int]:
    """A count by denomination, typed («1000x20 500x40») or given; an empty or negative one is refused."""
    parsed = parse_count(count) if isinstance(count, str) else dict(count)
    if not parsed or any(chips < 0 for chips in parsed.values()):
        raise InputError(Msg.of("tray.invalid_count"))
    return parsed


class TrayDesk(Desk["TableEngine"]):
    @property
    def is_open(self) -> bool:
        return self.table._tray_opened_at is not None

    @property
    def tolerance(self) -> Decimal:
        # Each game's table carries its table config; a table without one tolerates nothing.
        config = getattr(self.table, "config", None)
        return getattr(config, "tray_tolerance", ZERO)

    def ledger(self) -> TrayLedger | None:
        """The open tray's flows so far (None when no tray is open).

        Folded incrementally: the console asks after every command (``fill_due``), so only
        the entries journaled since the last fold are read (a journal only grows; a read view
        sees committed entries alone, so a rolled-back one is never folded)."""
        table = self.table
        opened = table._tray_opened_at
        if opened is None:
            return None
        folded = table._tray_folded
        if folded is None or folded[0] != opened:
            folded = (opened, opened - 1, TrayLedger())
        _, after, ledger = folded
        if after < table.journal.last_seq:
            from shared.report import report_events  # the reports' module: not on a launch's path

            with table.journal.read_view() as view:
                for reading in report_events(view, table.codec, table.game, after=after, also=TRAY_EVENTS):
                    ledger.take(reading)
                _, after = view.head()
        table._tray_folded = (opened, after, ledger)
        return replace(ledger, breakdown=dict(ledger.breakdown))  # the caller's copy: the fold goes on

    def _two_signatures(self, croupier: Credentials | None, supervisor: Credentials | None) -> tuple[Actor, Actor]:
        """A croupier (or supervisor) and a supervisor, two different people, each with their PIN."""
        if croupier is not None and supervisor is not None and croupier.staff_id == supervisor.staff_id:
            raise AuthError(Msg.of("tray.two_signatures"))
        signers = self.table.signers
        return signers.authorize(croupier, set(SHIFT_ROLES)), signers.authorize(supervisor, Role.SUPERVISOR)

    def _need(self, open_: bool) -> None:
        if open_ and not self.is_open:
            raise InputError(Msg.of("tray.not_open"))
        if not open_ and self.is_open:
            raise InputError(Msg.of("tray.already_open"))

    def verify_bets_with_tray(self) -> None:
        """A live table takes bets only with the shift's tray open: what is paid and collected
        goes into (and out of) a tray whose opening count is on record."""
        if not self.table.training and not self.is_open:
            raise InputError(Msg.of("tray.open_before_bets"))

    def _verify_signed(self, count: str | dict[str, int] | None, croupier: Credentials | None,
                       supervisor: Credentials | None) -> tuple[dict[str, int], Actor, Actor] | None:
        """The count and both signatures; None with all three left out (the probe)."""
        if count is None and croupier is None and supervisor is None:
            return None
        parsed = tray_count("" if count is None else count)
        return parsed, *self._two_signatures(croupier, supervisor)

    def _record_signed(self, kind: type[TrayCount], checked: tuple[dict[str, int], Actor, Actor] | None,
                       **extra: object) -> list[EventBody]:
        if checked is None:  # a command given nothing to sign is refused as the probe's caller would be
            raise AuthError(Msg.of("staff.credentials_required"))
        parsed, signer, boss = checked
        return self.table.record_events(boss, kind(parsed, count_total(parsed), signer.staff_id, boss.staff_id, **extra))

    def verify_open(self, count: str | dict[str, int] | None = None, croupier: Credentials | None = None,
                    supervisor: Credentials | None = None) -> tuple[dict[str, int], Actor, Actor] | None:
        self._need(open_=False)
        return self._verify_signed(count, croupier, supervisor)

    @command("tray_open", (When.ANY, Authority.COUNTERSIGNED), "console.md (tray)", "sup_tray_open",
             offers=(Offer("tray_open", "sup_tray_open", SIGNED_COUNT),), training=False, signer="supervisor",
             reason=None)
    def open(self, count: str | dict[str, int], croupier: Credentials | None,
             supervisor: Credentials | None) -> list[EventBody]:
        """Open the table with the tray counted by denomination; croupier and supervisor sign."""
        return self._record_signed(TrayOpened, self.verify_open(count, croupier, supervisor))

    def verify_fill(self, count: str | dict[str, int] | None = None, croupier: Credentials | None = None,
                    supervisor: Credentials | None = None) -> tuple[dict[str, int], Actor, Actor] | None:
        self._need(open_=True)
        return self._verify_signed(count, croupier, supervisor)

    @command("tray_fill", (When.ANY, Authority.COUNTERSIGNED), "console.md (tray)", "sup_tray_fill",
             offers=(Offer("tray_fill", "sup_tray_fill", SIGNED_COUNT),), training=False, signer="supervisor",
             reason=None)
    def fill(self, count: str | dict[str, int], croupier: Credentials | None,
             supervisor: Credentials | None) -> list[EventBody]:
        """Chips brought to the table ("reposición"), by denomination, two signatures."""
        return self._record_signed(TrayFill, self.verify_fill(count, croupier, supervisor))

    def verify_credit(self, count: str | dict[str, int] | None = None, croupier: Credentials | None = None,
                      supervisor: Credentials | None = None) -> tuple[dict[str, int], Actor, Actor] | None:
        """A credit takes no more than the tray is expected to hold (it would leave it short)."""
        self._need(open_=True)
        if count is not None:
            taken = count_total(tray_count(count))
            ledger = self.ledger()
            assert ledger is not None
            if taken > ledger.expected:
                raise InputError(Msg.of("tray.credit_above_expected", amount=taken, expected=ledger.expected))
        return self._verify_signed(count, croupier, supervisor)

    @command("tray_credit", (When.ANY, Authority.COUNTERSIGNED), "console.md (tray)", "sup_tray_credit",
             offers=(Offer("tray_credit", "sup_tray_credit", SIGNED_COUNT),), training=False, signer="supervisor",
             reason=None)
    def credit(self, count: str | dict[str, int], croupier: Credentials | None,
               supervisor: Credentials | None) -> list[EventBody]:
        """Chips taken from the table ("retiro de fichas"), by denomination, two signatures."""
        return self._record_signed(TrayCredit, self.verify_credit(count, croupier, supervisor))

    def verify_cash_buy_in(self, creds: Credentials | None = None, amount: object = None) -> tuple[Actor, Decimal] | None:
        """Chips given for cash at the table ("cambio"), by the croupier on duty; left out, any."""
        self._need(open_=True)
        if creds is None and amount is None:
            return None
        try:
            value = Decimal(str(amount).strip().replace(",", "."))
        except ArithmeticError:
            value = ZERO
        if not value.is_finite() or value <= 0:
            raise InputError(Msg.of("tray.bad_buy_in", amount=str(amount)[:20]))
        table = self.table
        actor = table.signers.authorize(creds, set(SHIFT_ROLES))
        if not table.training and (table.croupier is None or actor.staff_id != table.croupier.staff_id):
            raise AuthError(Msg.of("tray.buy_in_by_croupier"))
        return actor, value

    @command("cash_buy_in", (When.ANY, Authority.CROUPIER), "console.md (tray)", "sup_cash_buy_in",
             offers=(Offer("cash_buy_in", "sup_cash_buy_in", (Field("amount", "tray_amount", "500"),)),),
             training=False, reason=None)
    def cash_buy_in(self, creds: Credentials | None, amount: object) -> list[EventBody]:
        """Chips given for cash at the table ("cambio"), recorded by the croupier on duty."""
        checked = self.verify_cash_buy_in(creds, amount)
        if checked is None:
            raise AuthError(Msg.of("staff.credentials_required"))
        actor, value = checked
        return self.table.record_events(actor, CashBuyIn(value))

    def verify_close(self, count: str | dict[str, int] | None = None, croupier: Credentials | None = None,
                     supervisor: Credentials | None = None, reason: str = "") -> dict[str, object]:
        """Between rounds; a difference above the table's ``tray_tolerance`` needs the
        supervisor's reason (none is asked within it). Returns what the close journals."""
        self._need(open_=True)
        if self.table.round_open:
            raise InputError(Msg.of("tray.close_between_rounds"))
        if count is None:
            return {}
        ledger = self.ledger()
        assert ledger is not None
        counted = count_total(tray_count(count))
        difference = counted - ledger.expected
        if abs(difference) > self.tolerance and not reason.strip():
            raise InputError(Msg.of("tray.difference_reason", difference=difference, tolerance=self.tolerance))
        return {"counted": counted, "expected": ledger.expected, "difference": difference, "reason": reason.strip()}

    @command("tray_close", (When.BETWEEN_ROUNDS, Authority.COUNTERSIGNED), "console.md (tray)", "sup_tray_close",
             offers=(Offer("tray_close", "sup_tray_close", SIGNED_COUNT),), training=False, signer="supervisor",
             reason_optional=True)
    def close(self, count: str | dict[str, int], croupier: Credentials | None,
              supervisor: Credentials | None, reason: str = "") -> list[EventBody]:
        """Close with the counted tray: expected, counted and their difference are journaled."""
        figures = self.verify_close(count, croupier, supervisor, reason)
        return self._record_signed(TrayClosed, self._verify_signed(count, croupier, supervisor), **figures)

    def fill_due(self) -> Msg | None:
        """On a live table, the open tray expected below the table's ``tray_fill_threshold``:
        what the console shows, asking for a fill (None when it is not)."""
        threshold = getattr(getattr(self.table, "config", None), "tray_fill_threshold", ZERO)
        if self.table.training or not threshold or not self.is_open:
            return None
        ledger = self.ledger()
        assert ledger is not None
        if ledger.expected >= threshold:
            return None
        return Msg.of("tray.fill_needed", expected=ledger.expected, threshold=threshold)

