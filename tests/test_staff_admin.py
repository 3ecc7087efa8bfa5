"""Staff administration: deactivate, reset a PIN (changed at the next sign-in), unlock, change
one's own PIN; each is a journal entry, and only a supervisor administers."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.errors import AuthError, InputError
from shared.journal import Journal
from shared.actor import Role
from shared.staff import Credentials, PinChangeRequired, StaffRegistry, parse_role

SUP = Credentials("S1", "739150")
CRO = Credentials("C1", "4829")


@pytest.fixture
def staff(tmp_path: Path) -> StaffRegistry:
    registry = StaffRegistry(Journal(tmp_path / "t.sqlite3", "MESA-7", "midi"), lockout_seconds=600)
    registry.enrol("S1", "Ana", Role.SUPERVISOR, SUP.pin, by=None)
    registry.enrol("C1", "Carlos", Role.CROUPIER, CRO.pin, by=SUP)
    return registry


def last(staff: StaffRegistry):
    """The last entry but the credential a PIN's entry journals beside it."""
    seq = staff.journal.last_seq
    while (event := staff.journal.event(seq)).type == "staff_credentials":
        seq -= 1
    return event


def test_supervisor_pins_have_at_least_six_digits(staff):
    with pytest.raises(InputError, match="supervisor debe tener de 6 a 8"):
        staff.enrol("S2", "Bea", Role.SUPERVISOR, "12345", by=SUP)
    staff.enrol("S2", "Bea", Role.SUPERVISOR, "123456", by=SUP)
    staff.enrol("T1", "Tina", parse_role("instructor"), "2468", by=SUP)
    assert staff.get("T1").role is Role.TRAINER and parse_role("Trainer") is Role.TRAINER
    with pytest.raises(InputError, match="rol desconocido"):
        parse_role("jefe")


def test_deactivated_person_gets_the_wrong_pin_answer_and_history_keeps_the_name(staff):
    with pytest.raises(AuthError):
        staff.deactivate("C1", by=CRO, reason="baja")  # a croupier does not administer
    with pytest.raises(InputError, match="motivo"):
        staff.deactivate("C1", by=SUP, reason="  ")
    with pytest.raises(InputError, match="a sí mismo"):
        staff.deactivate("S1", by=SUP, reason="baja")
    staff.deactivate("C1", by=SUP, reason="dejó la sala")
    event = last(staff)
    assert (event.type, event.staff_id, event.payload) == (
        "staff_deactivated", "S1", {"staff_id": "C1", "name": "Carlos", "role": "croupier", "reason": "dejó la sala"})
    with pytest.raises(AuthError) as info:
        staff.verify(CRO)
    assert info.value.message("en") == "wrong ID or PIN"
    assert staff.get("C1").name == "Carlos" and not staff.get("C1").active
    with pytest.raises(InputError, match="ya existe"):
        staff.enrol("C1", "Otro", Role.CROUPIER, "1111", by=SUP)  # the ID stays taken: history names it


def test_reset_pin_then_forced_change(staff):
    staff.reset_pin("C1", "1111", by=SUP, reason="lo olvidó")
    assert last(staff).type == "staff_pin_reset" and "1111" not in str(last(staff).payload)
    with pytest.raises(AuthError):
        staff.verify(CRO)  # the old PIN is gone
    with pytest.raises(PinChangeRequired):
        staff.verify(Credentials("C1", "1111"))
    with pytest.raises(InputError, match="distinto"):
        staff.change_pin(Credentials("C1", "1111"), "1111")
    staff.change_pin(Credentials("C1", "1111"), "8642")
    assert (last(staff).type, last(staff).staff_id) == ("staff_pin_changed", "C1")
    assert staff.verify(Credentials("C1", "8642")).staff_id == "C1"
    assert not staff.get("C1").must_change


def test_failed_attempts_and_lockout_are_journaled_then_a_supervisor_unlocks(staff):
    for _ in range(5):
        with pytest.raises(AuthError):
            staff.verify(Credentials("C1", "0000"))
    types = [e.type for e in staff.journal.events(after=staff.journal.last_seq - 6)]
    assert types == ["pin_failed"] * 5 + ["account_locked"]
    assert last(staff).payload["staff_id"] == "C1" and last(staff).payload["table"] == "MESA-7"
    with pytest.raises(AuthError, match="bloqueada"):
        staff.verify(CRO)
    with pytest.raises(AuthError):
        staff.verify(Credentials("ZZ", "0000"))  # an unknown ID: journaled too, attempt 0
    assert last(staff).payload == {"staff_id": "ZZ", "table": "MESA-7", "attempt": 0}
    staff.unlock("C1", by=SUP, reason="llamó al supervisor")
    assert (last(staff).type, last(staff).staff_id) == ("staff_unlocked", "S1")
    assert staff.verify(CRO).staff_id == "C1"


def test_anyone_changes_their_own_pin(staff):
    with pytest.raises(InputError, match="4 a 8"):
        staff.change_pin(CRO, "12")
    staff.change_pin(CRO, "97531")
    with pytest.raises(InputError, match="supervisor debe"):
        staff.change_pin(SUP, "1234")
    staff.change_pin(SUP, "24681357")
    assert staff.verify(Credentials("S1", "24681357"), require=Role.SUPERVISOR).staff_id == "S1"
