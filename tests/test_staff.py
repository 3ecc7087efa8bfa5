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
    staff = StaffRegistry(journal, lockout_seconds=600, clock=clock)
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
    assert [e.type for e in events] == ["staff_enrolled", "staff_enrolled"]
    assert events[0].payload == {"staff_id": "S1", "name": "Ana Supervisora", "role": "supervisor", "by": None}
    assert events[1].payload["by"] == "S1" and events[1].staff_id == "S1" and events[1].role == "supervisor"
    for event in events:
        assert SUP_PIN not in repr(event) and CRO_PIN not in repr(event)
    assert registry.journal.verify().ok


def test_pin_is_stored_only_as_salted_scrypt(registry: StaffRegistry) -> None:
    registry.enrol("C2", "Otra", Role.CROUPIER, CRO_PIN, by=Actor("S1", Role.SUPERVISOR))
    rows = registry.journal.query("SELECT staff_id, salt, pin_hash, scrypt_n, scrypt_r, scrypt_p FROM staff")
    by_id = {r[0]: r[1:] for r in rows}
    assert by_id["C1"][2:] == (2**14, 8, 1)
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
    with pytest.raises(ValueError):
        registry.enrol("C7", "Otro", "jefe", "5555", by=sup)
    assert registry.journal.last_seq == 2


def test_credentials_never_show_the_pin() -> None:
    creds = Credentials("C1", CRO_PIN)
    assert CRO_PIN not in repr(creds) and CRO_PIN not in str(creds)
    assert "C1" in repr(creds)


def test_wrong_pins_count_down_then_lock(registry: StaffRegistry, clock: FakeClock) -> None:
    for _ in range(4):
        with pytest.raises(AuthError) as info:
            registry.verify(Credentials("C1", "000000"))
        assert info.value.message("es") == "ID o PIN incorrecto"
        assert info.value.message("en") == "wrong ID or PIN"
        assert "000000" not in str(info.value)
    until = datetime.fromtimestamp(clock.now + 600).astimezone().strftime("%H:%M")
    with pytest.raises(AuthError) as info:
        registry.verify(Credentials("C1", "000000"))
    assert info.value.message("es") == f"ID o PIN incorrecto; cuenta bloqueada hasta {until}"
    # Locked: even the right PIN is refused, and the lock survives a restart.
    registry.journal.close()
    reopened = StaffRegistry(Journal(registry.journal.path, "T1", "midi"), lockout_seconds=600, clock=clock)
    clock.now += 599
    with pytest.raises(AuthError) as info:
        reopened.verify(Credentials("C1", CRO_PIN))
    assert info.value.message("es") == f"cuenta bloqueada hasta {until}"
    assert info.value.message("en") == f"account locked until {until}"
    # Another account is not affected.
    assert reopened.verify(Credentials("S1", SUP_PIN)).role is Role.SUPERVISOR
    clock.now += 2
    assert reopened.verify(Credentials("C1", CRO_PIN)) == Actor("C1", Role.CROUPIER)
    record = reopened.get("C1")
    assert record is not None and record.failed_attempts == 0 and record.locked_until is None


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
