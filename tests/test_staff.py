"""Staff and PINs: scrypt storage, enrolment rules, lockout, roles."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from shared.errors import AuthError, InputError
from shared.journal import Journal
from shared.actor import Actor, Role
from shared.staff import Credentials, StaffRegistry

SUP_PIN = "73915046"
CRO_PIN = "482913"


class FakeClock:
    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def registry(tmp_path: Path, clock: FakeClock) -> StaffRegistry:
    journal = Journal(tmp_path / "table.sqlite3", "T1", "midi")
    staff = StaffRegistry(journal, clock=clock)
    staff.enrol("S1", "Ana Supervisora", Role.SUPERVISOR, SUP_PIN, by=None)
    supervisor = staff.verify(Credentials("S1", SUP_PIN))
    staff.enrol("C1", "Carlos Croupier", Role.CROUPIER, CRO_PIN, by=supervisor)
    return staff


def test_first_supervisor_then_only_supervisors_enrol(tmp_path: Path) -> None:
    staff = StaffRegistry(Journal(tmp_path / "t.sqlite3", "T1", "midi"))
    assert not staff.has_supervisor()
    with pytest.raises(AuthError, match="se requiere un supervisor"):
        staff.enrol("C1", "Carlos", Role.CROUPIER, CRO_PIN, by=None)
    staff.enrol("S1", "Ana", "supervisor", SUP_PIN, by=None)
    assert staff.has_supervisor()
    with pytest.raises(AuthError, match="se requiere un supervisor"):
        staff.enrol("S2", "Bea", Role.SUPERVISOR, "111111", by=None)
    # An Actor that claims to be a supervisor but is not registered as one is refused.
    with pytest.raises(AuthError):
        staff.enrol("C2", "Dani", Role.CROUPIER, "2222", by=Actor("X9", Role.SUPERVISOR))
    staff.enrol("C1", "Carlos", Role.CROUPIER, CRO_PIN, by=Credentials("S1", SUP_PIN))
    croupier = staff.verify(Credentials("C1", CRO_PIN))
    with pytest.raises(AuthError) as info:
        staff.enrol("C2", "Dani", Role.CROUPIER, "2222", by=croupier)
    assert info.value.message("en") == "a supervisor is required"
    with pytest.raises(AuthError):
        staff.enrol("C2", "Dani", Role.CROUPIER, "2222", by=Credentials("C1", CRO_PIN))
    assert [r.staff_id for r in staff.all()] == ["C1", "S1"]


def test_enrolment_is_journaled_without_the_pin(registry: StaffRegistry) -> None:
    events = list(registry.journal.events())
    assert [e.type for e in events] == ["staff_enrolled", "staff_credentials"] * 2
    assert events[0].payload == {"staff_id": "S1", "name": "Ana Supervisora", "role": "supervisor", "by": None}
    assert events[2].payload["by"] == "S1" and events[2].staff_id == "S1" and events[2].role == "supervisor"
    # The credential is a keyed digest of the stored PIN: neither the PIN nor its hash.
    [(stored,)] = registry.journal.query("SELECT pin_hash FROM staff WHERE staff_id = 'S1'")
    assert list(events[1].payload["credentials"]) == ["S1"] and stored.hex() not in str(events[1].payload)
    for event in events:
        assert SUP_PIN not in repr(event) and CRO_PIN not in repr(event)
    assert registry.journal.verify().ok


def test_pin_is_stored_only_as_salted_scrypt(registry: StaffRegistry) -> None:
    registry.enrol("C2", "Otra", Role.CROUPIER, CRO_PIN, by=Actor("S1", Role.SUPERVISOR))
    rows = registry.journal.query("SELECT staff_id, salt, pin_hash, scrypt_n, scrypt_r, scrypt_p FROM staff")
    by_id = {r[0]: r[1:] for r in rows}
    assert by_id["C1"][2:] == (registry.pin_cost, 8, 1)
    assert len(by_id["C1"][0]) == 16 and len(by_id["C1"][1]) == 33  # format byte + HMAC(pepper, scrypt)
    # Same PIN, different salt, different hash.
    assert by_id["C1"][0] != by_id["C2"][0] and by_id["C1"][1] != by_id["C2"][1]
    path = registry.journal.path

    def assert_no_pin_in_files() -> None:
        for file in [path, *path.parent.glob(path.name + "-*")]:  # the database and its WAL
            data = file.read_bytes()
            for pin in (SUP_PIN, CRO_PIN):
                assert pin.encode() not in data
                assert pin.encode("utf-16-le") not in data

    assert_no_pin_in_files()
    registry.journal.close()  # checkpoints the WAL into the main file
    assert_no_pin_in_files()


def test_the_pin_cost_is_recorded_per_hash_and_production_keeps_2_to_the_14(
        registry: StaffRegistry, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests hash PINs at a lower cost (tests/conftest.py); a hash keeps its own cost, which
    its check uses, so a registry at another cost still checks it."""
    assert registry.pin_cost == 2**4
    registry.journal.close()
    monkeypatch.undo()  # the module's own cost, as the console runs it
    journal = Journal(registry.journal.path, "T1", "midi")
    production = StaffRegistry(journal)
    assert production.pin_cost == 2**14
    assert production.verify(Credentials("C1", CRO_PIN)).staff_id == "C1"  # hashed at 2**4, checked at it
    production.enrol("C2", "Otra", Role.CROUPIER, "2468", by=Credentials("S1", SUP_PIN))
    costs = dict(journal.query("SELECT staff_id, scrypt_n FROM staff"))
    assert costs == {"S1": 2**4, "C1": 2**4, "C2": 2**14}
    assert StaffRegistry(journal, pin_cost=2**4).verify(Credentials("C2", "2468")).staff_id == "C2"


def test_pin_format(registry: StaffRegistry) -> None:
    sup = Actor("S1", Role.SUPERVISOR)
    for bad in ("123", "123456789", "12a4", "１２３４", " 1234", ""):
        with pytest.raises(InputError) as info:
            registry.enrol("C9", "Nueva", Role.CROUPIER, bad, by=sup)
        assert "4 a 8 dígitos" in info.value.message("es")
        assert "4 to 8 digits" in info.value.message("en")
        if bad.strip():
            assert bad not in str(info.value)
    assert registry.get("C9") is None
    registry.enrol("C9", "Nueva", Role.CROUPIER, "0000", by=sup)
    registry.enrol("C10", "Nueva", Role.CROUPIER, "01234567", by=sup)


def test_bad_ids_and_duplicates(registry: StaffRegistry) -> None:
    sup = Actor("S1", Role.SUPERVISOR)
    with pytest.raises(InputError, match="ya existe"):
        registry.enrol("C1", "Otro", Role.CROUPIER, "5555", by=sup)
    with pytest.raises(InputError):
        registry.enrol("a b", "Otro", Role.CROUPIER, "5555", by=sup)
    with pytest.raises(InputError):
        registry.enrol("C7", "  ", Role.CROUPIER, "5555", by=sup)
    # An unknown role is refused in words naming the roles (it raised a bare ValueError).
    with pytest.raises(InputError) as refused:
        registry.enrol("C7", "Otro", "jefe", "5555", by=sup)
    assert refused.value.message("es") == "«jefe»: rol desconocido (croupier, supervisor, instructor)"
    assert refused.value.message("en") == "«jefe»: unknown role (croupier, supervisor, trainer)"
    assert registry.journal.last_seq == 4  # the two enrolments and their credentials


def test_credentials_never_show_the_pin() -> None:
    creds = Credentials("C1", CRO_PIN)
    assert CRO_PIN not in repr(creds) and CRO_PIN not in str(creds)
    assert "C1" in repr(creds)


def _hms(epoch: float) -> str:
    return datetime.fromtimestamp(epoch).astimezone().strftime("%H:%M:%S")


def test_wrong_pins_count_down_then_each_waits_longer_up_to_the_cap(registry: StaffRegistry,
                                                                      clock: FakeClock) -> None:
    """From the fifth wrong PIN in a row each next attempt waits: 15 s, doubling with each wrong
    PIN, never more than 2 minutes (issue 29 §6: no fixed lock leaves a table without a
    supervisor able to sign). The delay is journaled and survives a restart."""
    for _ in range(4):
        with pytest.raises(AuthError) as info:
            registry.verify(Credentials("C1", "000000"))
        assert info.value.message("es") == "ID o PIN incorrecto"
        assert info.value.message("en") == "wrong ID or PIN"
        assert "000000" not in str(info.value)
    with pytest.raises(AuthError) as info:
        registry.verify(Credentials("C1", "000000"))
    assert info.value.message("es") == f"ID o PIN incorrecto; cuenta bloqueada hasta {_hms(clock.now + 15)}"
    # Waiting: even the right PIN is refused (and not counted), across a restart.
    registry.journal.close()
    reopened = StaffRegistry(Journal(registry.journal.path, "T1", "midi"), clock=clock)
    clock.now += 14
    with pytest.raises(AuthError) as info:
        reopened.verify(Credentials("C1", CRO_PIN))
    assert info.value.message("en") == f"account locked until {_hms(clock.now + 1)}"
    assert reopened.verify(Credentials("S1", SUP_PIN)).role is Role.SUPERVISOR  # another account is not affected
    waits = []
    for _ in range(5):  # each wrong PIN after a delay waits twice as long, up to the cap
        clock.now = reopened.get("C1").locked_until or clock.now  # type: ignore[union-attr]
        with pytest.raises(AuthError):
            reopened.verify(Credentials("C1", "000000"))
        waits.append(reopened.get("C1").locked_until - clock.now)  # type: ignore[union-attr, operator]
    assert waits == [30, 60, 120, 120, 120]
    assert reopened.get("C1").failed_attempts == 10  # type: ignore[union-attr]
    clock.now += 120
    assert reopened.verify(Credentials("C1", CRO_PIN)) == Actor("C1", Role.CROUPIER)
    record = reopened.get("C1")
    assert record is not None and record.failed_attempts == 0 and record.locked_until is None
    events = [e.type for e in reopened.journal.events()]
    assert events.count("account_locked") == 6 and events[-1] == "staff_attempts_cleared"


def test_no_run_of_wrong_pins_keeps_a_table_without_a_supervisor(tmp_path: Path, clock: FakeClock) -> None:
    """Ten wrong PINs for each of a table's two supervisors (issue 29 §6: they were both locked
    for 15 minutes): each can sign again within the cap, and either lifts the other's delay."""
    staff = StaffRegistry(Journal(tmp_path / "t.sqlite3", "T1", "midi"), clock=clock)
    staff.enrol("S1", "Ana", Role.SUPERVISOR, SUP_PIN, by=None)
    staff.enrol("S2", "Bea", Role.SUPERVISOR, "246813", by=Credentials("S1", SUP_PIN))
    for _ in range(10):
        for who in ("S1", "S2"):
            clock.now = max(clock.now, staff.get(who).locked_until or 0)  # type: ignore[union-attr]
            with pytest.raises(AuthError):
                staff.verify(Credentials(who, "000000"))
    start = clock.now
    assert all(staff.get(who).locked_until <= start + 120 for who in ("S1", "S2"))  # type: ignore[union-attr, operator]
    clock.now = staff.get("S2").locked_until  # type: ignore[union-attr, assignment]
    staff.unlock("S1", by=Credentials("S2", "246813"), reason="intentos ajenos")
    assert staff.verify(Credentials("S1", SUP_PIN), require=Role.SUPERVISOR).staff_id == "S1"
    assert staff.journal.last_event_of("staff_unlocked").staff_id == "S2"  # type: ignore[union-attr]


def test_an_unknown_id_costs_the_same_scrypt_as_a_known_one(registry: StaffRegistry,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The time said whether an ID exists (0.6 ms against 31 ms): both now do one scrypt at the
    table's cost and journal one failure."""
    import shared.staff as staff_module

    calls: list[int] = []
    real = staff_module._scrypt
    monkeypatch.setattr(staff_module, "_scrypt", lambda pin, salt, n, r, p: calls.append(n) or real(pin, salt, n, r, p))
    for who in ("C1", "NOBODY", "C1", "NOBODY"):
        before = registry.journal.last_seq
        with pytest.raises(AuthError, match="ID o PIN incorrecto"):
            registry.verify(Credentials(who, "000000"))
        assert registry.journal.last_seq == before + 1
    assert calls == [registry.pin_cost] * 4


def test_a_right_pin_resets_the_count(registry: StaffRegistry) -> None:
    for _ in range(4):
        with pytest.raises(AuthError):
            registry.verify(Credentials("C1", "9999"))
    assert registry.get("C1").failed_attempts == 4  # type: ignore[union-attr]
    registry.verify(Credentials("C1", CRO_PIN))
    with pytest.raises(AuthError):
        registry.verify(Credentials("C1", "9999"))
    assert registry.get("C1").failed_attempts == 1  # type: ignore[union-attr]


def test_malformed_pin_counts_as_wrong(registry: StaffRegistry) -> None:
    with pytest.raises(AuthError, match="ID o PIN incorrecto"):
        registry.verify(Credentials("C1", "abc"))
    assert registry.get("C1").failed_attempts == 1  # type: ignore[union-attr]


def test_unknown_staff(registry: StaffRegistry) -> None:
    with pytest.raises(AuthError) as info:
        registry.verify(Credentials("Z1", "1234"))
    # The same answer as a wrong PIN: an unknown ID cannot be told from a known one.
    assert info.value.message("en") == "wrong ID or PIN"


def test_croupier_cannot_pass_as_supervisor(registry: StaffRegistry) -> None:
    with pytest.raises(AuthError) as info:
        registry.verify(Credentials("C1", CRO_PIN), require=Role.SUPERVISOR)
    assert info.value.message("es") == "se requiere un supervisor"
    assert info.value.message("en") == "a supervisor is required"
    assert registry.verify(Credentials("C1", CRO_PIN), require={Role.CROUPIER, Role.SUPERVISOR}).staff_id == "C1"
    with pytest.raises(AuthError, match="instructor"):
        registry.verify(Credentials("C1", CRO_PIN), require={Role.TRAINER})
    # A right PIN with the wrong role is not a failed attempt.
    assert registry.get("C1").failed_attempts == 0  # type: ignore[union-attr]


def test_a_role_raised_in_the_database_is_refused(registry: StaffRegistry) -> None:
    import sqlite3

    conn = sqlite3.connect(registry.journal.path)
    conn.execute("UPDATE staff SET role = 'supervisor' WHERE staff_id = 'C1'")
    conn.commit()
    with pytest.raises(AuthError, match="no coincide con su alta"):
        registry.verify(Credentials("C1", CRO_PIN), require=Role.SUPERVISOR)
    # A row slipped in without an enrolment event is refused too.
    row = conn.execute("SELECT salt, pin_hash FROM staff WHERE staff_id = 'S1'").fetchone()
    conn.execute(
        "INSERT INTO staff (staff_id, name, role, enrol_seq, salt, pin_hash, scrypt_n, scrypt_r, scrypt_p) "
        "VALUES ('X1', 'Intruso', 'supervisor', 1, ?, ?, 16384, 8, 1)",
        row,
    )
    conn.commit()
    conn.close()
    with pytest.raises(AuthError, match=r"does not match|no coincide"):
        registry.verify(Credentials("X1", SUP_PIN))
    assert registry.verify(Credentials("S1", SUP_PIN)).role is Role.SUPERVISOR
    # Nor may the forged row enrol anyone.
    with pytest.raises(AuthError):
        registry.enrol("C5", "Cómplice", Role.SUPERVISOR, "999999", by=Actor("X1", Role.SUPERVISOR))


def _table_with_staff(path: Path) -> None:
    """A Midi table's journal as the console keeps it: a supervisor, a croupier whose wrong PINs
    made them wait, and a croupier deactivated."""
    from shared.midi.config import DEFAULT_MIDI_TABLE

    staff = StaffRegistry(Journal(path, DEFAULT_MIDI_TABLE.table_id, "midi"), max_attempts=2)
    staff.enrol("S1", "Ana", Role.SUPERVISOR, SUP_PIN, by=None)
    staff.enrol("C1", "Carlos", Role.CROUPIER, CRO_PIN, by=Credentials("S1", SUP_PIN))
    staff.enrol("C2", "Dora", Role.CROUPIER, "2468", by=Credentials("S1", SUP_PIN))
    staff.deactivate("C2", by=Credentials("S1", SUP_PIN), reason="baja")
    for _ in range(2):
        with pytest.raises(AuthError):
            staff.verify(Credentials("C1", "0000"))
    staff.journal.close()


def _unpeppered(conn) -> None:  # type: ignore[no-untyped-def]
    """The supervisor's row given an unpeppered scrypt of a PIN the attacker knows (the old path)."""
    from shared.staff import _scrypt

    salt = bytes(16)
    conn.execute("UPDATE staff SET salt = ?, pin_hash = ? WHERE staff_id = 'S1'",
                 (salt, _scrypt("999999", salt, 2**4, 8, 1)))


def _croupier_pin_as_supervisor(conn) -> None:  # type: ignore[no-untyped-def]
    conn.execute("UPDATE staff SET (salt, pin_hash, scrypt_n) = (SELECT salt, pin_hash, scrypt_n FROM staff "
                 "WHERE staff_id = 'C1') WHERE staff_id = 'S1'")


@pytest.mark.parametrize("edit, who", [
    (_unpeppered, "S1"),
    (_croupier_pin_as_supervisor, "S1"),
    (lambda conn: conn.execute("UPDATE staff SET active = 1 WHERE staff_id = 'C2'"), "C2"),
    (lambda conn: conn.execute("UPDATE staff SET locked_until = NULL WHERE staff_id = 'C1'"), "C1"),
], ids=["unpeppered-hash", "croupier-hash-copied", "deactivated-made-active", "lockout-lifted"])
def test_a_staff_row_edited_in_the_file_stops_the_launch(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        edit, who) -> None:  # type: ignore[no-untyped-def]
    """The four staff-row edits of issue 29 §1 were accepted (and ``verify`` said intact): the
    staff table is now a cache of the journal, checked at every start, refused when it differs."""
    import sqlite3

    from midi_tui.cli import main

    path = tmp_path / "midi.sqlite3"
    _table_with_staff(path)
    with sqlite3.connect(path) as conn:
        edit(conn)
    assert main(["--lang", "en", "--db", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    assert f"staff registry does not match the journal (ID {who})" in err and "call a supervisor" in err
    assert main(["--db", str(path)]) == 2
    assert "llame a un supervisor" in capsys.readouterr().err
