"""Who did something: a staff ID and the role it acted in. Its own module because both the
journal (each entry records its actor) and the staff registry (which verifies one) need it,
as does the command table (its panel lines' signatures)."""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum

from shared.record import record


class Role(StrEnum):
    CROUPIER = "croupier"
    SUPERVISOR = "supervisor"
    TRAINER = "trainer"
    TRAINEE = "trainee"


@record
class Credentials:
    """An ID and PIN as typed (checked by ``shared.staff.StaffRegistry.verify``)."""

    staff_id: str
    pin: str = field(repr=False)


@record
class Actor:
    """Who did something, as journaled with each event. Only ``StaffRegistry.verify`` (or a
    training engine) should make one for a live command."""

    staff_id: str
    role: Role
