"""The progressive meter store: Carrusel sums, seeds after a royal, several processes at once."""

import multiprocessing
import sqlite3
from decimal import Decimal

import pytest

from shared.anchor import Head
from shared.madero.meter import SqliteMeterStore
from shared.madero.settlement import LinkedMeter, MeterMovement, MeterReading, share_meter

D = Decimal


@pytest.fixture
def store(tmp_path):
    s = SqliteMeterStore(tmp_path / "meters.sqlite")
    yield s
    s.close()


def test_register_contribute_pay_and_reset(store):
    store.register("T1", D(5000), None)
    store.contribute("T1", D("12.5"))
    store.pay("T1", D(500))
    assert store.read("T1") == MeterReading(D("4512.5"), D("4512.5"), D(5000))
    store.register("T1", D(5000), None)  # registering again keeps the value
    assert store.read("T1").own == D("4512.5")
    store.reset_to_seed("T1")
    assert store.read("T1").own == 5000
    assert [m["kind"] for m in store.movements("T1")] == ["reset", "payment", "contribution", "seed"]


def test_carrusel_prize_is_the_sum_and_a_royal_resets_every_linked_meter(store):
    store.register("T1", D(5000), "C")
    store.register("T2", D(10000), "C")
    store.register("T3", D(5000), None)
    store.contribute("T1", D(100))
    store.contribute("T2", D(200))
    r = store.read("T1")
    assert (r.own, r.linked_total) == (5100, 15300) and store.read("T3").linked_total == 5000
    store.apply_settlement("T1", "T1:1", r, MeterMovement(D(1), r.linked_total + 1, r.linked_total + 1, D(0), True, D(5000)))
    assert store.read("T1").own == 5000 and store.read("T2").own == 10000
    assert store.settled_reading("T1:1") == r


def test_carrusel_reading_names_each_linked_meter_and_a_straight_flush_is_spread(store):
    store.register("T1", D(5000), "C")
    store.register("T2", D(10000), "C")
    store.register("T3", D(5000), "C")
    store.contribute("T2", D(200))
    r = store.read("T1")
    assert r == MeterReading(D(5000), D(20200), D(5000),
                             (LinkedMeter("T2", D(10200), D(10000)), LinkedMeter("T3", D(5000), D(5000))))
    p = share_meter(r, D(1), [], [(1, 50)], D(1))
    # 10 % of the linked sum (§53 with §58): 20201 / 10 = 2020.1, rounded up to the chip: 2021
    assert p.paid[1].paid == 2021 and p.paid[1].exact == D("2020.1")
    store.apply_settlement("T1", "T1:1", r, p.movement)
    after = {m: store.read(m).own for m in ("T1", "T2", "T3")}
    # the sum drops by exactly the exact share: the 0.9 above it is the house's (issue 28 §2)
    assert sum(after.values()) == D(20201) - D("2020.1") and p.movement.rounding == D("0.9")
    # 2020.1 × 10200 / 20201 = 1020, 2020.1 × 5000 / 20201 = 500; T1 carries
    # 2020.1 - 1020 - 500 = 500.1 of its 5001
    assert after == {"T1": D("4500.9"), "T2": D("9180"), "T3": D("4500")}
    # each table's own log shows its contributions and its share of the prize (§54)
    assert [(m["kind"], m["amount"]) for m in store.movements("T2")][:2] == [("payment", "1020.00"),
                                                                             ("contribution", "200")]


def test_a_movement_applied_late_keeps_what_other_tables_added_since_the_reading(store):
    # The royal was valued (and journaled) at reading r; the process stopped before the meter
    # moved, and T2 settled a contribution of 7 before T1 restarted and applied it.
    store.register("T1", D(5000), "C")
    store.register("T2", D(6000), "C")
    store.contribute("T1", D(300))
    store.contribute("T2", D(400))
    r = store.read("T1")
    store.contribute("T2", D(7))
    royal = share_meter(r, D(2), [1], [], D(1))
    assert royal.paid[1].paid == 11702  # 5300 + 6400 + 2: the jackpot as it was read
    store.apply_settlement("T1", "T1:1", r, royal.movement)
    # T2's 7 came after the prize was valued: it stays, for the next jackpot
    assert (store.read("T1").own, store.read("T2").own) == (5000, 6007)
    # a straight flush valued at a reading is deducted from the meters as they are now
    r = store.read("T1")
    store.contribute("T2", D(3))
    sf = share_meter(r, D(0), [], [(1, 50)], D(1))
    store.apply_settlement("T1", "T1:2", r, sf.movement)
    after = {m: store.read(m).own for m in ("T1", "T2")}
    assert sum(after.values()) == D(11010) - sf.paid[1].exact
    assert after["T2"] == D(6010) - dict(sf.movement.others_paid)["T2"]


def test_a_royal_applied_late_never_restarts_a_meter_below_its_seed(store):
    store.register("T1", D(5000), "C")
    store.register("T2", D(5000), "C")
    store.contribute("T2", D(1000))
    r = store.read("T1")
    store.pay("T2", D(600))  # another table paid from the same money in the window
    store.apply_settlement("T1", "T1:1", r, share_meter(r, D(0), [1], [], D(1)).movement)
    assert (store.read("T1").own, store.read("T2").own) == (5000, 5000)


def test_apply_settlement_is_idempotent(store):
    store.register("T1", D(5000), None)
    r = store.read("T1")
    mv = MeterMovement(D(3), D(0), D(0), D(500), False, D(4503))
    store.apply_settlement("T1", "T1:7", r, mv)
    store.apply_settlement("T1", "T1:7", r, mv)  # replayed after a crash: no second effect
    assert store.read("T1").own == 4503
    assert store.settled_reading("T1:7") == r and store.settled_reading("T1:8") is None


def test_what_a_held_block_applied_is_undone_when_it_fails(store):
    store.register("T1", D(5000), None)
    r = store.read("T1")
    with pytest.raises(RuntimeError):
        with store.hold():
            store.apply_settlement("T1", "T1:1", r, MeterMovement(D(3), D(0), D(0), D(0), False, D(5003)))
            assert store.read("T1").own == 5003
            raise RuntimeError("the journal write failed")
    assert store.read("T1").own == 5000 and store.settled_reading("T1:1") is None


def _contribute_many(path, meter_id, n):
    s = SqliteMeterStore(path)
    for i in range(n):
        with s.hold():
            r = s.read(meter_id)
            s.apply_settlement(meter_id, f"{meter_id}:{i}", r, MeterMovement(D(1), D(0), D(0), D(0), False, r.own + 1))
        s.contribute(meter_id, D("0.5"))
    s.close()


def test_two_processes_update_linked_meters_without_losing_a_contribution(tmp_path):
    path = tmp_path / "meters.sqlite"
    s = SqliteMeterStore(path)
    s.register("A", D(5000), "C")
    s.register("B", D(5000), "C")
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_contribute_many, args=(path, m, 60)) for m in ("A", "B")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert s.read("A").own == s.read("B").own == D(5090)
    assert s.read("A").linked_total == D(10180)
    s.close()


def test_two_connections_see_each_others_writes(tmp_path):
    a, b = SqliteMeterStore(tmp_path / "m.sqlite"), SqliteMeterStore(tmp_path / "m.sqlite")
    a.register("T1", D(5000), None)
    b.contribute("T1", D(7))
    assert a.read("T1").own == 5007
    a.close()
    b.close()


def test_a_tables_head_is_kept_as_the_head_given(tmp_path, store):
    """The store takes the table's ``Head`` whole (it took it apart into seven arguments)."""
    store.write_head("MPB-01", Head("a" * 64, 7, 3, "C1", fallback=True))
    with sqlite3.connect(tmp_path / "meters.sqlite") as conn:
        row = conn.execute("SELECT head_hash, entry_count, last_round, croupier, fallback FROM table_heads "
                           "WHERE table_id = 'MPB-01'").fetchone()
    assert row == ("a" * 64, 7, 3, "C1", 1)
