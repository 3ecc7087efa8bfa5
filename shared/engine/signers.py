"""Who signs a table's commands: the croupier on duty, a supervisor with a reason, a second
supervisor, anyone with their PIN, each verified against the staff registry.

One home for every desk's signatures (``table.signers``): like a desk, it keeps no state of
its own and reads the table (at a training table nobody signs: the trainee acts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shared.actor import Actor, Role
from shared.commands import Authority
from shared.desk import Desk
from shared.errors import AuthError, InputError
from shared.messages import Msg
from shared.staff import Credentials
from shared.text import REASON

if TYPE_CHECKING:
    from shared.engine import TableEngine  # noqa: F401 (named by the desk's Desk["TableEngine"])

SHIFT_ROLES = frozenset({Role.CROUPIER, Role.SUPERVISOR})
"""Who may be on duty at a table (and sign its count as the croupier)."""


class Signers(Desk["TableEngine"]):
    def croupier(self) -> Actor:
        """Who a croupier command is journaled as: the croupier on duty (a live table needs
        one; the shift is opened with ``table.shift.open``), or the trainee at a training table."""
        table = self.table
        if table.training:
            return table.croupier or Actor("trainee", Role.TRAINEE)
        if table.croupier is None:
            raise AuthError(Msg.of("staff.no_croupier"))
        return table.croupier

    def signed_by(self, actor: Actor | None, creds: Credentials | None, role: Role | set[Role]) -> Actor:
        """The signer a ``verify_x`` found; a command given no credentials is refused as
        ``authorize`` refuses it (a verify without them only asks whether it is allowed)."""
        return actor if actor is not None else self.authorize(creds, role)

    def second_supervisor(self, first: Actor, second: Credentials | None) -> Actor:
        """Two-person control (console.md: once a round's result is known, changing what a box
        is paid needs two supervisors): a second supervisor, another person, with their PIN."""
        if second is None:
            raise AuthError(Msg.of("staff.second_supervisor_required"))
        other = self.authorize(second, Role.SUPERVISOR)
        if other.staff_id == first.staff_id:
            raise AuthError(Msg.of("staff.second_supervisor_same_person"))
        return other

    def two_supervisors_now(self, id: str) -> bool:
        """Whether command ``id`` needs two supervisors now, as the table declares it."""
        return self.table.command_table()[id].authority(self.table) is Authority.TWO_SUPERVISORS

    def supervisors(self, creds: Credentials | None, reason: str | None, second: Credentials | None,
                    *, two: bool) -> tuple[Actor | None, Actor | None]:
        """The supervisor (and, when ``two``, the second one) signing with a reason; (None,
        None) while only asking whether the command is allowed (no reason given)."""
        if reason is None:
            return None, None
        first = self.supervisor(creds, reason)
        return first, self.second_supervisor(first, second) if two else None

    def supervisor(self, creds: Credentials | None, reason: str) -> Actor:
        """A supervisor's action: their own credentials and a reason on record."""
        if not isinstance(reason, str) or not reason.strip():
            raise InputError(Msg.of("staff.supervisor_reason"))
        REASON.check(reason.strip())
        return self.authorize(creds, Role.SUPERVISOR)

    def authorize(self, creds: Credentials | None, require: Role | set[Role]) -> Actor:
        """The verified Actor for ``creds`` holding one of the ``require``d roles, or AuthError.

        A training table has no staff: anyone acts, journaled as the trainee.
        """
        table = self.table
        if table.training:
            return Actor(creds.staff_id if creds is not None and creds.staff_id else "trainee", Role.TRAINEE)
        if creds is None:
            raise AuthError(Msg.of("staff.credentials_required"))
        if table.staff is None:
            raise AuthError(Msg.of("staff.no_registry"))
        return table.staff.verify(creds, require=require)
