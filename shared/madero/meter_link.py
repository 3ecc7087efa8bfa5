"""A Madero table's link to its meter store (Art. 11 §50–54, Art. 12 §58): the trips to the
store (a file on this machine or a Carrusel's server), what the table has learnt from them,
and §48's window while the store cannot be reached.

The table validates, journals and folds; what it sends is its own (its head, its outbox,
both read when a trip is built) and what comes back it journals where the regulation wants
a record (a prize's answer, a settlement's reading). The link holds only what a process
learns and forgets when it stops: what the store acknowledged, when it last answered, the
last reading. A ``MeterCall`` runs on any thread (the console runs a server's off its
screen); its ``MeterAnswer`` is taken back here on the table's own."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Protocol

from shared.anchor import Head
from shared.journal import Journal
from shared.madero.config import MaderoTableConfig
from shared.madero.meter import (
    CarruselUnreachable,
    MeterAnswer,
    MeterCall,
    MeterStore,
    MeterUnavailable,
    TableRefused,
    claim_prize,
    terminal_name,
)
from shared.madero.settlement import MeterMovement, MeterReading


class LinkedTable(Protocol):
    """What the link reads of its table, when it builds a trip."""

    config: MaderoTableConfig
    journal: Journal
    training: bool
    outbox: list[dict[str, Any]]
    carrusel_fallback: str | None

    def head(self) -> Head: ...


class MeterLink:
    """The trips of one table to its meter store, and what the process learnt from them."""

    def __init__(self, store: MeterStore, table: LinkedTable) -> None:
        self.store = store
        self._table = table
        self.registered = False
        """The table's meter is registered in the store (at start, or once the server answers)."""
        self._delivered: set[str] = set()
        """Outbox keys the store has acknowledged since this process started."""
        self._unreachable: tuple[float, str] | None = None
        """When the store was last found unreachable, and why (no password)."""
        self._reached = False
        """The store answered since this process started (§48 no longer in force)."""
        self.known: tuple[float, MeterReading] | None = None
        """The last reading the store gave, and when (``time.monotonic()``)."""
        self.start_head_due = False
        """The start's head is still to be written (its trip was left to ``call_due``)."""
        # When the store last took the table's head (the heartbeat's), and since when §48 is in force.
        self._heard_at = float("-inf")
        self._fallback_since: datetime | None = None
        self.refused: TableRefused | None = None
        """The Carrusel's server refused this table (its id is another journal's, or its
        table file names another Carrusel or seed): the console must not go on."""

    # --- the trips ----------------------------------------------------------------------------

    def reading(self, *, retry_s: float, heartbeat_s: float) -> MeterReading | None:
        """The meter now, with what the table owes delivered first; None until the next retry
        of a server that could not be reached, and while it still cannot be."""
        call = self.call_due(retry_s=retry_s, heartbeat_s=heartbeat_s)
        if call is None:
            return None
        answer = call.run()
        self.take(answer)
        if answer.error is not None and not isinstance(answer.error, CarruselUnreachable):
            raise answer.error
        return answer.reading

    def call_due(self, *, retry_s: float, heartbeat_s: float) -> MeterCall | None:
        """The read's trip, its head with it at least every ``heartbeat_s``; None until
        ``retry_s`` after the store was found unreachable."""
        if self._unreachable is not None and time.monotonic() - self._unreachable[0] < retry_s:
            return None
        heartbeat = time.monotonic() - self._heard_at >= heartbeat_s
        return self.call(deliver=not self._table.training, read=True, head=self.start_head_due or heartbeat)

    def call(self, *, deliver: bool, read: bool, head: bool = False) -> MeterCall:
        table = self._table
        config = table.config
        owed = tuple(item for item in table.outbox if item["ref"] not in self._delivered) if deliver else ()
        # A head written after a delivery says §48 is over: the store has just answered.
        return MeterCall(self.store, config.table_id, config.seed, config.carrusel_id,
                         register=deliver and not self.registered, owed=owed,
                         head=self._head(fallback=not owed and self.unavailable is not None),
                         always_head=head, read=read,
                         identity=(table.journal.identity, terminal_name(table.journal.path)))

    def take(self, answer: MeterAnswer) -> None:
        """What a ``MeterCall`` did (on the table's own thread)."""
        if answer.refused is not None:
            self.refused = answer.refused
        self.registered = self.registered or answer.registered
        self._delivered.update(answer.delivered)
        self.start_head_due = self.start_head_due and not answer.head_written
        if answer.head_written:
            self._heard_at = time.monotonic()
        if answer.delivered or answer.head_written or answer.reading is not None:
            self.note_reached()
        if answer.reading is not None:
            self.known = (time.monotonic(), answer.reading)
        if isinstance(answer.error, CarruselUnreachable):
            self.note_unreachable(answer.error)

    def deliver(self, *, head: bool = False) -> None:
        """Send the store what the journal says the table owes and it has not acknowledged
        (each applied once by its ``ref``), then the head if anything was sent (or ``head``).
        Raises MeterUnavailable (CarruselUnreachable for a server that cannot be reached);
        what was not sent stays owed."""
        answer = self.call(deliver=True, read=False, head=head).run()
        self.take(answer)
        if self.refused is not None:
            raise self.refused
        if answer.error is not None:
            raise answer.error

    def register(self) -> None:
        """Create or update the table's meter in the store (its seed and Carrusel), once."""
        if not self.registered:
            config = self._table.config
            self.store.register(config.table_id, config.seed, config.carrusel_id)
            self.registered = True

    def write_head(self) -> None:
        """The journal's head, the last round, the croupier on duty and whether §48 is in force."""
        self.store.write_head(self._table.config.table_id, self._head(fallback=self.unavailable is not None))
        self._heard_at = time.monotonic()

    def _head(self, *, fallback: bool) -> Head:
        return replace(self._table.head(), fallback=fallback, fallback_since=self._fallback_since)

    def round_reading(self, ref: str) -> MeterReading:
        """The reading round ``ref`` settles on: the meter now, unless a store written by an
        earlier version (meter first, journal second) already holds its movement — then the
        reading it was applied with, so the prize is the one the meter paid out."""
        return self.store.settled_reading(ref) or self.store.read(self._table.config.table_id)

    def settle(self, ref: str, record: Callable[[MeterReading], MeterMovement]) -> None:
        """Deliver what is owed, then, with the store held, read the meter, let ``record``
        journal the round on it, apply the movement it returns and write the head: the meter
        only ever holds what the journal says. Raises what the store raised."""
        self.deliver()
        with self.store.hold():
            read = self.round_reading(ref)
            movement = record(read)
            self.store.apply_settlement(self._table.config.table_id, ref, read, movement)
            self.write_head()
        self._delivered.add(ref)
        self.note_reached()

    def claim(self, ref: str, value: Callable[[MeterReading], MeterMovement]) -> MeterReading:
        """Claim round ``ref``'s prize (``shared.madero.meter.claim_prize``), what is owed
        delivered first; an answer lost is asked for again with the same key. Raises
        CarruselUnreachable (noted) when the store still cannot be reached."""
        try:
            self.deliver()
            try:
                reading = claim_prize(self.store, self._table.config.table_id, ref, value)
            except CarruselUnreachable:
                # The commit may have been made and only its answer lost: asked again, same key.
                reading = claim_prize(self.store, self._table.config.table_id, ref, value)
        except CarruselUnreachable as error:
            self.note_unreachable(error)
            raise
        self.note_reached()
        return reading

    def settled_on_claim(self, ref: str) -> None:
        """Round ``ref`` was journaled on its claim's answer: the store already holds its
        movement, so only the head is sent (what is owed goes later)."""
        self._delivered.add(ref)
        try:
            self.write_head()
        except CarruselUnreachable as error:
            self.note_unreachable(error)
        except MeterUnavailable:
            pass  # the head goes with the next delivery

    def change_carrusel(self, keep: str, staff_id: str, reason: str) -> dict[str, Any]:
        """Move the table's meter on the server to the Carrusel its table file names (once by
        the journal's head); what the server did, to journal."""
        table = self._table
        table_id = table.config.table_id
        self.store.claim_identity(table_id, table.journal.identity, terminal_name(table.journal.path))
        done = self.store.change_carrusel(table_id, table.config.carrusel_id, table.config.seed, keep, staff_id,
                                          reason, key=f"{table_id}:change:{table.journal.last_hash[:16]}")
        self.registered = True
        return done

    def shift_closed(self) -> None:
        """A Carrusel table's head is its server's: the next trip writes the shift's close."""
        if self.store.remote:
            self._heard_at = float("-inf")

    # --- what the trips taught ----------------------------------------------------------------

    @property
    def unavailable(self) -> str | None:
        """Why the progressive cannot be used now (§48): the store was unreachable at the
        last try, or (until it answers) the table's last round was settled on the fixed
        paytable."""
        if self._unreachable is not None:
            return self._unreachable[1]
        return None if self._reached else self._table.carrusel_fallback

    def note_unreachable(self, error: CarruselUnreachable) -> None:
        self._unreachable = (time.monotonic(), error.reason)
        self._fallback_since = self._fallback_since or datetime.now(UTC)

    def note_reached(self) -> None:
        self._unreachable = None
        self._reached = True
        self._fallback_since = None

