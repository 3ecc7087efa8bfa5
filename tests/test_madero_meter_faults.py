"""The progressive meter never disagrees with the journal, whatever step a stop falls on.

A child process runs one command (settle, undo, void) on a Carrusel table at the settlement
of a royal flush and dies with ``os._exit`` at one step boundary — before or after each
journal write, snapshot, meter transaction and meter movement it makes, every one of them in
turn, found by tracing the command first. The table is then reopened and every legal next
command is played; after the reopen and after each of them, each meter is what the journal
says it must be. A journal write that fails (a busy database, a full disk) leaves the meter
where it was.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest

from shared.errors import ConsoleError, JournalWriteError
from shared.journal import Journal
from shared.madero.config import MaderoTableConfig
from shared.madero.meter import MeterUnavailable, SqliteMeterStore, reading_to_dict
from shared.madero.settlement import Bet
from shared.madero.table import MaderoTable, Phase
from tests.kill_acks import KILLED, StepBoundaries, run_child
from tests.madero_helpers import SUP, SUP2, live_table, open_live

D = Decimal
CONFIG = MaderoTableConfig.from_mapping(dict(table_id="MPB-02", minimum=10, maximum=500, jackpot_mode="progressive",
                                             contribution_percent=50, carrusel_id="CARR"))
OTHER, OTHER_SEED = "MPB-03", D(8000)
"""Another table of the Carrusel, on the same meter store."""
# What the meters held before this journal's first round (earlier play, other journals).
START = {CONFIG.table_id: D(5700), OTHER: D(8300)}


def key(t: MaderoTable, cards: str) -> None:
    for c in cards.split():
        t.play.key_card(c)


def play_to_settlement(t: MaderoTable, hole: str) -> None:
    """Box 1 with Ante and 2 Jackpot credits; board Th Jh Qh 2c 3d, bank 4s 4d, box 1 ``hole``."""
    t.play.place_bet(1, Bet.ANTE, 10)
    t.play.place_bet(1, Bet.JACKPOT, 2)
    t.play.no_va_mas()
    t.play.voy(1)
    key(t, "Th Jh Qh")
    t.play.check(1)
    key(t, "2c")
    t.play.check(1)
    key(t, "3d 4s 4d " + hole)
    assert t.phase is Phase.SETTLEMENT


def setup(tmp: Path) -> None:
    store = SqliteMeterStore(tmp / "meters.sqlite")
    store.register(OTHER, OTHER_SEED, "CARR")
    store.register(CONFIG.table_id, CONFIG.seed, "CARR")
    for meter_id, value in START.items():
        store.contribute(meter_id, value - store.read(meter_id).own)
    t = live_table(tmp, CONFIG, meter_store=store, draw_rng=random.Random(3))
    play_to_settlement(t, "Ah Kh")  # a royal flush: the whole linked jackpot
    assert t.carrusel.prize_claim_due  # a meter prize: shown only once the store answers its claim
    t.journal.close()
    store.close()


def reopen(tmp: Path) -> MaderoTable:
    return open_live(tmp / "t.sqlite", CONFIG, meter_store=SqliteMeterStore(tmp / "meters.sqlite"),
                     draw_rng=random.Random(4))


def close(t: MaderoTable) -> None:
    t.journal.close()
    t.carrusel.store.close()


def assert_meter_follows_journal(tmp: Path, where: str) -> None:
    """Each meter is what the journal says: this table's is the last settled round's
    ``own_after`` (or what it held before), the other's is its seed after a journaled royal;
    every journaled movement was applied once, and nothing else was but a royal whose claim is
    journaled and whose settlement is not yet (the store's answer, which the table asks again)."""
    journal = Journal(tmp / "t.sqlite", CONFIG.table_id, "madero")
    store = SqliteMeterStore(tmp / "meters.sqlite")
    try:
        settled = [e.payload for e in journal.events() if e.type == "round_settled"]
        refs = {p["meter_ref"] for p in settled}
        # a royal claimed from the store (issue 27) whose settlement the stop left unjournaled
        claimed = {e.payload["meter_ref"] for e in journal.events() if e.type == "prize_claimed"} - refs
        with sqlite3.connect(tmp / "meters.sqlite") as conn:
            applied = {r for (r,) in conn.execute("SELECT ref FROM settlements")}
        assert refs <= applied <= refs | claimed, where
        own = Decimal(settled[-1]["settlement"]["meter"]["own_after"]) if settled else START[CONFIG.table_id]
        royal = any(p["settlement"]["meter"]["royal_hit"] for p in settled)
        if applied - refs:  # the claimed royal restarted both meters; its answer is still to be journaled
            own, royal = CONFIG.seed, True
        assert store.read(CONFIG.table_id).own == own, where
        assert store.read(OTHER).own == (OTHER_SEED if royal else START[OTHER]), where
    finally:
        journal.close()
        store.close()


# --- the commands a stop is injected into ---------------------------------------------------


def settle(t: MaderoTable) -> None:
    t.play.confirm_settlement()


def undo(t: MaderoTable) -> None:
    t.undo()  # withdraws the last keyed card (the Kh of the royal)


def void(t: MaderoTable) -> None:
    t.supervisor.void_round(SUP, "arbitration", "prueba de corte", SUP2)


COMMANDS: dict[str, Callable[[MaderoTable], None]] = {"settle": settle, "undo": undo, "void": void}


# --- every legal next command, by the state the reopened table is in --------------------------


def refused(command: Callable[[MaderoTable], object]) -> Callable[[MaderoTable], None]:
    """``command``, which the table must refuse, then the settlement confirmed."""
    def play(t: MaderoTable) -> None:
        with pytest.raises(ConsoleError):
            command(t)
        t.play.confirm_settlement()
    return play


def next_commands(t: MaderoTable) -> dict[str, Callable[[MaderoTable], None]]:
    if t.phase is Phase.SETTLEMENT and t.r.prize_claimed:
        # the store may hold the prize's debit: the round can only be settled (issue 27)
        return {"confirm": settle, "undo refused, confirm": refused(undo), "void refused, confirm": refused(void)}
    if t.phase is Phase.SETTLEMENT:
        return {
            "confirm": settle,
            "undo, re-key Ks, confirm": lambda t: (t.undo(), t.play.key_card("Ks"), t.play.confirm_settlement()),
            "void": void,
        }
    if t.phase is Phase.IDLE:
        return {
            "next round, confirm": lambda t: (play_to_settlement(t, "2s 3s"), t.play.confirm_settlement()),
            "next round, void": lambda t: (play_to_settlement(t, "2s 3s"), void(t)),
        }
    assert t.expected_card() == ("box", 1)  # the undone card is keyed again
    return {
        "key Kh, confirm": lambda t: (t.play.key_card("Kh"), t.play.confirm_settlement()),
        "key Ks, confirm": lambda t: (t.play.key_card("Ks"), t.play.confirm_settlement()),
        "void": void,
    }


# --- the child that dies at a step boundary ---------------------------------------------------


def _boundaries() -> list[tuple[type, str]]:
    return [(Journal, "append_many"), (Journal, "save_snapshot"), (SqliteMeterStore, "apply_settlement"),
            (SqliteMeterStore._Tx, "__enter__"), (SqliteMeterStore._Tx, "__exit__")]


def _child(tmp: Path, command: str, die_at: int | None) -> None:
    """Run ``command``; die at the ``die_at``-th step boundary, or (None) write the trace."""
    steps = StepBoundaries(die_at)

    def body() -> None:
        t = reopen(tmp)
        for cls, name in _boundaries():
            steps.wrap(cls, name)
        COMMANDS[command](t)

    steps.run(tmp, body)


def _run_child(tmp: Path, command: str, die_at: int | None) -> int:
    return run_child(tmp, _child, command, die_at)


@pytest.fixture(scope="module")
def at_royal_settlement(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("royal")
    setup(tmp)
    return tmp


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_stop_at_every_step_boundary_leaves_the_meter_as_the_journal_says(command, at_royal_settlement, tmp_path):
    traced = _copy(at_royal_settlement, tmp_path / "trace")
    assert _run_child(traced, command, None) == 0
    trace = (traced / "trace.txt").read_text().splitlines()
    assert_meter_follows_journal(traced, f"{command} without a stop")
    if command == "settle":
        # a prize (issue 27): the claim journaled, then valued and debited at once, then the
        # store's answer journaled (what the screen shows), then the settlement
        order = [s for s in trace if "append_many" in s or "apply_settlement" in s]
        assert order[-8:] == ["before Journal.append_many", "after Journal.append_many",
                              "before SqliteMeterStore.apply_settlement", "after SqliteMeterStore.apply_settlement",
                              "before Journal.append_many", "after Journal.append_many",
                              "before Journal.append_many", "after Journal.append_many"]
    checked = 0
    for die_at in range(len(trace)):
        where = f"{command}: stop at #{die_at} ({trace[die_at]})"
        killed = _copy(at_royal_settlement, tmp_path / f"k{die_at}")
        assert _run_child(killed, command, die_at) == KILLED, where
        t = reopen(killed)
        nexts = next_commands(t)
        close(t)
        assert_meter_follows_journal(killed, f"{where}, reopened")
        for name, play in nexts.items():
            run = _copy(killed, tmp_path / f"k{die_at}-{len(name)}-{checked}")
            t = reopen(run)
            play(t)
            close(t)
            assert_meter_follows_journal(run, f"{where}, then {name}")
            t = reopen(run)  # and once more: nothing is applied twice
            close(t)
            assert_meter_follows_journal(run, f"{where}, then {name}, reopened")
            checked += 1
    assert checked >= 2 * len(trace)
    print(f"{command}: {len(trace)} step boundaries, {checked} next commands checked")


@pytest.mark.parametrize("error", ["database is locked", "database or disk is full"])
def test_a_failed_journal_write_leaves_the_meter_where_it_was(error, at_royal_settlement, tmp_path, monkeypatch):
    tmp = _copy(at_royal_settlement, tmp_path / "run")
    t = reopen(tmp)
    before = {m: t.carrusel.store.read(m).own for m in START}
    seq = t.journal.last_seq
    original = Journal._append_in

    def failing(self, cur, type, *args, **kwargs):
        if type == "round_settled":
            # inside the journal's transaction, as a full disk or a busy database fails it
            raise sqlite3.OperationalError(error)
        return original(self, cur, type, *args, **kwargs)

    monkeypatch.setattr(Journal, "_append_in", failing)
    with pytest.raises(JournalWriteError, match="No se registró nada"):
        t.play.confirm_settlement()
    # the royal was claimed (its intent and the store's answer journaled, the store's debit
    # committed: issue 27) and its settlement not journaled: the round waits at the settlement
    claimed = {m: t.carrusel.store.read(m).own for m in START}
    assert claimed == {CONFIG.table_id: CONFIG.seed, OTHER: OTHER_SEED} != before
    assert t.journal.last_seq == seq + 2 and t.phase is Phase.SETTLEMENT
    monkeypatch.setattr(Journal, "_append_in", original)
    close(t)
    assert_meter_follows_journal(tmp, f"{error}, reopened")
    t = reopen(tmp)
    t.play.confirm_settlement()  # the croupier confirms again once the disk has room
    settlement = t.last_settlement
    # the same answer: the jackpot as the claim valued it, debited once
    assert settlement.meter.royal_prize == sum(before.values()) + settlement.meter.contribution
    assert {m: t.carrusel.store.read(m).own for m in START} == claimed
    close(t)
    assert_meter_follows_journal(tmp, f"{error}, then confirmed")


def test_a_royal_claimed_before_a_stop_is_settled_on_the_claim_after_the_restart(at_royal_settlement, tmp_path):
    """Killed after the store committed the royal's claim, before its settlement was journaled;
    the other Carrusel table settles a contribution before this one restarts: confirmed again,
    the royal is the one the claim valued (asked again with the same key), debited once, and the
    other table's later contribution stays in its meter for the next jackpot (issue 27)."""
    traced = _copy(at_royal_settlement, tmp_path / "trace")
    assert _run_child(traced, "settle", None) == 0
    trace = (traced / "trace.txt").read_text().splitlines()
    # the claim committed: the stop falls as the settlement's journal write begins
    die_at = trace.index("before Journal.append_many", trace.index("after SqliteMeterStore.apply_settlement"))
    killed = _copy(at_royal_settlement, tmp_path / "killed")
    assert _run_child(killed, "settle", die_at) == KILLED
    other = SqliteMeterStore(killed / "meters.sqlite")
    other.contribute(OTHER, D(7), ref="MPB-03:1")
    other.close()
    t = reopen(killed)
    assert t.phase is Phase.SETTLEMENT and t.r.prize_claimed
    t.play.confirm_settlement()
    movement = t.last_settlement.meter
    # the jackpot as the claim read it: both meters and this round's contribution, not the 7
    assert movement.royal_prize == START[CONFIG.table_id] + START[OTHER] + movement.contribution
    assert t.carrusel.store.read(OTHER).own == OTHER_SEED + 7
    assert t.carrusel.store.read(CONFIG.table_id).own == CONFIG.seed
    close(t)


def test_a_busy_meter_refuses_the_settlement_before_anything_is_journaled(at_royal_settlement, tmp_path):
    tmp = _copy(at_royal_settlement, tmp_path / "run")
    t = reopen(tmp)
    seq = t.journal.last_seq
    before = {m: t.carrusel.store.read(m).own for m in START}
    t.carrusel.store._conn.execute("PRAGMA busy_timeout = 100")
    other = sqlite3.connect(tmp / "meters.sqlite", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another table's process holds the meter store
    with pytest.raises(MeterUnavailable) as refused:
        t.play.confirm_settlement()
    assert "database is locked" in refused.value.msg.render("en")
    other.execute("ROLLBACK")
    other.close()
    # only the claim's intent is journaled: nothing is settled, nothing moved
    assert t.journal.last_seq == seq + 1 and t.journal.last_event_of("prize_claimed") is not None
    assert t.phase is Phase.SETTLEMENT and {m: t.carrusel.store.read(m).own for m in START} == before
    close(t)
    assert_meter_follows_journal(tmp, "busy meter")


def test_a_meter_that_cannot_be_written_refuses_the_prize_until_it_can(at_royal_settlement, tmp_path, monkeypatch):
    """A royal is never settled on a claim the store did not commit (issue 27): a full disk
    refuses the settlement; confirmed again once it has room, the royal is claimed once."""
    tmp = _copy(at_royal_settlement, tmp_path / "run")
    t = reopen(tmp)
    before = {m: t.carrusel.store.read(m).own for m in START}

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as m:
        m.setattr(SqliteMeterStore, "_set", full)
        with pytest.raises(MeterUnavailable):
            t.play.confirm_settlement()
    assert t.phase is Phase.SETTLEMENT and {m: t.carrusel.store.read(m).own for m in START} == before
    t.play.confirm_settlement()
    assert t.last_settlement.meter.royal_hit
    play_to_settlement(t, "2s 3s")
    t.play.confirm_settlement()
    close(t)
    assert_meter_follows_journal(tmp, "meter write refused, confirmed again, next round settled")


def test_a_round_an_earlier_version_applied_before_journaling_settles_on_the_reading_it_paid(
        at_royal_settlement, tmp_path):
    """The order of earlier versions (meter first) stopped before the journal entry: the
    round settles on the reading the meter already paid the royal from, and not twice."""
    tmp = _copy(at_royal_settlement, tmp_path / "run")
    t = reopen(tmp)
    reading = t.carrusel.reading()
    t.carrusel.store.apply_settlement(CONFIG.table_id, t.carrusel._ref(), reading, t.settlement(reading).meter)
    assert t.carrusel.reading().own == CONFIG.seed
    t.play.confirm_settlement()
    settlement = t.last_settlement
    assert settlement.meter.royal_prize == reading.linked_total + settlement.meter.contribution
    assert t.journal.last_event_of("round_settled").payload["meter"] == reading_to_dict(reading)
    close(t)
    assert_meter_follows_journal(tmp, "applied by an earlier version")
