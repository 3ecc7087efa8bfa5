"""The progressive meter store: Carrusel sums, seeds after a royal, several processes at once."""

import multiprocessing
from decimal import Decimal

import pytest

from shared.madero.meter import MeterChanged, SqliteMeterStore
from shared.madero.settlement import MeterMovement, MeterReading

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


def test_apply_settlement_is_idempotent_and_refuses_a_stale_reading(store):
    store.register("T1", D(5000), None)
    r = store.read("T1")
    mv = MeterMovement(D(3), D(0), D(0), D(500), False, D(4503))
    store.apply_settlement("T1", "T1:7", r, mv)
    store.apply_settlement("T1", "T1:7", r, mv)  # replayed after a crash: no second effect
    assert store.read("T1").own == 4503
    with pytest.raises(MeterChanged):
        store.apply_settlement("T1", "T1:8", r, mv)


def _contribute_many(path, meter_id, n):
    s = SqliteMeterStore(path)
    for i in range(n):
        while True:
            r = s.read(meter_id)
            try:
                s.apply_settlement(meter_id, f"{meter_id}:{i}", r,
                                   MeterMovement(D(1), D(0), D(0), D(0), False, r.own + 1))
                break
            except MeterChanged:
                continue
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
