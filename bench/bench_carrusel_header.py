"""How soon a linked table's header shows another table's contribution (issue 17). Prints numbers only.

    .venv/bin/python bench/bench_carrusel_header.py [--server URL] [--samples 30]

A Madero console (headless, Textual's test driver) runs table MPB-01 of Carrusel «BENCH» on
the server; a second process, table MPB-02 of the same Carrusel, adds a contribution at a
random moment (0.2–0.8 s apart) and notes the wall time its transaction committed. The
console's header is watched every 5 ms; the delay is from that commit to the header showing
the new linked jackpot. Target: within 1 s. The server gets a schema of its own, dropped after.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
import uuid
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CARRUSEL = "BENCH"


def contributor(url: str, samples: int, go, stamps) -> None:
    """Table MPB-02: one contribution per ``go``, its commit time sent on ``stamps``."""
    from shared.madero.meter_pg import PostgresMeterStore

    store = PostgresMeterStore(url)
    store.register("MPB-02", Decimal(5000), CARRUSEL)
    rng = random.Random(7)
    for n in range(samples):
        go.get()
        time.sleep(rng.uniform(0.2, 0.8))
        store.deliver_contribution("MPB-02", f"MPB-02:{n + 1}:bench", Decimal(1))
        stamps.put(time.time())
    store.close()


def prepare(db: Path, config, url: str) -> None:
    from shared.journal import Journal
    from shared.madero.meter_pg import PostgresMeterStore
    from shared.madero.table import MaderoTable
    from shared.actor import Role
    from shared.staff import Credentials, StaffRegistry

    journal = Journal(db, config.table_id, "madero")
    staff = StaffRegistry(journal)
    staff.enrol("S1", "Sara", Role.SUPERVISOR, "123456", by=None)
    staff.enrol("C1", "Carlos", Role.CROUPIER, "5678", by=Credentials("S1", "123456"))
    store = PostgresMeterStore(url)
    MaderoTable(journal, staff, config=config, meter_store=store).shift.open(Credentials("C1", "5678"))
    store.close()
    journal.close()


async def measure(url: str, samples: int, workdir: Path) -> list[float]:
    from madero_tui.app import make_app
    from shared.madero.config import MaderoTableConfig
    from shared.madero.meter_pg import PostgresMeterStore
    from tui_common.options import LaunchOptions

    config = MaderoTableConfig.from_mapping(dict(table_id="MPB-01", minimum=10, maximum=500,
                                                 jackpot_mode="progressive", contribution_percent=50,
                                                 carrusel_id=CARRUSEL))
    db = workdir / "mpb01.sqlite"
    prepare(db, config, url)
    ctx = multiprocessing.get_context("spawn")
    go, stamps = ctx.Queue(), ctx.Queue()
    child = ctx.Process(target=contributor, args=(url, samples, go, stamps))
    child.start()
    app = make_app(LaunchOptions(db=db), config=config, meter_store=PostgresMeterStore(url), clock=lambda: "21:14")
    app.duty_confirmed = True
    delays = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await asyncio.sleep(1.0)  # MPB-02's seed arrives
        header = app.table_screen.header
        for _ in range(samples):
            before = header.view.jackpot
            go.put(None)
            while header.view.jackpot == before:
                await asyncio.sleep(0.005)
            seen = time.time()
            delays.append(seen - stamps.get(timeout=10))
    child.join(30)
    return delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--samples", type=int, default=30)
    args = parser.parse_args()
    import psycopg

    schema = f"carrusel_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.server, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    url = f"{args.server}?options=-csearch_path%3D{schema}"
    try:
        with tempfile.TemporaryDirectory() as tmp:
            delays = asyncio.run(measure(url, args.samples, Path(tmp)))
    finally:
        with psycopg.connect(args.server, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")
    ms = sorted(d * 1000 for d in delays)
    print(f"contribution on MPB-02 → MPB-01's header, {len(ms)} samples (poll every 0.5 s):")
    print(f"  median {statistics.median(ms):.0f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.0f} ms, "
          f"max {ms[-1]:.0f} ms, min {ms[0]:.0f} ms")


if __name__ == "__main__":
    main()
