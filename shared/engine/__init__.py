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

The base's commands are on its desks (``shared.desk``), beside it in this package: the chip
tray's (``table.tray``, ``tray``), the shift's and the gaming day's (``table.shift``,
``shift``); who signs them is ``table.signers`` (``signers``). Undo stays the table's: it
takes back an entry of the journal.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import field
from functools import partial
from typing import Any, ClassVar, TypeVar

from shared.anchor import AnchorWriter, Head
from shared.base_events import (
    BASE_CODEC,
    STAFF_CODEC,
    TABLE_CONFIG,
    ClosesRound,
    ShiftClosed,
    ShiftOpened,
    TrayClosed,
    TrayOpened,
)
from shared.commands import Authority, CommandTable, When, can, command
from shared.codec import ATTR, capture, decode, encode, restore
from shared.errors import InputError, JournalWriteError
from shared.events import (
    ConsoleClosed,
    ClockCorrected,
    ConsoleStarted,
    EventBody,
    EventCodec,
    GamingDayClosed,
    JournalArchived,
    JournalUpgraded,
)
from shared.journal import GENESIS_HASH, Event, Journal, JournalError, canonical_json
from shared.messages import DEFAULT_LANG, Msg
from shared.actor import Actor, Role
from shared.record import record
from shared.staff import StaffRegistry
from shared.tray import TrayLedger
from shared.desk import open_desks
from shared.engine.shift import ShiftDesk
from shared.engine.signers import Signers
from shared.engine.tray import TrayDesk

# Events the base folds itself; a subclass's apply() never sees them.
GAMING_DAY_CLOSED = GamingDayClosed.type
JOURNAL_ARCHIVED = JournalArchived.type
BASE_EVENTS = frozenset({TABLE_CONFIG, GAMING_DAY_CLOSED, JOURNAL_ARCHIVED, JournalUpgraded.type, ConsoleStarted.type,
                         ConsoleClosed.type, ClockCorrected.type}) | STAFF_CODEC.types | BASE_CODEC.types
# Key under which the base keeps its own state inside every snapshot.
BASE_KEY = "_table"
# Each table class's command table, read once (``TableEngine.command_table``).
_COMMAND_TABLES: dict[type, CommandTable] = {}
B = TypeVar("B", bound=EventBody)


@record
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


@record
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


@record
class LoggedEntry:
    """One entry of the open round's log: its journal seq and its event."""

    seq: int
    body: EventBody


@record
class LoggedRow:
    """An entry of the open round's log as a snapshot keeps it: its journal row."""

    seq: int
    type: str
    payload: dict[str, Any]


@record
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


__all__ = ["can"]


class TableEngine(ABC):
    game: ClassVar[str]
    PHASES: ClassVar[Iterable[Any]] = (None,)
    """The game's phases: the columns of its command table (a game without phases: one, None)."""
    BETWEEN_ROUNDS: ClassVar[Iterable[Any]] = (None,)
    """The phases in which no round may be open (where the shift, tray and day close)."""
    COLLABORATORS: ClassVar[dict[str, type]] = {"tray": TrayDesk, "shift": ShiftDesk, "signers": Signers,
                                                "staff": StaffRegistry}
    """What the table holds that runs commands of its own (its attribute → its class): its desks
    (``shared.desk``, built with the table), the signatures they verify, and the staff registry
    (given to the table) with its enrolment, PIN and account commands."""
    tray: TrayDesk
    shift: ShiftDesk
    signers: Signers
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
        self._tray_folded: tuple[int, int, TrayLedger] | None = None  # (opened at, folded up to, ledger)
        self._applied_seq = 0
        self.anchor: AnchorWriter | None = None
        """Where a live table's head goes at every round's and shift's close (``shared.anchor``;
        the console sets it from the table file; a Carrusel table's meter store writes its own)."""
        self.round_log: list[LoggedEntry] = []
        """The open round's own entries, in order (empty between rounds)."""
        self.snapshot_later: Callable[[Callable[[], None]], object] | None = None
        """How a console runs the snapshot of a closed round once the key's frame is drawn (its
        ``call_after_refresh``): on the key that closed a round, wording and sealing the state
        was ~10 % of its instructions (issue 32). None: saved as the round closes."""
        self._snapshot_due = False
        open_desks(self, self.COLLABORATORS)
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
        save_due_snapshot(self)  # of the state the last close left, before anything changes it
        # Events appended to this journal outside record() (staff enrolments) are folded first,
        # so applied_seq stays the seq the state corresponds to.
        if self.journal.last_seq != self._applied_seq:
            for event in self.journal.events(after=self._applied_seq):
                self._fold(event)
        items = [EventCodec.encode(body) for body in self._with_round_closed(bodies, actor)]
        if not items:
            return []
        first_type, first_payload = items[0]
        if first_type in BASE_EVENTS:
            round_id = self.round_id if self.round_open else 0
        else:
            round_id = self.round_id_for(first_type, first_payload)
        events = self.journal.append_many(items, round_id=round_id, actor=actor)
        closed = shift_closed = False
        for event in events:
            was_open = self.round_open
            self._fold(event)
            # A gaming day's close is where an archive may end: the live file goes on from its snapshot.
            closed = closed or (was_open and not self.round_open) or event.type == GAMING_DAY_CLOSED
            shift_closed = shift_closed or event.type == ShiftClosed.type
        if closed:
            self._snapshot_due = True
            if self.snapshot_later is None:
                save_due_snapshot(self)
            else:
                self.snapshot_later(partial(save_due_snapshot, self))
        if closed or shift_closed:
            self.close_recorded(shift=shift_closed)
        return events

    def close_recorded(self, *, shift: bool) -> None:
        """A round, the gaming day or (``shift``) the shift closed: the head goes to the anchor."""
        if self.anchor is not None:
            self.anchor.submit(self.head())

    def head(self) -> Head:
        """The journal's head now, with the last round and who is on duty (an anchor's row)."""
        on_duty = self._croupier
        return Head(self.journal.last_hash, self.journal.last_seq, self.round_id or None,
                    None if on_duty is None else on_duty.staff_id)

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

    def undo_target(self) -> LoggedEntry:
        """The entry ``undo()`` takes back: the open round's last, if it is undoable. A game
        whose later bookkeeping entries (e.g. a signal) do not block the undo overrides this."""
        if not self.round_open or not self.round_log:
            raise InputError(Msg.of("engine.nothing_to_undo"))
        last = self.round_log[-1]
        if type(last.body) not in self.undoable:  # the game's list of what the croupier may take back
            raise InputError(Msg.of("engine.not_undoable"))
        return last

    def verify_undo(self) -> LoggedEntry:
        """The entry to take back; the croupier on duty does it."""
        self.signers.croupier()
        return self.undo_target()

    @command("undo", (When.ANY, Authority.CROUPIER), "console.md (undo)", "undo")
    def undo(self) -> list[EventBody]:
        """Withdraw the last undoable entry of the open round (a new entry; history stays)."""
        last = self.verify_undo()
        body = EntryUndone(last.seq, last.body.type)
        self.record(body, self.signers.croupier())
        return [body]

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

    def shift_ended(self) -> None:  # noqa: B027 (a hook: a game with nothing to forget keeps it)
        """What the game forgets when a shift closes (the next shift's players are new)."""

    def state_hash(self) -> str:
        """SHA-256 of the canonical JSON of ``state_dict()``: equal states, equal hashes."""
        return hashlib.sha256(canonical_json(self.state_dict()).encode("utf-8")).hexdigest()

    # --- the command table -------------------------------------------------------------------

    @classmethod
    def command_table(cls) -> CommandTable:
        """This table's commands, declared on its methods (``shared.commands``), read once."""
        if cls not in _COMMAND_TABLES:
            _COMMAND_TABLES[cls] = CommandTable.of(cls, TableEngine)
        return _COMMAND_TABLES[cls]

    def legal_actions(self) -> frozenset[str]:
        """The ids of every command allowed now (supervisor ones too: they still need signing)."""
        return self.command_table().legal(self)

    def can(self, id: str) -> bool:
        """Whether command ``id`` is allowed now, whatever its arguments (its probe passes); one
        command's answer, without asking every other (``legal_actions``)."""
        return self.command_table()[id].allowed(self)

    # --- internals ---------------------------------------------------------------------------

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


def save_due_snapshot(table: TableEngine) -> None:
    """The snapshot of the state ``table``'s last closed round left, if not saved yet (a
    function, not a member: the table keeps to its size, ``tests/test_table_shape.py``)."""
    if not table._snapshot_due or table.journal.closed:
        return
    table._snapshot_due = False
    try:
        table.journal.save_snapshot(table.applied_seq, table.state_dict())
    except JournalWriteError:
        pass  # the round is recorded; a snapshot only shortens the next start's replay
