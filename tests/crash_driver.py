"""Crash-test driver: plays a live Midi Punto y Banca table until it is killed.

    python tests/crash_driver.py DB SEED [HOLD]

Opens (or creates) the table's journal, restores the engine, and plays coups as a croupier
would — new shoes, the burn, bets, undo, repeat, «No va más», keyed cards, settlement, now and
then a supervisor's NULO — choosing with ``random.Random(SEED)``, with a few milliseconds'
pause between commands. After every command that the engine accepted it prints, flushed::

    ACK <last seq> <hash of that entry> <state hash>

so the parent (tests/test_crash_recovery.py) knows exactly what was acknowledged when it
sends SIGKILL. ``READY <seq> <state hash>`` is printed once the restore is done. With
``HOLD``, command number HOLD is committed and not acknowledged: the driver prints ``HELD``
and waits there to be killed.
"""

from __future__ import annotations

import random
import sys
import time

from shared.errors import ConsoleError
from shared.journal import Journal
from shared.midi.config import DEFAULT_MIDI_TABLE
from shared.midi.table import MidiTable, Phase
from shared.actor import Role
from shared.staff import Credentials, StaffRegistry
from shared.commands import can

TABLE_ID = DEFAULT_MIDI_TABLE.table_id
SUPERVISOR = Credentials("S1", "258025")
SUPERVISOR2 = Credentials("S2", "369036")
CROUPIER = Credentials("C1", "147036")
KINDS = ("punto", "banca", "tie")
MAX_EVENTS_PER_COMMAND = 3
"""The most entries one command commits: the shoe's last settlement (coup_settled, round_closed,
shoe_ended). A kill between that commit and its ACK leaves the journal this far past the last
ACK; every command is held to it here, so a command that writes more stops the driver, not
one kill in some that lands there (the bound was 2 until a full run landed one)."""


def ack(engine: MidiTable) -> None:
    journal = engine.journal
    print(f"ACK {journal.last_seq} {journal.last_hash} {engine.state_hash()}", flush=True)


def open_table(db: str) -> MidiTable:
    journal = Journal(db, TABLE_ID, "midi")
    staff = StaffRegistry(journal, pin_cost=2**4)  # a test's PIN cost, as tests/conftest.py sets in-process
    # Each enrolment is its own transaction: a kill between them is resumed on the next start.
    if not staff.has_supervisor():
        staff.enrol(SUPERVISOR.staff_id, "Sara Supervisora", Role.SUPERVISOR, SUPERVISOR.pin, by=None)
    if staff.get(CROUPIER.staff_id) is None:
        staff.enrol(CROUPIER.staff_id, "Ciro Croupier", Role.CROUPIER, CROUPIER.pin, by=SUPERVISOR)
    if staff.get(SUPERVISOR2.staff_id) is None:  # a NULO other than the empty sabot's takes two
        staff.enrol(SUPERVISOR2.staff_id, "Gerente", Role.SUPERVISOR, SUPERVISOR2.pin, by=SUPERVISOR)
    return MidiTable(journal, staff)


def pick_card(engine: MidiTable, rng: random.Random) -> str:
    shoe = engine.shoe
    assert shoe is not None
    ranks = [rank for rank, left in shoe.left.items() if left > 0]
    return rng.choice(ranks).char


def bet_step(engine: MidiTable, rng: random.Random) -> bool:
    roll = rng.random()
    if roll < (0.25 if engine.bets else 0.03):
        engine.play.no_va_mas()
        return True
    if roll < 0.32 and engine.can("undo"):
        engine.undo()
        return True
    if roll < 0.37 and can(engine.play.verify_repeat_last_bets):
        engine.play.repeat_last_bets()
        return True
    spot = rng.choice(engine.spots)
    kind = rng.choice(KINDS)
    amount = 10 * rng.randint(1, 10)
    if can(engine.play.verify_place_bet, spot, kind, amount):
        engine.play.place_bet(spot, kind, amount)
        return True
    return False


def step(engine: MidiTable, rng: random.Random) -> bool:
    """One croupier command; False when the choice made was not legal (nothing written)."""
    phase = engine.phase
    if phase in (Phase.NO_SHOE, Phase.SHOE_END):
        engine.play.new_shoe()
    elif can(engine.play.verify_shoe_exhausted):
        engine.play.shoe_exhausted()
    elif engine.card_called_for is not None:
        engine.play.key_card(pick_card(engine, rng))
    elif phase is Phase.BURN:
        engine.play.confirm_burn()
    elif phase is Phase.RESULT:
        if rng.random() < 0.03:
            engine.supervisor.void_coup(SUPERVISOR, "prueba de caída / crash test", SUPERVISOR2)
        else:
            engine.play.settle()
    elif phase is Phase.BETS:
        return bet_step(engine, rng)
    else:
        raise AssertionError(f"no move for phase {phase}")
    return True


def main() -> None:
    db, seed = sys.argv[1], int(sys.argv[2])
    hold = int(sys.argv[3]) if len(sys.argv) > 3 else None
    rng = random.Random(seed)
    engine = open_table(db)
    if engine.croupier is None:
        engine.shift.open(CROUPIER)
        ack(engine)
    if not engine.tray.is_open:  # bets need the tray
        engine.tray.open({"100": 100}, CROUPIER, SUPERVISOR)
        ack(engine)
    print(f"READY {engine.applied_seq} {engine.state_hash()}", flush=True)
    commands = 0
    while True:
        before = engine.journal.last_seq
        try:
            done = step(engine, rng)
        except ConsoleError as exc:
            # The policy only offers legal moves; a refusal here is a bug worth seeing.
            raise SystemExit(f"refused: {exc.message('en')}") from exc
        if done:
            assert before < engine.journal.last_seq <= before + MAX_EVENTS_PER_COMMAND, "entries of one command"
            commands += 1
            if commands == hold:
                print("HELD", flush=True)
                time.sleep(600)  # killed here by the parent
            ack(engine)
            # The croupier's moment between keys: kills also land between commands, not only
            # inside the commit (where the write is already in the OS and so survives the kill).
            time.sleep(rng.random() * 0.006)
        else:
            assert engine.journal.last_seq == before


if __name__ == "__main__":
    main()
