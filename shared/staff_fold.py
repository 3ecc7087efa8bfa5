"""The staff as the keyed journal says: each person folded from their entries (enrolment,
credentials, PIN changes and resets, wrong PINs, delays, unlocks, deactivation). The registry
(``shared.staff``) keeps this fold; its ``staff`` table is a cache checked against it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from shared.base_events import (
    STAFF_CODEC,
    AccountLocked,
    PinFailed,
    StaffAttemptsCleared,
    StaffCredentials,
    StaffDeactivated,
    StaffEnrolled,
    StaffPinChanged,
    StaffPinReset,
    StaffUnlocked,
)
from shared.journal import Event
from shared.record import record


@record(frozen=False)
class Person:
    """One staff member as the journal says."""

    staff_id: str
    name: str
    role: str
    enrol_seq: int
    active: bool = True
    must_change: bool = False
    failed: int = 0  # wrong PINs in a row
    locked_until: float | None = None  # the last delay's end (epoch seconds), until a clear
    credential: str | None = None

    def cached(self) -> tuple[Any, ...]:
        """What the staff table keeps of this person, column by column (``shared.staff._ROW``)."""
        return (self.name, self.role, self.enrol_seq, self.failed, self.locked_until, int(self.active),
                int(self.must_change))


def epoch(moment: str) -> float:
    return datetime.fromisoformat(moment).timestamp()


def apply_entry(people: dict[str, Person], event: Event) -> None:
    """Fold one staff entry into the registry."""
    body = STAFF_CODEC.decode(event.type, event.payload)
    if isinstance(body, StaffEnrolled):
        people[body.staff_id] = Person(body.staff_id, body.name, body.role, event.seq)
        return
    if isinstance(body, StaffCredentials):
        for staff_id, credential in body.credentials.items():
            if staff_id in people:
                people[staff_id].credential = credential
        return
    person = people.get(body.staff_id) if isinstance(body, PER_PERSON) else None
    if person is None:
        return  # (a wrong PIN for an unknown ID)
    if isinstance(body, StaffDeactivated):
        person.active = False
    elif isinstance(body, StaffPinChanged):
        person.must_change = False
    elif isinstance(body, PinFailed):
        person.failed = body.attempt
    elif isinstance(body, AccountLocked):
        person.locked_until = epoch(body.until)
    else:  # a reset, an unlock or a right PIN after wrong ones: the count starts again
        person.must_change = person.must_change or isinstance(body, StaffPinReset)
        person.failed, person.locked_until = 0, None


PER_PERSON = (StaffDeactivated, StaffPinChanged, PinFailed, AccountLocked, StaffPinReset, StaffUnlocked,
               StaffAttemptsCleared)
