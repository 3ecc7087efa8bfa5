"""Load test of the Carrusel on PostgreSQL (issue 17): N table processes × M rounds on one Carrusel.

    .venv/bin/python bench/bench_carrusel.py [--tables 40] [--rounds 500] [--kill-every 2.0]
        [--royal 0.02] [--straight-flush 0.03] [--server URL] [--keep] [--seed 1]

Each table is its own process (a live progressive Madero table, its own journal, the server's
``PostgresMeterStore``) and plays keyed rounds as a croupier would: bets with box 1 on the
Jackpot, «No va más», decisions, cards, settlement. Some rounds key a royal flush or a straight
flush for box 1, so the linked jackpot pays and restarts. About every ``--kill-every`` seconds
one running table process is SIGKILLed at whatever it was doing and started again: it restores
from its journal and goes on until its journal holds M settled rounds.

Afterwards it checks, on the server and against every journal:
- every meter equals the sum of its movements, and the linked jackpot the sum of the whole history;
- each table's contributions and prizes on the server equal those its journal records, round by
  round key: every journaled settlement applied exactly once, none that no journal holds;
- ``journal verify --server``: every journal holds the head its table last wrote to the server.
It prints the settlement latency the server adds (the time a settlement spends in the store's
calls, lock waits included: median, p99) and contributions applied per second.

The run uses a fresh schema of ``--server`` (dropped at the end unless ``--keep``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

from bench_journal import percentile

from shared.errors import ConsoleError
from shared.journal import Journal
from shared.madero.config import MaderoTableConfig
from shared.madero.meter_pg import PostgresMeterStore
from shared.madero.settlement import Bet
from shared.madero.table import MaderoTable, Phase
from shared.madero.table import commands
from shared.actor import Role
from shared.staff import Credentials, StaffRegistry

CARRUSEL = "BENCH"
SUPERVISOR = Credentials("S1", "258025")
CROUPIER = Credentials("C1", "147036")
FLUSH_BOARD = ("Th", "Jh", "Qh")
HOLES = {"royal": ("Ah", "Kh"), "straight_flush": ("9h", "8h")}
RIGGED = {card for hole in HOLES.values() for card in hole} | set(FLUSH_BOARD)


def config(table_id: str) -> MaderoTableConfig:
    return MaderoTableConfig.from_mapping(dict(table_id=table_id, minimum=10, maximum=500,
                                               jackpot_mode="progressive", contribution_percent=20,
                                               carrusel_id=CARRUSEL))


# --- one table process -----------------------------------------------------------------------


class TimedStore:
    """The server's store, timing every call the table makes to it (``hold()``'s entry, which
    waits for the Carrusel's lock, and its exit, the commit): the latency the server adds."""

    def __init__(self, store: PostgresMeterStore) -> None:
        self._store = store
        self.spent = 0.0
        self.waited = 0.0
        """Of ``spent``: entering ``hold()``, i.e. waiting for the other tables' settlements."""

    def _timed(self, call: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        try:
            return call()
        finally:
            self.spent += time.perf_counter() - start

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        held = self._store.hold()
        start = time.perf_counter()
        self._timed(held.__enter__)
        self.waited += time.perf_counter() - start
        try:
            yield
        except BaseException as exc:
            if not self._timed(lambda exc=exc: held.__exit__(type(exc), exc, exc.__traceback__)):
                raise
        else:
            self._timed(lambda: held.__exit__(None, None, None))

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._store, name)
        if not callable(attribute):
            return attribute
        return lambda *args, **kwargs: self._timed(lambda: attribute(*args, **kwargs))


def open_table(db: Path, table_id: str, url: str) -> tuple[MaderoTable, TimedStore]:
    journal = Journal(db, table_id, "madero")
    staff = StaffRegistry(journal)
    if not staff.has_supervisor():
        staff.enrol(SUPERVISOR.staff_id, "Sara Supervisora", Role.SUPERVISOR, SUPERVISOR.pin, by=None)
    if staff.get(CROUPIER.staff_id) is None:
        staff.enrol(CROUPIER.staff_id, "Ciro Croupier", Role.CROUPIER, CROUPIER.pin, by=SUPERVISOR)
    store = TimedStore(PostgresMeterStore(url))
    table = MaderoTable(journal, staff, config=config(table_id), meter_store=store)
    if table.croupier is None:
        table.shift.open(CROUPIER)
    if not table.tray.is_open:
        table.tray.open("1000x100", CROUPIER, SUPERVISOR)  # a live table takes bets only with it
    return table, store


def settled_rounds(journal: Journal) -> int:
    # Through the journal's reader: a row holds its type as a code since format 5, so a query
    # on the type's name counted none and a restarted table played its rounds all over again.
    return sum(1 for event in journal.events() if event.type == "round_settled")


def step(t: MaderoTable, rng: random.Random, rigged: str | None) -> None:
    """One croupier's command; ``rigged``: this round's box 1 gets a royal or straight flush."""
    phase = t.phase
    if phase in (Phase.IDLE, Phase.BETS):
        box1 = t.boxes.get(1)
        if box1 is None or not box1.ante:
            t.play.place_bet(1, Bet.ANTE, 10)
        elif not box1.jackpot_credits:
            t.play.place_bet(1, Bet.JACKPOT, rng.randint(1, 5))
        elif rng.random() < 0.5 and 2 not in t.boxes:
            t.play.place_bet(2, Bet.ANTE, rng.choice([10, 20, 50]))
        else:
            t.play.no_va_mas()
    elif phase is Phase.FIRST:
        (t.play.fold if rng.random() < 0.2 and t.to_act != 1 else t.play.voy)(t.to_act)
    elif phase in (Phase.SECOND, Phase.THIRD):
        (t.play.bet if rng.random() < 0.5 else t.play.check)(t.to_act)
    elif phase is Phase.SETTLEMENT:
        t.play.confirm_settlement()
    else:
        target, box = t.expected_card()
        unseen = [str(c) for c in t.r.deck_pool().unseen()]
        wanted: list[str] = []
        if rigged and target == "board" and len(t.board) < 3:
            wanted = [c for c in FLUSH_BOARD if c in unseen]
        if rigged and target == "box" and box == 1:
            wanted = [c for c in HOLES[rigged] if c in unseen]
        t.play.key_card(wanted[0] if wanted else rng.choice([c for c in unseen if c not in RIGGED] or unseen))


def die_in_the_prize_window(chance: float, rng: random.Random, record: Path) -> None:
    """SIGKILL this table process, at ``chance``, right after the server answers a prize claim
    and before the table journals the prize: the window where a prize was paid twice (issue 27)."""
    real = commands.claim_prize

    def claim(*args: Any, **kwargs: Any) -> Any:
        reading = real(*args, **kwargs)
        if rng.random() < chance:
            with open(record, "a") as out:
                out.write(f"{args[2]}\n")
            os.kill(os.getpid(), signal.SIGKILL)
        return reading

    commands.claim_prize = claim


def play(db: Path, table_id: str, url: str, rounds: int, seed: int, royal: float, straight_flush: float,
         latencies: Path, prize_kill: float) -> None:
    rng = random.Random(seed)
    die_in_the_prize_window(prize_kill, random.Random(seed + 1), latencies.with_suffix(".prizekills"))
    table, store = open_table(db, table_id, url)
    done = settled_rounds(table.journal)
    rigged: str | None = None
    with open(latencies, "a") as out:
        while done < rounds:
            if table.phase is Phase.IDLE:
                roll = rng.random()
                rigged = "royal" if roll < royal else "straight_flush" if roll < royal + straight_flush else None
            settling = table.phase is Phase.SETTLEMENT
            store.spent, store.waited, start = 0.0, 0.0, time.perf_counter()
            try:
                step(table, rng, rigged)
            except ConsoleError:
                continue
            if settling:
                done += 1
                out.write(f"{store.spent:.6f} {store.waited:.6f} {time.perf_counter() - start:.6f}\n")
                out.flush()


# --- the run ---------------------------------------------------------------------------------


def schema_url(server: str, schema: str) -> str:
    return f"{server}{'&' if '?' in server else '?'}options=-csearch_path%3D{schema}"


class Tables:
    """The N table processes: started, killed at random, started again until each is done."""

    def __init__(self, args: argparse.Namespace, url: str, workdir: Path) -> None:
        self.args, self.url, self.workdir = args, url, workdir
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.starts: dict[str, int] = {}
        self.kills = 0

    def table_ids(self) -> list[str]:
        return [f"M{n:02d}" for n in range(1, self.args.tables + 1)]

    def start(self, table_id: str) -> None:
        self.starts[table_id] = self.starts.get(table_id, 0) + 1
        a = self.args
        # Each start of each table deals its own cards, the same ones from one --seed to the next.
        seed = (a.seed * 1000 + int(table_id[1:])) * 1000 + self.starts[table_id]
        with open(self.workdir / f"{table_id}.err", "ab") as err:
            self.procs[table_id] = subprocess.Popen(
                [sys.executable, __file__, "--table-process", table_id, "--server", self.url,
                 "--dir", str(self.workdir), "--rounds", str(a.rounds), "--royal", str(a.royal),
                 "--straight-flush", str(a.straight_flush), "--prize-kill", str(a.prize_kill),
                 "--seed", str(seed)], stderr=err)

    def run(self, rng: random.Random) -> None:
        for table_id in self.table_ids():
            self.start(table_id)
        next_kill = self._next_kill(rng)
        while self.procs:
            time.sleep(0.05)
            for table_id, proc in list(self.procs.items()):
                code = proc.poll()
                if code is None:
                    continue
                del self.procs[table_id]
                if code == -signal.SIGKILL:  # it died in the prize window: started again
                    self.start(table_id)
                elif code != 0:
                    raise SystemExit(f"table {table_id} failed (exit {code}): see {self.workdir / table_id}.err")
            if self.procs and time.monotonic() >= next_kill:
                table_id = rng.choice(sorted(self.procs))
                self.procs.pop(table_id).kill()
                self.kills += 1
                self.start(table_id)
                next_kill = self._next_kill(rng)

    def _next_kill(self, rng: random.Random) -> float:
        every = self.args.kill_every
        return time.monotonic() + rng.expovariate(1 / every) if every else float("inf")


def journal_books(db: Path) -> dict[str, Any]:
    """What one journal says it owes and paid the linked jackpot, by round key."""
    refs: dict[str, tuple[Decimal, Decimal]] = {}
    with Journal.open_existing(db) as journal:
        for event in journal.events():
            if event.type != "round_settled" or not event.payload.get("meter_ref"):
                continue
            fallback = event.payload.get("fallback")
            if fallback:  # §48: settled on the fixed paytable, its contribution owed and delivered later
                refs[event.payload["meter_ref"]] = (Decimal(fallback["contribution"]), Decimal(0))
                continue
            meter = event.payload["settlement"]["meter"]
            prize = (Decimal(meter["royal_prize"]) if meter["royal_hit"] else Decimal(0)) + Decimal(
                meter["straight_flush_paid"])
            refs[event.payload["meter_ref"]] = (Decimal(meter["contribution"]), prize)
    return refs


def fallback_rounds(db: Path) -> int:
    """Rounds the table settled on the §48 fixed paytable (the server's lock or connection failed)."""
    with Journal.open_existing(db) as journal:
        return sum(1 for event in journal.events() if event.type == "round_settled" and event.payload.get("fallback"))


def check(url: str, workdir: Path, table_ids: list[str]) -> list[str]:
    """Every disagreement between the server and itself or the journals (empty: all agree)."""
    import psycopg

    from madero_tui.cli import main as madero

    problems: list[str] = []
    headless: list[str] = []
    with psycopg.connect(url) as conn:
        for meter_id, value, total in conn.execute(
                "SELECT m.meter_id, m.value, COALESCE(SUM(v.amount), 0) FROM meters m "
                "LEFT JOIN movements v USING (meter_id) GROUP BY m.meter_id, m.value").fetchall():
            if value != total:
                problems.append(f"meter {meter_id}: value {value}, its movements sum to {total}")
        jackpot, history = conn.execute(
            "SELECT (SELECT SUM(value) FROM meters WHERE carrusel_id = %s), "
            "(SELECT SUM(amount) FROM movements WHERE carrusel_id = %s)", (CARRUSEL, CARRUSEL)).fetchone()
        if jackpot != history:
            problems.append(f"linked jackpot {jackpot}, its history sums to {history}")
        for table_id in table_ids:
            books = journal_books(workdir / f"{table_id}.sqlite3")
            applied = {key for (key,) in conn.execute("SELECT key FROM settlements WHERE meter_id = %s "
                                                      "AND round_id IS NOT NULL AND round_id > 0", (table_id,))}
            if missing := set(books) - applied:
                problems.append(f"{table_id}: {len(missing)} journaled rounds never applied, e.g. {min(missing)}")
            if extra := applied - set(books):
                problems.append(f"{table_id}: {len(extra)} rounds applied that the journal does not hold")
            contributed, prizes = conn.execute(
                "SELECT COALESCE(SUM(amount) FILTER (WHERE kind = 'contribution'), 0), COALESCE(SUM(prize), 0) "
                "FROM movements WHERE meter_id = %s", (table_id,)).fetchone()
            owed = sum((c for c, _ in books.values()), Decimal(0))
            paid = sum((p for _, p in books.values()), Decimal(0))
            if (contributed, prizes) != (owed, paid):
                problems.append(f"{table_id}: server has contributions {contributed} and prizes {prizes}; "
                                f"the journal {owed} and {paid}")
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                code = madero(["journal", "verify", "--db", str(workdir / f"{table_id}.sqlite3"),
                               "--server", url, "--json"])
            if code == 2:
                headless.append(table_id)
            elif code != 0:
                problems.append(f"{table_id}: journal verify --server exit {code}: {out.getvalue().strip()}")
        for ref, journaled, given in prizes_given(conn):
            if journaled != given:
                problems.append(f"{ref}: prize {journaled}, the meters gave {given}")
    if headless:
        problems.append(f"{len(headless)} tables wrote no head to the server: {', '.join(headless)}")
    return problems


def prizes_given(conn: Any) -> list[tuple[str, Decimal, Decimal]]:
    """Each prize the server paid (its round key, the prize) beside what the meters gave for it:
    a royal what they held as it was debited, a straight flush its deduction (issue 27: a prize
    valued on money another prize had taken gave less than it paid)."""
    rows = conn.execute(
        "SELECT s.key, p.prize, CASE WHEN p.kind = 'royal' THEN SUM(v.value_after - v.amount) ELSE -SUM(v.amount) END "
        "FROM settlements s JOIN movements p ON p.key IN (s.key || ':royal', s.key || ':straight_flush') "
        "JOIN movements v ON v.key LIKE s.key || ':' || p.kind || '%%' "
        "OR (p.kind = 'royal' AND v.key LIKE s.key || ':reset:%%') "
        "WHERE s.reading IS NOT NULL AND v.kind <> 'released' GROUP BY s.key, p.kind, p.prize").fetchall()
    return [(ref, Decimal(prize), Decimal(given)) for ref, prize, given in rows]


def figures(url: str, workdir: Path, table_ids: list[str], elapsed: float) -> None:
    import psycopg

    server, waited, total = [], [], []
    for table_id in table_ids:
        for line in (workdir / f"{table_id}.lat").read_text().split("\n"):
            if line:
                for column, value in zip((server, waited, total), line.split(), strict=True):
                    column.append(float(value))
    with psycopg.connect(url) as conn:
        contributions, royals, flushes, prize = conn.execute(
            "SELECT COUNT(*) FILTER (WHERE kind = 'contribution'), COUNT(*) FILTER (WHERE kind = 'royal'), "
            "COUNT(prize) FILTER (WHERE kind = 'straight_flush'), COALESCE(SUM(prize), 0) FROM movements").fetchone()
        given = prizes_given(conn)
    fallbacks = sum(fallback_rounds(workdir / f"{table_id}.sqlite3") for table_id in table_ids)
    window = sum(len(path.read_text().split()) for path in workdir.glob("*.prizekills"))
    print(f"settlements timed: {len(server)}; royals {royals}, straight flushes {flushes}, prizes paid {prize}; "
          f"rounds settled on the §48 fixed paytable: {fallbacks}")
    print(f"kills in the prize window: {window}; prizes paid {sum(p for _, p, _ in given)} against "
          f"{sum(g for _, _, g in given)} the meters gave for them")
    print(f"server's part of a settlement: median {percentile(server, 0.5) * 1000:.1f} ms, "
          f"p99 {percentile(server, 0.99) * 1000:.1f} ms")
    print(f"  of which waiting for the Carrusel's lock: median {percentile(waited, 0.5) * 1000:.1f} ms, "
          f"p99 {percentile(waited, 0.99) * 1000:.1f} ms")
    print(f"whole settlement (confirm_settlement): median {percentile(total, 0.5) * 1000:.1f} ms, "
          f"p99 {percentile(total, 0.99) * 1000:.1f} ms")
    print(f"contributions applied: {contributions} in {elapsed:.1f} s = {contributions / elapsed:.1f}/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--kill-every", type=float, default=2.0, metavar="S",
                        help="mean seconds between two kills (0: none)")
    parser.add_argument("--royal", type=float, default=0.02, help="share of rounds rigged for a royal flush")
    parser.add_argument("--straight-flush", type=float, default=0.03, help="share rigged for a straight flush")
    parser.add_argument("--prize-kill", type=float, default=0.3, metavar="P",
                        help="chance a table dies between the server's answer to its prize claim and its journal")
    parser.add_argument("--server", default=os.environ.get("MADERO_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=None, help="where the journals go (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the schema and the journals")
    parser.add_argument("--table-process", metavar="ID", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.table_process:
        play(args.dir / f"{args.table_process}.sqlite3", args.table_process, args.server, args.rounds, args.seed,
             args.royal, args.straight_flush, args.dir / f"{args.table_process}.lat", args.prize_kill)
        return
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    workdir = Path(tempfile.mkdtemp(prefix="bench-carrusel-", dir=args.dir))
    with psycopg.connect(args.server, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    url = schema_url(args.server, schema)
    tables = Tables(args, url, workdir)
    print(f"{args.tables} tables × {args.rounds} rounds, a kill every {args.kill_every} s on average; "
          f"schema {schema}, journals in {workdir}")
    start = time.perf_counter()
    problems: list[str] = []
    try:
        tables.run(random.Random(args.seed))
        elapsed = time.perf_counter() - start
        print(f"played in {elapsed:.1f} s; {tables.kills} kills, each followed by a restart")
        figures(url, workdir, tables.table_ids(), elapsed)
        problems = check(url, workdir, tables.table_ids())
        print("checks: all agree" if not problems else "checks FAILED:\n  " + "\n  ".join(problems))
    finally:
        for proc in tables.procs.values():
            proc.kill()
        if not args.keep:
            with psycopg.connect(args.server, autocommit=True) as admin:
                admin.execute(f"DROP SCHEMA {schema} CASCADE")
            shutil.rmtree(workdir, ignore_errors=True)
    if problems:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
