"""The progressive meter store: Carrusel sums, seeds after a royal, several processes at once."""

import multiprocessing
from decimal import Decimal

import pytest

from shared.madero.meter import MeterChanged, SqliteMeterStore
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
    assert p.paid[1].paid == 2020  # 10 % of the linked sum (§53 with §58)
    store.apply_settlement("T1", "T1:1", r, p.movement)
    after = {m: store.read(m).own for m in ("T1", "T2", "T3")}
    assert sum(after.values()) == D(20201) - 2020  # the sum drops by exactly what was paid
    # 2020 × 10200 / 20201 = 1019.94…, 2020 × 5000 / 20201 = 499.97…; T1 carries 500.09
    assert after == {"T1": D("4500.91"), "T2": D("9180.06"), "T3": D("4500.03")}
    # each table's own log shows its contributions and its share of the prize (§54)
    assert [(m["kind"], m["amount"]) for m in store.movements("T2")][:2] == [("payment", "1019.94"),
                                                                             ("contribution", "200")]


def test_a_linked_meter_that_moved_makes_a_straight_flush_read_again(store):
    store.register("T1", D(5000), "C")
    store.register("T2", D(5000), "C")
    r = store.read("T1")
    store.contribute("T2", D(1))  # the other table settled meanwhile
    p = share_meter(r, D(0), [], [(1, 50)], D(1))
    with pytest.raises(MeterChanged):
        store.apply_settlement("T1", "T1:1", r, p.movement)
    quiet = share_meter(r, D(1), [], [], D(1))  # no linked prize: the other meter does not matter
    store.apply_settlement("T1", "T1:1", r, quiet.movement)
    assert store.read("T1").own == 5001


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
