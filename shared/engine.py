"""The event-sourced table engine base: state is the fold of the table's journal.

A game engine subclasses ``TableEngine`` and implements ``initial_state``, ``apply``,
``snapshot_state``, ``restore_state``, ``round_id`` and ``round_open``. Its commands verify,
then ``record()`` — append to the journal, then ``apply()`` the very event that was written —
so the live state and a replayed state are made by the same code. Starting an engine restores
the latest snapshot and folds the events after it, so start-up time does not grow with history.

A snapshot is the game's state and the base's (``BaseSnapshot``, under ``BASE_KEY``), each a
dataclass written by ``shared.codec``, the codec of the events. An older snapshot is read
through the game's ``snapshot_upgrades``, one step a version; one with no way up is ignored
and the journal folded from its start.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, ClassVar, TypeVar

from shared.base_events import (
    BASE_CODEC,
    STAFF_CODEC,
    TABLE_CONFIG,
    CashBuyIn,
    ClosesRound,
    ShiftClosed,
    ShiftOpened,
    TrayClosed,
    TrayCount,
    TrayCredit,
    TrayFill,
    TrayOpened,
)
from shared.codec import ATTR, capture, decode, encode, restore
from shared.errors import AuthError, ConsoleError, InputError, JournalWriteError
from shared.events import (
    ConsoleClosed,
    ClockCorrected,
    ConsoleStarted,
    EventBody,
    EventCodec,
    GamingDayClosed,
    JournalArchived,
    JournalUpgraded,
    gaming_day_of,
)
from shared.journal import GENESIS_HASH, Event, Journal, JournalError, canonical_json
from shared.messages import DEFAULT_LANG, Msg
from shared.money import ZERO
from shared.actor import Actor, Role
from shared.staff import Credentials, StaffRegistry
from shared.text import REASON
from shared.report import report_events
from shared.tray import TRAY_EVENTS, TrayLedger, count_total, parse_count, tray_ledgers

# Events the base folds itself; a subclass's apply() never sees them.
GAMING_DAY_CLOSED = GamingDayClosed.type
JOURNAL_ARCHIVED = JournalArchived.type
BASE_EVENTS = frozenset({TABLE_CONFIG, GAMING_DAY_CLOSED, JOURNAL_ARCHIVED, JournalUpgraded.type, ConsoleStarted.type,
                         ConsoleClosed.type, ClockCorrected.type}) | STAFF_CODEC.types | BASE_CODEC.types
# Key under which the base keeps its own state inside every snapshot.
BASE_KEY = "_table"
SHIFT_ROLES = frozenset({Role.CROUPIER, Role.SUPERVISOR})
B = TypeVar("B", bound=EventBody)


def can(verify: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
    """``can_x`` is ``verify_x`` not raising: one path decides what is allowed."""
    try:
        verify(*args, **kwargs)
    except ConsoleError:
        return False
    return True


@dataclass(frozen=True)
class Prompt:
    """What the croupier does or announces now, in the regulation's words.

    A game adds what its screens need (the box to act, the card called for, the phase's
    announcements); the words are always a catalog message."""

    msg: Msg
    article: str = ""
    box: int | None = None
    """The box whose turn it is, if any."""
    card_for: str | None = None
    """What a card is called for now ("burn", "punto", "banca", a box …), if any."""
    announcements: tuple[Msg, ...] = ()

    def text(self, lang: str = DEFAULT_LANG) -> str:
        return self.msg.render(lang)


@dataclass(frozen=True)
class EntryUndone(EventBody):
    """The croupier took back the open round's entry ``seq`` (of type ``undone``): an entry
    too, so history is never edited. Journaled as ``{"seq": …, "type": …}``."""

    type: ClassVar[str] = "entry_undone"
    seq: int
    undone: str

    def to_payload(self) -> dict[str, Any]:
        return {"seq": self.seq, "type": self.undone}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> EntryUndone:
        return cls(payload["seq"], payload["type"])


@dataclass(frozen=True)
class LoggedEntry:
    """One entry of the open round's log: its journal seq and its event."""

    seq: int
    body: EventBody


@dataclass(frozen=True)
class LoggedRow:
    """An entry of the open round's log as a snapshot keeps it: its journal row."""

    seq: int
    type: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class BaseSnapshot:
    """The base's part of every snapshot: the game's snapshot version, who is on duty, the
    open tray and the open round's log."""

    version: int
    croupier: Actor | None = field(metadata={ATTR: "_croupier"})
    tray_opened_at: int | None = field(metadata={ATTR: "_tray_opened_at"})
    round_log: list[LoggedRow]


Snapshot = dict[str, Any]
SnapshotUpgrade = Callable[[Any, Snapshot], Snapshot]


def round_log_into_base(data: Snapshot) -> Snapshot:
    """The step of every game's first typed snapshot: the open round's log, kept beside the
    game's state until then, moves into the base's part."""
    data[BASE_KEY]["round_log"] = data.pop("round_log")
    return data


class TableEngine(ABC):
    game: ClassVar[str]
    # Bump when snapshot_state()'s shape changes, with a step in snapshot_upgrades from the
    # older version (a snapshot that cannot be brought up is ignored and the journal replayed).
    snapshot_version: ClassVar[int] = 1
    snapshot_upgrades: ClassVar[dict[int, SnapshotUpgrade]] = {}
    """Version n → the step that reads a snapshot of version n as one of version n + 1."""
    # Undo is event-sourced: the game keeps its open round's entries in ``round_log`` (see
    # ``log_round_entry``), names which of them the croupier may take back, and refolds the
    # round from its start and the log (``refold_round``) when one is undone.
    codec: ClassVar[EventCodec] = EventCodec()
    undoable: ClassVar[frozenset[type[EventBody]]] = frozenset()

    def __init__(self, journal: Journal, staff: StaffRegistry | None = None, *, training: bool = False) -> None:
        if journal.game != self.game:
            raise JournalError(Msg.of("journal.wrong_game", game=journal.game, expected=self.game))
        if journal.training != training:
            # Training must never write into a live table's journal (nor the reverse).
            journal.mark_training(training)
        self.journal = journal
        self.staff = staff
        self.training = training
        self._croupier: Actor | None = None
        self._tray_opened_at: int | None = None  # the seq of the open tray's tray_opened entry
        self._applied_seq = 0
        self.round_log: list[LoggedEntry] = []
        """The open round's own entries, in order (empty between rounds)."""
        self.initial_state()
        prev_hash = GENESIS_HASH
        snapshot = journal.latest_snapshot()
        if snapshot is not None and self._restore_snapshot(snapshot[1]):
            self._applied_seq = snapshot[0]
            snap_event = journal.event(self._applied_seq)
            assert snap_event is not None  # latest_snapshot() joins on the event's hash
            prev_hash = snap_event.hash
        for event in journal.events(after=self._applied_seq):
            # Cheap check of what we fold (the tail only): a damaged journal must not become a table state.
            if event.seq != self._applied_seq + 1 or event.prev_hash != prev_hash or not journal.hash_ok(event):
                raise JournalError(Msg.of("journal.damaged_at", seq=self._applied_seq + 1))
            self._fold(event)
            prev_hash = event.hash
        self.recovered: bool = self.round_open

    # --- implemented by each game ---------------------------------------------------------

    @abstractmethod
    def initial_state(self) -> None:
        """Set the state of a table with an empty journal."""

    @abstractmethod
    def apply(self, event: Event) -> None:
        """The only place state changes, live and on replay. Must not fail for an event that
        its command verified (the event is already durable when apply runs)."""

    @abstractmethod
    def snapshot_state(self) -> Snapshot:
        """JSON-serialisable; equal states give equal dicts. Must not use the key ``_table``."""

    @abstractmethod
    def restore_state(self, data: Snapshot) -> None:
        """Set the state from ``snapshot_state()``'s output (after a JSON round trip)."""

    @property
    @abstractmethod
    def round_id(self) -> int:
        """The round the next recorded event belongs to (see ``round_id_for``)."""

    @property
    @abstractmethod
    def round_open(self) -> bool: ...

    def round_id_for(self, type: str, payload: dict[str, Any]) -> int:
        """The round an event about to be recorded is filed under. Override when the event that
        opens a round must carry the new round's number before apply() increments it."""
        return self.round_id

    # --- provided by the base ----------------------------------------------------------------

    @property
    def croupier(self) -> Actor | None:
        """The croupier (or supervisor) on duty since the last ``shift_opened``."""
        return self._croupier

    @property
    def applied_seq(self) -> int:
        """The seq of the last journal event folded into this state."""
        return self._applied_seq

    def record(self, body: EventBody, actor: Actor | None = None) -> Event:
        """Append one event durably, then apply it; snapshot when it closes a round."""
        return self.record_many([body], actor)[0]

    def record_events(self, actor: Actor, *bodies: B) -> list[B]:
        """Record ``bodies`` in one transaction as ``actor``'s and return them: what a game's
        command did (the ``RoundClosed`` the base adds after a closing event is not among them)."""
        self.record_many(bodies, actor)
        return list(bodies)

    def record_many(self, bodies: Iterable[EventBody], actor: Actor | None) -> list[Event]:
        """Append several events in one transaction (all or none), then apply them in order."""
        self._catch_up()
        items = [EventCodec.encode(body) for body in self._with_round_closed(bodies, actor)]
        if not items:
            return []
        first_type, first_payload = items[0]
        if first_type in BASE_EVENTS:
            round_id = self.round_id if self.round_open else 0
        else:
            round_id = self.round_id_for(first_type, first_payload)
        events = self.journal.append_many(items, round_id=round_id, actor=actor)
        closed = False
        for event in events:
            was_open = self.round_open
            self._fold(event)
            # A gaming day's close is where an archive may end: the live file goes on from its snapshot.
            closed = closed or (was_open and not self.round_open) or event.type == GAMING_DAY_CLOSED
        if closed:
            try:
                self.journal.save_snapshot(self._applied_seq, self.state_dict())
            except JournalWriteError:
                pass  # the round is recorded; a snapshot only shortens the next start's replay
        return events

    def _with_round_closed(self, bodies: Iterable[EventBody], actor: Actor | None) -> list[EventBody]:
        """``bodies`` with a ``RoundClosed`` after the event that closes the round, so the
        round's figures go into the journal in the same transaction (read by the report, the
        tray and recall without knowing the game)."""
        out: list[EventBody] = []
        for item in bodies:
            out.append(item)
            if isinstance(item, ClosesRound):
                on_duty = self._croupier or actor
                out.append(item.round_closed(self.game, self.round_id, None if on_duty is None else on_duty.staff_id))
        return out

    def _actor(self) -> Actor:
        """Who a croupier command is journaled as: the croupier on duty (a live table needs
        one; the shift is opened with ``open_shift``), or the trainee at a training table."""
        if self.training:
            return self.croupier or Actor("trainee", Role.TRAINEE)
        if self.croupier is None:
            raise AuthError(Msg.of("staff.no_croupier"))
        return self.croupier

    def _supervisor(self, creds: Credentials | None, reason: str) -> Actor:
        """A supervisor's action: their own credentials and a reason on record."""
        if not isinstance(reason, str) or not reason.strip():
            raise InputError(Msg.of("staff.supervisor_reason"))
        REASON.check(reason.strip())
        return self.authorize(creds, Role.SUPERVISOR)

    def authorize(self, creds: Credentials | None, require: Role | set[Role]) -> Actor:
        """The verified Actor for ``creds`` holding one of the ``require``d roles, or AuthError.

        A training engine has no staff: anyone acts, journaled as the trainee.
        """
        if self.training:
            return Actor(creds.staff_id if creds is not None and creds.staff_id else "trainee", Role.TRAINEE)
        if creds is None:
            raise AuthError(Msg.of("staff.credentials_required"))
        if self.staff is None:
            raise AuthError(Msg.of("staff.no_registry"))
        return self.staff.verify(creds, require=require)

    def verify_open_shift(self, creds: Credentials | None) -> Actor:
        """A croupier or supervisor may take the table; a relief only between rounds (checked
        before the PIN, so a refused relief costs no attempt)."""
        self.verify_relief_allowed()
        return self.authorize(creds, set(SHIFT_ROLES))

    def verify_relief_allowed(self) -> None:
        """Another croupier takes the table only between rounds, never mid-round."""
        if self._croupier is not None and self.round_open and not self.training:
            raise InputError(Msg.of("staff.relief_between_rounds", round=self.round_id))

    def open_shift(self, creds: Credentials | None) -> Actor:
        """Sign the croupier (or a supervisor) in as the one on duty; journals ``shift_opened``.
        With someone already on duty this is the relief: ``previous`` names the outgoing one."""
        actor = self.verify_open_shift(creds)
        previous = self._croupier.staff_id if self._croupier is not None else None
        self.record(ShiftOpened(actor.staff_id, actor.role.value, previous), actor)
        return actor

    def verify_confirm_on_duty(self, creds: Credentials | None) -> Actor:
        """The croupier on duty proves it is still them (the console asks once after a relaunch)."""
        if self._croupier is None:
            raise AuthError(Msg.of("staff.no_croupier"))
        if creds is None or creds.staff_id != self._croupier.staff_id:
            raise AuthError(Msg.of("staff.other_on_duty", staff_id=self._croupier.staff_id))
        return self.authorize(creds, set(SHIFT_ROLES))

    def can_close_shift(self) -> bool:
        return self._croupier is not None and not self.round_open

    def verify_close_shift(self, creds: Credentials | None) -> Actor:
        """A supervisor ends the shift, between rounds (the tray and report then add up)."""
        if self._croupier is None:
            raise AuthError(Msg.of("staff.no_shift"))
        if self.round_open:
            raise InputError(Msg.of("staff.close_between_rounds", round=self.round_id))
        return self.authorize(creds, Role.SUPERVISOR)

    def close_shift(self, creds: Credentials | None, reason: str = "") -> Actor:
        actor = self.verify_close_shift(creds)
        assert self._croupier is not None
        self.record(ShiftClosed(self._croupier.staff_id, reason.strip() or None), actor)
        return actor

    # --- the console's sessions ------------------------------------------------------------------

    def console_started(self) -> ConsoleStarted:
        """Journal a live console's launch, saying how the session before it ended: a restart
        after a crash leaves its trace (issue 29 §7), in the open round's recall too."""
        started = self.journal.last_event_of(ConsoleStarted.type)
        closed = self.journal.last_event_of(ConsoleClosed.type)
        previous = "none" if started is None else \
            "closed" if closed is not None and closed.seq > started.seq else "interrupted"
        body = ConsoleStarted(previous)
        self.record(body)
        return body

    def console_closed(self) -> None:
        self.record(ConsoleClosed())

    # --- the gaming day --------------------------------------------------------------------------

    def _day_first_entry(self) -> Event | None:
        """The open gaming day's first entry: the first after the last close (archive records
        aside), or None when nothing happened since."""
        closed = self.journal.last_event_of(GAMING_DAY_CLOSED)
        event = self.journal.event(closed.seq + 1 if closed else 1)
        while event is not None and event.type == JOURNAL_ARCHIVED:
            event = self.journal.event(event.seq + 1)
        return event

    def gaming_day(self) -> str:
        """The open gaming day: the local date of its first entry (today if it has none)."""
        first = self._day_first_entry()
        return gaming_day_of(first.ts if first else datetime.now(UTC).isoformat())

    def can_close_gaming_day(self) -> bool:
        return not self.round_open and self._day_first_entry() is not None

    def verify_close_gaming_day(self, creds: Credentials | None) -> Actor:
        """A supervisor closes the gaming day, between rounds; its entries may then be archived."""
        if self.round_open:
            raise InputError(Msg.of("archive.close_between_rounds", round=self.round_id))
        return self.authorize(creds, Role.SUPERVISOR)

    def close_gaming_day(self, creds: Credentials | None, reason: str = "") -> GamingDayClosed:
        actor = self.verify_close_gaming_day(creds)
        body = GamingDayClosed(self.gaming_day(), reason.strip())
        self.record(body, actor)
        return body

    # --- the open round's log and undo --------------------------------------------------------

    def log_round_entry(self, seq: int, body: EventBody) -> None:
        """Keep an entry of the open round, to refold the round without it after an undo."""
        self.round_log.append(LoggedEntry(seq, body))

    def refold_round(self) -> None:
        """Rebuild the open round's state from its start and ``round_log`` (a game that keeps a
        round log implements it)."""
        raise NotImplementedError

    def fold_undo(self, body: EntryUndone) -> None:
        """The fold of ``entry_undone``: the round as if the entry had never been made."""
        self.round_log = [e for e in self.round_log if e.seq != body.seq]
        self.refold_round()

    def is_undoable(self, body: EventBody) -> bool:
        """Whether the croupier may take back this entry of the open round (the game's list)."""
        return type(body) in self.undoable

    def undo_target(self) -> LoggedEntry:
        """The entry ``undo()`` takes back: the open round's last, if it is undoable. A game
        whose later bookkeeping entries (e.g. a signal) do not block the undo overrides this."""
        if not self.round_open or not self.round_log:
            raise InputError(Msg.of("engine.nothing_to_undo"))
        last = self.round_log[-1]
        if not self.is_undoable(last.body):
            raise InputError(Msg.of("engine.not_undoable"))
        return last

    def verify_undo(self) -> LoggedEntry:
        """The entry to take back; the croupier on duty does it."""
        self._actor()
        return self.undo_target()

    def can_undo(self) -> bool:
        return can(self.verify_undo)

    def undo(self) -> list[EventBody]:
        """Withdraw the last undoable entry of the open round (a new entry; history stays)."""
        last = self.verify_undo()
        body = EntryUndone(last.seq, last.body.type)
        self.record(body, self._actor())
        return [body]

    # --- the chip tray (shared.tray defines the flows) ---------------------------------------

    @property
    def tray_open(self) -> bool:
        return self._tray_opened_at is not None

    @property
    def tray_tolerance(self) -> Decimal:
        # Each game's engine carries its table config; a table without one tolerates nothing.
        config = getattr(self, "config", None)
        return getattr(config, "tray_tolerance", ZERO)

    def tray_ledger(self) -> TrayLedger | None:
        """The open tray's flows so far (None when no tray is open)."""
        if self._tray_opened_at is None:
            return None
        with self.journal.read_view() as view:
            readings = report_events(view, self.codec, self.game, after=self._tray_opened_at - 1, also=TRAY_EVENTS)
            return tray_ledgers(readings)[0]

    def _two_signatures(self, croupier: Credentials | None, supervisor: Credentials | None) -> tuple[Actor, Actor]:
        """A croupier (or supervisor) and a supervisor, two different people, each with their PIN."""
        if croupier is not None and supervisor is not None and croupier.staff_id == supervisor.staff_id:
            raise AuthError(Msg.of("tray.two_signatures"))
        return self.authorize(croupier, set(SHIFT_ROLES)), self.authorize(supervisor, Role.SUPERVISOR)

    def _tray_count(self, count: str | dict[str, int]) -> dict[str, int]:
        parsed = parse_count(count) if isinstance(count, str) else dict(count)
        if not parsed or any(chips < 0 for chips in parsed.values()):
            raise InputError(Msg.of("tray.invalid_count"))
        return parsed

    def _need_tray(self, open_: bool) -> None:
        if open_ and self._tray_opened_at is None:
            raise InputError(Msg.of("tray.not_open"))
        if not open_ and self._tray_opened_at is not None:
            raise InputError(Msg.of("tray.already_open"))

    def _signed(self, kind: type[TrayCount], count: str | dict[str, int], croupier: Credentials | None,
                supervisor: Credentials | None, **extra: object) -> Event:
        parsed = self._tray_count(count)
        signer, boss = self._two_signatures(croupier, supervisor)
        return self.record(kind(parsed, count_total(parsed), signer.staff_id, boss.staff_id, **extra), boss)

    def open_tray(self, count: str | dict[str, int], croupier: Credentials | None,
                  supervisor: Credentials | None) -> Event:
        """Open the table with the tray counted by denomination; croupier and supervisor sign."""
        self._need_tray(open_=False)
        return self._signed(TrayOpened, count, croupier, supervisor)

    def tray_fill(self, count: str | dict[str, int], croupier: Credentials | None,
                  supervisor: Credentials | None) -> Event:
        """Chips brought to the table ("reposición"), by denomination, two signatures."""
        self._need_tray(open_=True)
        return self._signed(TrayFill, count, croupier, supervisor)

    def tray_credit(self, count: str | dict[str, int], croupier: Credentials | None,
                    supervisor: Credentials | None) -> Event:
        """Chips taken from the table ("retiro de fichas"), by denomination, two signatures."""
        self._need_tray(open_=True)
        return self._signed(TrayCredit, count, croupier, supervisor)

    def cash_buy_in(self, creds: Credentials | None, amount: object) -> Event:
        """Chips given for cash at the table ("cambio"), recorded by the croupier on duty."""
        self._need_tray(open_=True)
        try:
            value = Decimal(str(amount).strip().replace(",", "."))
        except ArithmeticError:
            value = ZERO
        if not value.is_finite() or value <= 0:
            raise InputError(Msg.of("tray.bad_buy_in", amount=str(amount)[:20]))
        actor = self.authorize(creds, set(SHIFT_ROLES))
        if not self.training and (self._croupier is None or actor.staff_id != self._croupier.staff_id):
            raise AuthError(Msg.of("tray.buy_in_by_croupier"))
        return self.record(CashBuyIn(value), actor)

    def close_tray(self, count: str | dict[str, int], croupier: Credentials | None,
                   supervisor: Credentials | None, reason: str = "") -> Event:
        """Close with the counted tray: expected, counted and their difference are journaled; a
        difference above the table's ``tray_tolerance`` needs the supervisor's reason."""
        self._need_tray(open_=True)
        if self.round_open:
            raise InputError(Msg.of("tray.close_between_rounds"))
        parsed = self._tray_count(count)
        ledger = self.tray_ledger()
        assert ledger is not None
        counted = count_total(parsed)
        difference = counted - ledger.expected
        if abs(difference) > self.tray_tolerance and not reason.strip():
            raise InputError(Msg.of("tray.difference_reason", difference=difference, tolerance=self.tray_tolerance))
        return self._signed(TrayClosed, parsed, croupier, supervisor, counted=counted, expected=ledger.expected,
                            difference=difference, reason=reason.strip())

    def state_dict(self) -> Snapshot:
        """What a snapshot stores: the game's ``snapshot_state()`` plus the base's own state."""
        data = dict(self.snapshot_state())
        if BASE_KEY in data:
            raise ValueError(f"snapshot_state() must not use the reserved key {BASE_KEY!r}")
        rows = [LoggedRow(e.seq, e.body.type, e.body.to_payload()) for e in self.round_log]
        data[BASE_KEY] = encode(capture(BaseSnapshot, self, version=self.snapshot_version, round_log=rows))
        return data

    def upgrade_snapshot(self, data: Snapshot) -> Snapshot | None:
        """A snapshot (as ``state_dict()`` wrote it, of any version) in today's shape, or None
        when no ``snapshot_upgrades`` lead from its version to ``snapshot_version``."""
        base = data.get(BASE_KEY)
        version = base.get("version") if isinstance(base, dict) else None
        while version != self.snapshot_version:
            step = self.snapshot_upgrades.get(version) if isinstance(version, int) else None
            if step is None or version is None:
                return None
            data = step(self, data)
            version = data[BASE_KEY]["version"] = version + 1
        return data

    def shift_ended(self) -> None:  # noqa: B027 - a hook: a game with nothing to forget keeps it empty
        """What the game forgets when a shift closes (the next shift's players are new)."""

    def state_hash(self) -> str:
        """SHA-256 of the canonical JSON of ``state_dict()``: equal states, equal hashes."""
        return hashlib.sha256(canonical_json(self.state_dict()).encode("utf-8")).hexdigest()

    # --- internals ---------------------------------------------------------------------------

    def _catch_up(self) -> None:
        # Events appended to this journal outside record() (staff enrolments) are folded first,
        # so applied_seq stays the seq the state corresponds to.
        if self.journal.last_seq != self._applied_seq:
            for event in self.journal.events(after=self._applied_seq):
                self._fold(event)

    def _fold(self, event: Event) -> None:
        if event.type in BASE_EVENTS:
            self._apply_base(event)
        else:
            self.apply(event)
        self._applied_seq = event.seq

    def _apply_base(self, event: Event) -> None:
        # Staff events and TABLE_CONFIG change no table state: the staff table and the
        # config the app was built with hold what they record; nor do fills, credits, buy-ins and
        # the close of a round (the game folds the event that closed it).
        if event.type not in BASE_CODEC.types:
            return
        body = BASE_CODEC.decode(event.type, event.payload)
        if isinstance(body, ShiftOpened):
            self._croupier = Actor(body.staff_id, Role(body.role))
        elif isinstance(body, ShiftClosed):
            self._croupier = None
            self.shift_ended()
        elif isinstance(body, TrayOpened):
            self._tray_opened_at = event.seq
        elif isinstance(body, TrayClosed):
            self._tray_opened_at = None

    def _restore_snapshot(self, data: Snapshot) -> bool:
        """Set the state from a snapshot; False (nothing set) for one of a version with no way
        up to today's."""
        upgraded = self.upgrade_snapshot(data)
        if upgraded is None:
            return False
        base = decode(BaseSnapshot, upgraded.pop(BASE_KEY))
        restore(base, self, skip=frozenset({"version", "round_log"}))
        # Before the game's part: a game may refold its open round from the log.
        self.round_log = [LoggedEntry(row.seq, self.codec.decode(row.type, row.payload)) for row in base.round_log]
        self.restore_state(upgraded)
        return True

