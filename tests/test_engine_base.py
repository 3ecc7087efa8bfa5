"""TableEngine base: record-then-apply, snapshots, restore, shifts, authorisation."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from shared.engine import BASE_KEY, TableEngine, save_due_snapshot
from shared.events import EventBody
from shared.errors import AuthError, RuleViolation
from shared.journal import Event, Journal, JournalError
from shared.messages import Msg
from shared.actor import Actor, Role
from shared.staff import Credentials, StaffRegistry

SUP = Credentials("S1", "123456")
CRO = Credentials("C1", "5678")


@dataclass(frozen=True)
class RoundOpened(EventBody):
    type: ClassVar[str] = "round_opened"
    round: int


@dataclass(frozen=True)
class BetPlaced(EventBody):
    type: ClassVar[str] = "bet_placed"
    amount: Any


@dataclass(frozen=True)
class RoundEnded(EventBody):
    type: ClassVar[str] = "round_ended"


@dataclass(frozen=True)
class RoundVoided(EventBody):
    type: ClassVar[str] = "round_voided"
    reason: str


class TallyEngine(TableEngine):
    """A test-only game: open a round, place integer bets, close it; a supervisor may void."""

    game: ClassVar[str] = "tally"

    def initial_state(self) -> None:
        self.number = 0
        self.is_open = False
        self.bets: list[int] = []
        self.total = 0
        self.voided = 0
        self.applied_count = 0

    def apply(self, event: Event) -> None:
        self.applied_count += 1
        p = event.payload
        if event.type == "round_opened":
            self.number = p["round"]
            self.is_open = True
            self.bets = []
        elif event.type == "bet_placed":
            self.bets.append(p["amount"])
        elif event.type == "round_ended":
            self.total += sum(self.bets)
            self.is_open = False
        elif event.type == "round_voided":
            self.voided += 1
            self.is_open = False
        else:
            raise ValueError(event.type)

    def snapshot_state(self) -> dict:
        return {"number": self.number, "open": self.is_open, "bets": self.bets, "total": self.total, "voided": self.voided}

    def restore_state(self, data: dict) -> None:
        self.number = data["number"]
        self.is_open = data["open"]
        self.bets = list(data["bets"])
        self.total = data["total"]
        self.voided = data["voided"]

    @property
    def round_id(self) -> int:
        return self.number

    @property
    def round_open(self) -> bool:
        return self.is_open

    def round_id_for(self, type: str, payload: dict) -> int:
        return payload["round"] if type == "round_opened" else self.number

    # commands
    def open_round(self) -> Event:
        if self.is_open:
            raise RuleViolation("Art. 0", Msg.of("ui.quit_confirm"))
        return self.record(RoundOpened(self.number + 1), self.croupier)

    def verify_bet(self, amount: int) -> None:
        if not self.is_open:
            raise RuleViolation("Art. 1", Msg.of("ui.duty_no_round"))
        if amount <= 0:
            raise RuleViolation("Art. 2", Msg.of("common.amount_negative", value=amount))

    def bet(self, amount: int) -> Event:
        self.verify_bet(amount)
        return self.record(BetPlaced(amount), self.croupier)

    def close_round(self) -> Event:
        if not self.is_open:
            raise RuleViolation("Art. 1", Msg.of("ui.duty_no_round"))
        return self.record(RoundEnded(), self.croupier)

    def void(self, creds: Credentials, reason: str) -> list[Event]:
        actor = self.signers.authorize(creds, Role.SUPERVISOR)
        if not self.is_open:
            raise RuleViolation("Art. 1", Msg.of("ui.duty_no_round"))
        return self.record_many([RoundVoided(reason)], actor)


def new_table(tmp_path: Path) -> tuple[Journal, StaffRegistry]:
    journal = Journal(tmp_path / "tally.sqlite3", "T1", "tally")
    staff = StaffRegistry(journal)
    staff.enrol("S1", "Sara", Role.SUPERVISOR, SUP.pin, by=None)
    staff.enrol("C1", "Ciro", Role.CROUPIER, CRO.pin, by=Actor("S1", Role.SUPERVISOR))
    return journal, staff


def play(engine: TallyEngine, rounds: int, bets: int = 3) -> None:
    for r in range(rounds):
        engine.open_round()
        for k in range(bets):
            engine.bet(10 * (r + 1) + k)
        engine.close_round()


def restart(engine: TallyEngine) -> TallyEngine:
    engine.journal.close()
    journal = Journal(engine.journal.path, "T1", "tally")
    return TallyEngine(journal, StaffRegistry(journal))


def test_commands_are_journaled_then_applied(tmp_path: Path) -> None:
    engine = TallyEngine(*new_table(tmp_path))
    assert not engine.recovered and engine.croupier is None
    engine.shift.open(CRO)
    play(engine, 2)
    assert engine.total == (10 + 11 + 12) + (20 + 21 + 22)
    events = list(engine.journal.events())
    assert [e.type for e in events][:5] == ["staff_enrolled", "staff_credentials"] * 2 + ["shift_opened"]
    opened = [e for e in events if e.type == "round_opened"]
    assert [e.round_id for e in opened] == [1, 2]
    assert all(e.staff_id == "C1" and e.role == "croupier" for e in events[4:])
    assert engine.applied_seq == engine.journal.last_seq == len(events)


def test_refused_command_writes_nothing(tmp_path: Path) -> None:
    engine = TallyEngine(*new_table(tmp_path))
    engine.shift.open(CRO)
    play(engine, 1)
    engine.open_round()
    before_seq, before_state = engine.journal.last_seq, engine.state_dict()
    with pytest.raises(RuleViolation):
        engine.bet(0)
    with pytest.raises(RuleViolation):
        engine.open_round()
    assert engine.journal.last_seq == before_seq
    assert engine.state_dict() == before_state


def test_croupier_cannot_do_a_supervisor_action(tmp_path: Path) -> None:
    engine = TallyEngine(*new_table(tmp_path))
    engine.shift.open(CRO)
    engine.open_round()
    before_seq, before_state = engine.journal.last_seq, engine.state_dict()
    with pytest.raises(AuthError) as info:
        engine.void(CRO, "mis-keyed")
    assert info.value.message("es") == "se requiere un supervisor"
    with pytest.raises(AuthError, match="ID o PIN incorrecto"):
        engine.void(Credentials("S1", "0000"), "mis-keyed")
    # Only the failed attempt is journaled (who tried which ID, at which table); the round is untouched.
    failed = engine.journal.event(before_seq + 1)
    assert (failed.type, failed.payload, failed.round_id) == ("pin_failed", {"staff_id": "S1", "table": "T1", "attempt": 1}, 0)
    assert (engine.journal.last_seq, engine.state_dict()) == (before_seq + 1, before_state)
    [event] = engine.void(SUP, "mis-keyed")
    assert (event.staff_id, event.role, event.payload) == ("S1", "supervisor", {"reason": "mis-keyed"})
    assert engine.voided == 1 and not engine.round_open


def test_a_live_table_without_staff_refuses_authorisation(tmp_path: Path) -> None:
    engine = TallyEngine(Journal(tmp_path / "t.sqlite3", "T1", "tally"))
    with pytest.raises(AuthError):
        engine.shift.open(CRO)
    with pytest.raises(AuthError):
        engine.signers.authorize(None, Role.SUPERVISOR)
    assert engine.journal.last_seq == 0


def test_shift_roles(tmp_path: Path) -> None:
    journal, staff = new_table(tmp_path)
    staff.enrol("T9", "Tina", Role.TRAINER, "2468", by=SUP)
    engine = TallyEngine(journal, staff)
    with pytest.raises(AuthError):
        engine.shift.open(Credentials("T9", "2468"))
    with pytest.raises(AuthError):
        engine.shift.close(CRO)  # no shift open
    [opened] = engine.shift.open(CRO)
    assert engine.croupier == Actor("C1", Role.CROUPIER) and opened.to_payload()["staff_id"] == "C1"
    engine.shift.open(SUP)
    assert engine.croupier == Actor("S1", Role.SUPERVISOR)
    assert engine.journal.round_events(0)[-1].payload == {"staff_id": "S1", "role": "supervisor", "previous": "C1"}
    with pytest.raises(AuthError):
        engine.shift.close(CRO)  # a croupier cannot close someone else's shift
    engine.shift.close(SUP)
    assert engine.croupier is None


def test_restore_open_round_and_croupier_after_restart(tmp_path: Path) -> None:
    engine = TallyEngine(*new_table(tmp_path))
    engine.shift.open(CRO)
    play(engine, 3)
    engine.open_round()
    engine.bet(7)
    engine.bet(8)
    state = engine.state_dict()
    again = restart(engine)
    assert again.recovered
    assert again.state_dict() == state
    assert again.croupier == Actor("C1", Role.CROUPIER)
    # It folded only the open round's events, not the history.
    assert again.applied_count == 3
    again.bet(9)
    again.close_round()
    assert not restart(again).recovered


def test_snapshot_restore_equals_full_replay(tmp_path: Path) -> None:
    engine = TallyEngine(*new_table(tmp_path))
    engine.shift.open(CRO)
    play(engine, 5)
    engine.shift.open(SUP)
    engine.open_round()
    engine.bet(99)
    from_snapshot = restart(engine)
    conn = sqlite3.connect(engine.journal.path)
    conn.execute("DELETE FROM snapshots")
    conn.commit()
    conn.close()
    replayed = restart(from_snapshot)
    assert replayed.applied_count == 5 * 5 + 2  # shift events are folded by the base
    assert from_snapshot.applied_count == 2
    assert replayed.state_dict() == from_snapshot.state_dict() == engine.state_dict()
    assert replayed.state_hash() == engine.state_hash()
    assert replayed.croupier == Actor("S1", Role.SUPERVISOR)


def test_snapshot_after_each_closed_round(tmp_path: Path) -> None:
    engine = TallyEngine(*new_table(tmp_path))
    engine.shift.open(CRO)
    play(engine, 1)
    seq, data = engine.journal.latest_snapshot()  # type: ignore[misc]
    assert seq == engine.journal.last_seq
    assert data[BASE_KEY]["croupier"] == {"staff_id": "C1", "role": "croupier"}
    engine.open_round()
    engine.void(SUP, "prueba")
    assert engine.journal.latest_snapshot()[0] == engine.journal.last_seq  # type: ignore[index]


def test_a_console_s_snapshot_waits_for_its_frame_and_never_for_the_next_entry(tmp_path: Path) -> None:
    """With ``snapshot_later`` (a console's ``call_after_refresh``) the round's close hands the
    snapshot over instead of saving it; it is saved when run, or before the next entry if the
    next command came first, of the state the close left; one never run (the console closed
    first) leaves a start that replays the round, to the same state."""
    engine = TallyEngine(*new_table(tmp_path))
    engine.shift.open(CRO)
    play(engine, 1)
    first = engine.journal.latest_snapshot()
    later: list[Any] = []
    engine.snapshot_later = later.append
    play(engine, 1)
    closed_at, state = engine.journal.last_seq, engine.state_dict()
    assert engine.journal.latest_snapshot() == first and len(later) == 1, "handed over, not saved"
    later.pop()()
    assert engine.journal.latest_snapshot() == (closed_at, state)
    save_due_snapshot(engine)  # nothing more is due: no new snapshot
    assert engine.journal.latest_snapshot() == (closed_at, state)

    play(engine, 1)
    closed_at, state = engine.journal.last_seq, engine.state_dict()
    engine.open_round()  # the next command before the frame: the snapshot is saved first
    assert engine.journal.latest_snapshot() == (closed_at, state)
    later.pop()()  # the console's call, after that: nothing due
    assert engine.journal.latest_snapshot() == (closed_at, state)

    engine.bet(5)
    engine.close_round()
    assert len(later) == 1
    final = engine.state_dict()
    again = restart(engine)
    later.pop()()  # after the console closed its journal: saves nothing, raises nothing
    assert again.journal.latest_snapshot() == (closed_at, state)
    assert again.state_dict() == final


def test_old_snapshot_version_is_ignored(tmp_path: Path) -> None:
    engine = TallyEngine(*new_table(tmp_path))
    engine.shift.open(CRO)
    play(engine, 2)
    engine.journal.close()

    class TallyV2(TallyEngine):
        snapshot_version = 2

    journal = Journal(engine.journal.path, "T1", "tally")
    upgraded = TallyV2(journal, StaffRegistry(journal))
    assert upgraded.applied_count == 2 * 5  # replayed from the start
    assert upgraded.snapshot_state() == engine.snapshot_state()


def test_staff_events_between_commands_keep_the_fold_in_step(tmp_path: Path) -> None:
    journal, staff = new_table(tmp_path)
    engine = TallyEngine(journal, staff)
    engine.shift.open(CRO)
    engine.open_round()
    staff.enrol("C2", "Cora", Role.CROUPIER, "1357", by=SUP)
    engine.bet(5)
    engine.close_round()
    assert engine.applied_seq == journal.last_seq
    assert journal.latest_snapshot()[0] == journal.last_seq  # type: ignore[index]
    assert restart(engine).state_dict() == engine.state_dict()


def test_damaged_tail_stops_the_engine(tmp_path: Path) -> None:
    engine = TallyEngine(*new_table(tmp_path))
    engine.shift.open(CRO)
    play(engine, 1)
    engine.open_round()
    engine.bet(3)
    engine.journal.close()
    conn = sqlite3.connect(engine.journal.path)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET payload = '{\"amount\":3000}' WHERE seq = (SELECT MAX(seq) FROM events)")
    conn.commit()
    conn.close()
    with pytest.raises(JournalError, match="dañado"):
        TallyEngine(Journal(engine.journal.path, "T1", "tally"))


def test_record_many_is_atomic(tmp_path: Path) -> None:
    engine = TallyEngine(*new_table(tmp_path))
    engine.shift.open(CRO)
    engine.open_round()
    before = engine.journal.last_seq
    with pytest.raises(TypeError):
        engine.record_many([BetPlaced(1), BetPlaced(object())], engine.croupier)
    assert engine.journal.last_seq == before and engine.bets == []
    events = engine.record_many([BetPlaced(1), BetPlaced(2)], engine.croupier)
    assert [e.round_id for e in events] == [1, 1] and engine.bets == [1, 2]


def test_training_engine_never_uses_a_live_journal(tmp_path: Path) -> None:
    journal, _ = new_table(tmp_path)
    with pytest.raises(JournalError):
        TallyEngine(journal, training=True)
    fresh = Journal(tmp_path / "training.sqlite3", "T1", "tally")
    trainer = TallyEngine(fresh, training=True)
    assert fresh.training
    trainer.shift.open(None)
    assert trainer.croupier == Actor("trainee", Role.TRAINEE)
    trainer.open_round()
    [event] = trainer.void(Credentials("anyone", ""), "práctica")
    assert event.role == "trainee"
    with pytest.raises(JournalError):
        TallyEngine(fresh)  # a live engine on the training journal


def test_game_and_reserved_key(tmp_path: Path) -> None:
    with pytest.raises(JournalError):
        TallyEngine(Journal(tmp_path / "m.sqlite3", "T1", "midi"))

    class Greedy(TallyEngine):
        def snapshot_state(self) -> dict:
            return {**super().snapshot_state(), BASE_KEY: 1}

    engine = Greedy(Journal(tmp_path / "g.sqlite3", "T1", "tally"), training=True)
    with pytest.raises(ValueError, match="reserved"):
        engine.state_dict()
