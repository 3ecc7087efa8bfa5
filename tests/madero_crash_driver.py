"""Crash-test driver: plays a live progressive Madero table until it is killed.

    python tests/madero_crash_driver.py DB METER_DB SEED

Opens (or creates) the table's journal and the shared meter store, restores the engine,
and plays rounds as a croupier would — bets, undo, «No va más», decisions, keyed cards
(in some rounds box 1 bets the Jackpot and gets a royal flush, so the meter pays and
restarts), settlement, and
sometimes a supervisor's void — choosing with ``random.Random(SEED)``. After every
accepted command it prints, flushed::

    ACK <last seq> <hash of that entry> <state hash>

``READY <seq> <state hash>`` is printed once the restore is done.
"""

from __future__ import annotations

import random
import sys

from shared.commands import can
from shared.errors import ConsoleError
from shared.journal import Journal
from shared.madero.config import MaderoTableConfig
from shared.madero.meter import SqliteMeterStore
from shared.madero.settlement import Bet
from shared.madero.table import MaderoTable, Phase
from shared.actor import Role
from shared.staff import Credentials, StaffRegistry

CONFIG = MaderoTableConfig.from_mapping(dict(table_id="MPB-K1", minimum=10, maximum=500, jackpot_mode="progressive",
                           contribution_percent=20, carrusel_id="K"))
SUPERVISOR = Credentials("S1", "258025")
CROUPIER = Credentials("C1", "147036")
ROYAL_FLOP, ROYAL_HOLE = ("Th", "Jh", "Qh"), ("Ah", "Kh")


def open_table(db: str, meter_db: str) -> MaderoTable:
    journal = Journal(db, CONFIG.table_id, "madero")
    staff = StaffRegistry(journal, pin_cost=2**4)  # a test's PIN cost, as tests/conftest.py sets in-process
    if not staff.has_supervisor():
        staff.enrol(SUPERVISOR.staff_id, "Sara Supervisora", Role.SUPERVISOR, SUPERVISOR.pin, by=None)
    if staff.get(CROUPIER.staff_id) is None:
        staff.enrol(CROUPIER.staff_id, "Ciro Croupier", Role.CROUPIER, CROUPIER.pin, by=SUPERVISOR)
    table = MaderoTable(journal, staff, config=CONFIG, meter_store=SqliteMeterStore(meter_db))
    if table.croupier is None:
        table.shift.open(CROUPIER)
    if not table.tray.is_open:  # bets need the tray
        table.tray.open({"100": 100}, CROUPIER, SUPERVISOR)
    return table


def step(t: MaderoTable, rng: random.Random, royal: bool) -> None:
    phase = t.phase
    if phase in (Phase.IDLE, Phase.BETS):
        roll = rng.random()
        box1 = t.boxes.get(1)
        if royal and (box1 is None or not box1.ante):
            t.play.place_bet(1, Bet.ANTE, 10)
        elif royal and not box1.jackpot_credits:
            t.play.place_bet(1, Bet.JACKPOT, rng.randint(1, 5))
        elif phase is Phase.BETS and roll < 0.3 and can(t.play.verify_no_va_mas):
            t.play.no_va_mas()
        elif roll < 0.4 and t.can("undo"):
            t.undo()
        else:
            box = rng.randint(1, 4)
            bet = rng.choice([Bet.ANTE, Bet.ANTE, Bet.BONUS, Bet.JACKPOT])
            amount = rng.randint(1, 5) if bet is Bet.JACKPOT else rng.choice([10, 20, 50])
            t.play.place_bet(box, bet, amount)
    elif phase is Phase.FIRST:
        if rng.random() < 0.05 and not t.betting_began():  # §37: a void only during the deal
            t.supervisor.void_round(SUPERVISOR, "misdeal", "prueba de caída")
        else:
            (t.play.fold if rng.random() < 0.2 and t.to_act != 1 else t.play.voy)(t.to_act)
    elif phase in (Phase.SECOND, Phase.THIRD):
        (t.play.bet if rng.random() < 0.5 else t.play.check)(t.to_act)
    elif phase is Phase.SETTLEMENT:
        t.play.confirm_settlement()
    else:
        target, box = t.expected_card()
        unseen = [str(c) for c in t.r.deck_pool().unseen()]
        wanted = []
        if royal and target == "board" and len(t.board) < 3:
            wanted = [c for c in ROYAL_FLOP if c in unseen]
        if royal and target == "box" and box == 1:
            wanted = [c for c in ROYAL_HOLE if c in unseen]
        t.play.key_card(wanted[0] if wanted else rng.choice([c for c in unseen if c not in ROYAL_HOLE] or unseen))


def main() -> None:
    db, meter_db, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(seed)
    t = open_table(db, meter_db)
    print(f"READY {t.journal.last_seq} {t.state_hash()}", flush=True)
    royal = rng.random() < 0.3
    while True:
        if t.phase is Phase.IDLE:
            royal = rng.random() < 0.3
        try:
            step(t, rng, royal)
        except ConsoleError:
            continue
        print(f"ACK {t.journal.last_seq} {t.journal.last_hash} {t.state_hash()}", flush=True)


if __name__ == "__main__":
    main()
