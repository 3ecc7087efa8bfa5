"""Who did something: a staff ID and the role it acted in. Its own module because both the
journal (each entry records its actor) and the staff registry (which verifies one) need it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    CROUPIER = "croupier"
    SUPERVISOR = "supervisor"
    TRAINER = "trainer"
    TRAINEE = "trainee"


@dataclass(frozen=True)
class Actor:
    """Who did something, as journaled with each event. Only ``StaffRegistry.verify`` (or a
    training engine) should make one for a live command."""

    staff_id: str
    role: Role
