"""The table's calls to its meter store (Art. 11 §47–§54, Art. 12 §58, issue 27): the meter's
readings, the prize's claim, the settlement journaled on the store's answer or on §48's fixed
paytable, and the change of Carrusel.

The desk holds the link to the store (``MeterLink``: the store's handle and what it answered
this process, None on a fixed table): the server's, not the game's. What the journal says the
table owes it (the outbox, the last §48 reason) is the table's, folded."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

from shared.actor import Actor
from shared.desk import Desk
from shared.errors import InputError, RuleViolation
from shared.journal import APP_NAME
from shared.madero.config import MaderoTableConfig
from shared.madero.meter import (
    CarruselUnreachable,
    MeterAnswer,
    MeterCall,
    MeterStore,
    MeterUnavailable,
    SqliteMeterStore,
    TableRefused,
    check_own_meter,
    movement_from_dict,
    reading_from_dict,
    reading_to_dict,
)
from shared.madero.meter_link import MeterLink
from shared.madero.paytables import JackpotPay, jackpot_paytable
from shared.madero.settlement import MeterMovement, MeterReading, RoundSettlement, jackpot_contribution
from shared.madero.table.events import CarruselChanged, MaderoEvent, PrizeAnswered, PrizeClaimed, RoundSettled
from shared.madero.table.state import Phase, box_inputs
from shared.messages import Msg
from shared.staff import Credentials

if TYPE_CHECKING:
    from shared.madero.table import MaderoTable

RETRY_S = 5.0
"""While the Carrusel's server cannot be reached, the header tries it again this often (a try
waits up to the connection timeout)."""
HEARTBEAT_S = 10.0
"""A running console writes its head at least this often (the header's reads carry it): the
pit shows when each table was last heard from, and a table silent for longer than its
online window has been settling on §48 since then (issue 27 §6)."""


def default_meter_path() -> Path:
    """The machine's shared meter store: every Madero table process on it opens this file."""
    return Path(platformdirs.user_data_dir(APP_NAME)) / "madero-meters.sqlite"


def meter_store_for(config: MaderoTableConfig, training: bool, given: MeterStore | None) -> MeterStore | None:
    """The store a table's meter is kept in: none on a fixed table, its own in memory in
    training, else ``given`` or the machine's file."""
    if not config.progressive:
        return None
    if training:
        if given is not None:
            raise ValueError("training uses its own meter store, never a live one")
        return SqliteMeterStore(":memory:")
    return given or SqliteMeterStore(default_meter_path())


class MaderoCarrusel(Desk["MaderoTable"]):
    """The table's meter store: readings, the prize's claim, the settlement on the store."""

    def __init__(self, table: MaderoTable) -> None:
        super().__init__(table)
        self.link: MeterLink | None = None
        """The trips to the meter store (None on a fixed table)."""

    def connect(self, store: MeterStore | None, *, reach_server_now: bool) -> None:
        """Link the table, folded, to ``store``. ``reach_server_now=False`` leaves a Carrusel
        server's first trip (owed movements, the head) to the first ``call_due()``, which the
        console runs off its screen's thread."""
        if store is None:
            return
        link = self.link = MeterLink(store, self.table)
        if self.table.training:
            link.register()
        elif link.store.remote and not reach_server_now:
            # A silent server would hold the console's start for the connection's timeout.
            link.start_head_due = True
        else:
            # A stop between the journal entry and the meter, or rounds settled on §48, leave
            # movements owed: delivered now if the store can be reached, else later.
            try:
                link.deliver(head=True)
            except CarruselUnreachable as error:
                link.note_unreachable(error)
            else:
                reading = self.reading()  # the header's first figure, before a screen waits on it
                if not self.table.config.carrusel_id:
                    check_own_meter(reading, self.journaled_meter())

    @property
    def store(self) -> MeterStore | None:
        return None if self.link is None else self.link.store

    @property
    def refused(self) -> TableRefused | None:
        """The Carrusel's server refused this table (its id is another journal's, or its
        table file names another Carrusel or seed): the console must not go on."""
        return None if self.link is None else self.link.refused

    def reading(self) -> MeterReading | None:
        """The progressive meter now (the royal prize to display is ``linked_total``), with
        what the table owes delivered first. None on a fixed table, and while the Carrusel's
        server cannot be reached (tried again every ``RETRY_S``; the header then shows §48)."""
        if self.link is None:
            return None
        return self.link.reading(retry_s=RETRY_S, heartbeat_s=HEARTBEAT_S)

    def call_due(self) -> MeterCall | None:
        """The store trip ``reading`` makes, to run on any thread (its answer goes to
        ``take_answer``); None on a fixed table and until the next retry of a server that
        could not be reached."""
        if self.link is None:
            return None
        return self.link.call_due(retry_s=RETRY_S, heartbeat_s=HEARTBEAT_S)

    def take_answer(self, answer: MeterAnswer) -> None:
        """What a ``MeterCall`` did, into the table's link (on the table's own thread)."""
        assert self.link is not None
        self.link.take(answer)

    def known_reading(self) -> tuple[MeterReading, float] | None:
        """The last reading the store gave and its ``time.monotonic()``, without asking it."""
        known = None if self.link is None else self.link.known
        return None if known is None else (known[1], known[0])

    @property
    def unavailable(self) -> str | None:
        """Why the progressive cannot be used now (§48), if it cannot: the Carrusel's server
        was unreachable at the last try, or (until it answers) the last round was settled on
        the fixed paytable."""
        return self.table.carrusel_fallback if self.link is None else self.link.unavailable

    @property
    def jackpot_paytable_in_force(self) -> tuple[JackpotPay, ...]:
        """The Jackpot lines the next settlement pays: the fixed ones of §48 while the
        progressive cannot be used (§47: the paytable shown is the one in force)."""
        return jackpot_paytable(False) if self.unavailable else self.table.config.jackpot_paytable

    @property
    def prize_claim_due(self) -> bool:
        """The round, at its settlement, pays a meter prize (a royal, a straight flush: §52–§53,
        whatever the meter holds) the store has not answered yet: nothing of it may be shown
        before ``claim_prize`` (issue 27 §1)."""
        table = self.table
        if self.store is None or table.r is None or table.r.phase is not Phase.SETTLEMENT \
                or table.r.prize_answer is not None:
            return False
        seed = table.config.seed
        movement = table.settlement(MeterReading(seed, seed, seed)).meter
        return movement is not None and (movement.royal_hit or movement.straight_flush_paid > 0)

    def pending_settlement(self) -> RoundSettlement:
        """What the settlement will be (phase SETTLEMENT), with the meter as it reads now (a
        server's as it read last); on the fixed paytable of §48 while the Carrusel's server
        cannot be reached. A meter prize only on its claim's answer (``claim_prize`` first)."""
        table = self.table
        if table.phase is not Phase.SETTLEMENT:
            raise RuleViolation("Art. 9 §33", Msg.of("madero.not_at_settlement"))
        assert table.r is not None
        if table.r.prize_answer is not None:
            # A meter prize is shown only as the store valued it (or on §48): issue 27 §1.
            meter = table.r.prize_answer.get("meter")
            return table.settlement(reading_from_dict(meter)) if meter else table.fixed_settlement()
        if self.prize_claim_due:
            raise RuleViolation("Art. 11 §52–§53", Msg.of("carrusel.claim_prize_first"))
        link = self.link
        if link is None:
            return table.settlement(None)
        if link.store.remote:
            # The screens ask at every key and must not wait on the network: a server's meter
            # as last read. The settlement itself reads it again (confirm_settlement).
            if self.unavailable is not None or link.known is None:
                return table.fixed_settlement()
            return table.settlement(link.known[1])
        try:
            return table.settlement(link.round_reading(self._ref()))
        except CarruselUnreachable as error:
            link.note_unreachable(error)
            return table.fixed_settlement()

    def journaled_meter(self) -> Decimal:
        """What the journal says the table's own meter holds once the outbox is delivered:
        the last online round's meter after it, with every §48 round's contribution since
        (the seed before any round)."""
        value = self.table.config.seed
        for item in self.table.outbox:
            value = movement_from_dict(item["movement"]).own_after if "movement" in item \
                else value + Decimal(item["contribution"])
        return value

    def shift_closed(self) -> None:
        if self.link is not None:
            self.link.shift_closed()

    def _ref(self) -> str:
        """The round's key in the meter store (applying its settlement is idempotent)."""
        table = self.table
        assert table.round_start is not None
        return f"{table.config.table_id}:{table.round_no}:{table.round_start['hash'][:16]}"

    # --- the settlement on the store (§33–36, §48, §52–§54) -------------------------------------

    def settle(self, actor: Actor) -> list[MaderoEvent]:
        """Journal the round's settlement as ``confirm_settlement`` describes: on a progressive
        table, what is owed delivered first, then the settlement journaled on the meter's
        reading and its movement applied with the store held (or on the prize's answer, or on
        §48's fixed paytable). Returns what it journaled (a claim asked now, then the round's
        settlement); the settlement is the table's ``last_settlement``."""
        table = self.table
        link = self.link
        if link is None:
            return self._record_settlement(None, actor)
        events = self.claim_prize() if self.prize_claim_due else []
        assert table.r is not None
        if table.r.prize_answer is not None:
            return events + self._settle_on_answer(actor, table.r.prize_answer)
        ref = self._ref()

        def record(read: MeterReading) -> MeterMovement:
            events.extend(self._record_settlement(read, actor, ref))
            assert table.last_settlement is not None and table.last_settlement.meter is not None
            return table.last_settlement.meter

        journaled = len(events)
        try:
            link.settle(ref, record)
        except CarruselUnreachable as error:
            link.note_unreachable(error)
            if len(events) == journaled:
                events += self._settle_on_fallback(actor, error.reason)
        except MeterUnavailable:
            if len(events) == journaled:
                raise
        return events

    def _settle_on_answer(self, actor: Actor, answer: dict[str, Any]) -> list[MaderoEvent]:
        """The round settled on its claim's journaled answer: the store already holds the
        prize's movement, so only the journal's head is sent (what is owed goes later)."""
        if "fallback" in answer:
            return self._settle_on_fallback(actor, answer["fallback"])
        ref = self._ref()
        events = self._record_settlement(reading_from_dict(answer["meter"]), actor, ref)
        assert self.link is not None
        self.link.settled_on_claim(ref)
        return events

    def verify_claim_prize(self) -> None:
        self.table.play.verify_confirm_settlement()
        if not self.prize_claim_due:
            raise RuleViolation("Art. 11 §52", Msg.of("carrusel.no_prize_to_claim"))

    def claim_prize(self) -> list[MaderoEvent]:
        """Claim the round's meter prize from the store before its amount is shown (issue 27;
        ``shared.madero.meter.claim_prize``): the claim's intent is journaled, the store values
        and debits the prize in one transaction keyed by the round, and its answer is journaled
        (``PrizeAnswered``). An answer lost is asked for again with the same key; a store still
        unreachable is answered by §48's fixed paytable (the store gives back a claim it
        committed when that round's contribution is delivered). A store that refused (a busy
        file, a server's error) answers nothing: the claim is asked again at the next Enter."""
        self.verify_claim_prize()
        table = self.table
        actor = table.signers.croupier()
        assert table.r is not None and self.link is not None
        ref = self._ref()
        events: list[MaderoEvent] = []
        if not table.r.prize_claimed:
            events += table.record_events(actor, PrizeClaimed(ref))

        def value(reading: MeterReading) -> MeterMovement:
            movement = table.settlement(reading).meter
            assert movement is not None
            return movement

        try:
            reading = self.link.claim(ref, value)
        except CarruselUnreachable as error:
            return events + table.record_events(actor, PrizeAnswered(ref, fallback=error.reason))
        return events + table.record_events(actor, PrizeAnswered(ref, meter=reading_to_dict(reading)))

    def _record_settlement(self, reading: MeterReading | None, actor: Actor,
                           ref: str | None = None) -> list[MaderoEvent]:
        settlement = self.table.settlement(reading)
        # The full settlement is journaled for recall and audit; replay recomputes it
        # from the round's cards and bets and the meter reading.
        meter = reading_to_dict(reading) if reading else None
        return self.table.record_events(actor, RoundSettled(meter, settlement.record(), ref))

    def _settle_on_fallback(self, actor: Actor, reason: str) -> list[MaderoEvent]:
        """§48: the progressive cannot be used, so the round is settled on the fixed paytable;
        its share of the Jackpot bets (§51) is journaled as owed and delivered later."""
        table = self.table
        settlement = table.fixed_settlement()
        owed = jackpot_contribution(box_inputs(table.r), table.config)
        return table.record_events(actor, RoundSettled(None, settlement.record(), self._ref(),
                                                       {"reason": reason, "contribution": str(owed)}))

    # --- the table's Carrusel (Art. 12 §58, issue 27 §4) ---------------------------------------

    def verify_change(self, creds: Credentials | None = None, keep: str = "carried",
                      reason: str | None = None) -> Actor | None:
        """Between rounds, on a Carrusel's server, with ``keep`` one of ``carried``/``left``."""
        if self.table.round_open:
            raise RuleViolation("Art. 12 §58", Msg.of("carrusel.change_between_rounds"))
        if keep not in ("carried", "left"):
            raise InputError(Msg.of("carrusel.keep_not_an_option", keep=keep))
        if self.store is None or not self.store.remote:
            raise InputError(Msg.of("carrusel.change_needs_server"))
        return None if reason is None else self.table.signers.supervisor(creds, reason)

    def change(self, creds: Credentials | None, keep: str, reason: str) -> list[MaderoEvent]:
        """Move the table's meter on the server to the Carrusel and seed its table file names,
        its value ``keep``: ``carried`` with it or ``left`` to the Carrusel it leaves; recorded
        on the server (once by this journal's head), then journaled here."""
        signed = self.verify_change(creds, keep, reason)
        actor = signed if signed is not None else self.table.signers.supervisor(creds, reason)
        assert self.link is not None
        done = self.link.change_carrusel(keep, actor.staff_id, reason.strip())
        return self.table.record_events(actor, CarruselChanged(**done, reason=reason.strip()))
