"""What the supervisor panel collects and returns: plain data, no Textual (cheap to import)."""

from __future__ import annotations

from dataclasses import field

from shared.commands import Field
from shared.record import record
from shared.staff import Credentials


SupervisorField = Field
"""An extra value an action needs (e.g. which card to correct), typed as text: the command
table's ``Field`` (its ``label`` an i18n catalog key, ``parse`` how the engine reads it)."""


@record
class SupervisorAction:
    """One choice of the panel. ``label`` is an i18n catalog key; ``fields`` are extra inputs."""

    id: str
    label: str
    fields: tuple[SupervisorField, ...] = ()
    needs_reason: bool = True
    """False for a person's own business (changing one's PIN): no reason field."""
    reason_optional: bool = False
    """The reason may be left empty: the engine asks for it when it is needed (a tray close
    outside the tolerance)."""


@record
class SupervisorRequest:
    """What the panel hands to ``perform``: the engine checks ``credentials``."""

    action: str
    credentials: Credentials
    reason: str
    values: dict[str, str] = field(default_factory=dict)


@record
class SupervisorResult:
    """What the panel is dismissed with after the engine accepted the request (no PIN)."""

    action: str
    staff_id: str
    reason: str
    message: str
