"""The shift's commands (``table.shift``): who is on duty (the shift, a relief, the on-duty
croupier's confirmation after a relaunch), the console's sessions and the gaming day's close.

Who is on duty stays the table's (it folds ``shift_opened`` and ``shift_closed``); the desk
reads it, verifies and records through the table.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from shared.actor import Actor, Role
from shared.base_events import ShiftClosed, ShiftOpened
from shared.commands import Authority, Offer, When, command
from shared.desk import Desk
from shared.events import EventBody
from shared.engine.signers import SHIFT_ROLES
from shared.errors import AuthError, InputError
from shared.events import ConsoleClosed, ConsoleStarted, GamingDayClosed, JournalArchived, gaming_day_of
from shared.journal import Event
from shared.messages import Msg
from shared.staff import Credentials

if TYPE_CHECKING:
    from shared.engine import TableEngine  # noqa: F401 (named by the desk's Desk["TableEngine"])


class ShiftDesk(Desk["TableEngine"]):
    def verify_open(self, creds: Credentials | None = None) -> Actor | None:
        """A croupier or supervisor may take the table; a relief only between rounds (checked
        before the PIN, so a refused relief costs no attempt)."""
        self.verify_relief_allowed()
        return None if creds is None else self.table.signers.authorize(creds, set(SHIFT_ROLES))

    def verify_relief_allowed(self) -> None:
        """Another croupier takes the table only between rounds, never mid-round."""
        table = self.table
        if table.croupier is not None and table.round_open and not table.training:
            raise InputError(Msg.of("staff.relief_between_rounds", round=table.round_id))

    @command("open_shift", (When.ANY, Authority.CROUPIER), "console.md (shift)", "shift_key", training=False)
    def open(self, creds: Credentials | None) -> list[EventBody]:
        """Sign the croupier (or a supervisor) in as the one on duty; journals ``shift_opened``.
        With someone already on duty this is the relief: ``previous`` names the outgoing one."""
        table = self.table
        actor = table.signers.signed_by(self.verify_open(creds), creds, set(SHIFT_ROLES))
        previous = table.croupier.staff_id if table.croupier is not None else None
        return table.record_events(actor, ShiftOpened(actor.staff_id, actor.role.value, previous))

    def verify_confirm_on_duty(self, creds: Credentials | None) -> Actor:
        """The croupier on duty proves it is still them (the console asks once after a relaunch)."""
        on_duty = self.table.croupier
        if on_duty is None:
            raise AuthError(Msg.of("staff.no_croupier"))
        if creds is None or creds.staff_id != on_duty.staff_id:
            raise AuthError(Msg.of("staff.other_on_duty", staff_id=on_duty.staff_id))
        return self.table.signers.authorize(creds, set(SHIFT_ROLES))

    def verify_close(self, creds: Credentials | None = None) -> Actor | None:
        """A supervisor ends the shift, between rounds (the tray and report then add up)."""
        table = self.table
        if table.croupier is None:
            raise AuthError(Msg.of("staff.no_shift"))
        if table.round_open:
            raise InputError(Msg.of("staff.close_between_rounds", round=table.round_id))
        return None if creds is None else table.signers.authorize(creds, Role.SUPERVISOR)

    @command("close_shift", (When.BETWEEN_ROUNDS, Authority.SUPERVISOR), "console.md (shift)", "sup_close_shift",
             offers=(Offer("close_shift", "sup_close_shift"),), training=False)
    def close(self, creds: Credentials | None, reason: str = "") -> list[EventBody]:
        table = self.table
        actor = table.signers.signed_by(self.verify_close(creds), creds, Role.SUPERVISOR)
        assert table.croupier is not None
        return table.record_events(actor, ShiftClosed(table.croupier.staff_id, reason.strip() or None))

    # --- the console's sessions ------------------------------------------------------------------

    def console_started(self) -> ConsoleStarted:
        """Journal a live console's launch, saying how the session before it ended: a restart
        after a crash leaves its trace (issue 29 §7), in the open round's recall too."""
        journal = self.table.journal
        started = journal.last_event_of(ConsoleStarted.type)
        closed = journal.last_event_of(ConsoleClosed.type)
        previous = "none" if started is None else \
            "closed" if closed is not None and closed.seq > started.seq else "interrupted"
        body = ConsoleStarted(previous)
        self.table.record(body)
        return body

    def console_closed(self) -> None:
        self.table.record(ConsoleClosed())

    # --- the gaming day --------------------------------------------------------------------------

    def _day_first_entry(self) -> Event | None:
        """The open gaming day's first entry: the first after the last close (archive records
        aside), or None when nothing happened since."""
        journal = self.table.journal
        closed = journal.last_event_of(GamingDayClosed.type)
        event = journal.event(closed.seq + 1 if closed else 1)
        while event is not None and event.type == JournalArchived.type:
            event = journal.event(event.seq + 1)
        return event

    def gaming_day(self) -> str:
        """The open gaming day: the local date of its first entry (today if it has none)."""
        first = self._day_first_entry()
        return gaming_day_of(first.ts if first else datetime.now(UTC).isoformat())

    def verify_close_gaming_day(self, creds: Credentials | None = None) -> Actor | None:
        """A supervisor closes the gaming day, between rounds, once something happened since
        the last close (a second close would journal an empty day); its entries may then be
        archived. Without ``creds``: whether it may be closed now (the probe)."""
        table = self.table
        if table.round_open:
            raise InputError(Msg.of("archive.close_between_rounds", round=table.round_id))
        if self._day_first_entry() is None:
            raise InputError(Msg.of("archive.day_already_closed"))
        return None if creds is None else table.signers.authorize(creds, Role.SUPERVISOR)

    @command("close_gaming_day", (When.BETWEEN_ROUNDS, Authority.SUPERVISOR), "console.md (gaming day)",
             "sup_close_gaming_day", offers=(Offer("close_gaming_day", "sup_close_gaming_day"),), training=False)
    def close_gaming_day(self, creds: Credentials | None, reason: str = "") -> list[EventBody]:
        actor = self.table.signers.signed_by(self.verify_close_gaming_day(creds), creds, Role.SUPERVISOR)
        return self.table.record_events(actor, GamingDayClosed(self.gaming_day(), reason.strip()))
