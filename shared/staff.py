"""Staff, roles and PINs: the registry is the fold of the table's keyed journal.

Enrolment, PIN changes and resets, deactivation, wrong PINs, delays and unlocks are journal
entries; who is enrolled, in which role, active or not, and how many wrong PINs they typed is
what those entries say (``_apply``), never what a table says. The PINs themselves are stored
only in the ``staff`` table of the journal's file, as salted ``hashlib.scrypt`` hashes
peppered with the table key (kept outside the journal, so the database alone does not allow
guessing PINs offline); the journal records for each a keyed digest of the stored salt, hash
and cost (``staff_credentials``), so a hash copied from another row, one written without the
pepper, or an old one put back is refused. The table is a cache: at a writer's start every
row is checked against the fold (refused, «llame a un supervisor», when it differs), and at
each sign-in the row used is checked again.

Wrong PINs: from the ``max_attempts``-th in a row, each next attempt for that ID waits a delay
that doubles with each wrong PIN, from ``lockout_seconds`` up to ``max_lockout_seconds``
(journaled as ``account_locked``); a right PIN after it, or an unlock by a supervisor, starts
the count again. No delay outlasts the cap, so no table is left without a supervisor able to
sign for longer than that, however many wrong PINs someone types. An unknown ID costs the same
scrypt as a known one and gets the same answer, so IDs cannot be probed, by answer or by time.
PINs never leave this module: not in events, reprs, exceptions or logs.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from shared.actor import Actor, Role
from shared.actor import Credentials as Credentials  # where the callers have always found it
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
from shared.commands import Authority, Field, Offer, When, command
from shared.errors import AuthError, ConsoleError, InputError
from shared.events import EventBody, EventCodec
from shared.journal import Event, Journal, JournalError
from shared.messages import Msg
from shared.record import record
from shared.regex import Regex
from shared.staff_fold import Person, apply_entry
from shared.text import REASON, STAFF_NAME


ROLE_ES = {
    Role.CROUPIER: "croupier",
    Role.SUPERVISOR: "supervisor",
    Role.TRAINER: "instructor",
    Role.TRAINEE: "aprendiz",
}
# The roles a supervisor enrols at a table (trainees are named in training sessions only).
ENROLLABLE = (Role.CROUPIER, Role.SUPERVISOR, Role.TRAINER)


_STAFF_ID = Field("staff_id", "staff_target_id")
"""Whose account a staff line of the F2 panel changes."""


def parse_role(text: str) -> Role:
    """A role typed in either language (``croupier``, ``supervisor``, ``instructor``/``trainer``)."""
    word = text.strip().lower()
    for role in ENROLLABLE:
        if word in (role.value, ROLE_ES[role]):
            return role
    raise _unknown_role(text)


def _unknown_role(text: str) -> InputError:
    """The refusal of a role that is none of the roles (it names them)."""
    return InputError(Msg.of("staff.unknown_role", role=text.strip()[:20]))


class PinChangeRequired(AuthError):
    """The PIN was right but was reset by a supervisor: the person chooses a new one first."""


@record
class StaffRecord:
    staff_id: str
    name: str
    role: Role
    failed_attempts: int
    locked_until: float | None  # epoch seconds, None when not locked
    active: bool = True
    must_change: bool = False


# scrypt cost: about 16 MiB and tens of milliseconds per check — slow for a guesser, invisible
# at sign-in. Stored with each hash (a check uses the hash's own cost), so it can be raised later
# without breaking old PINs; tests lower it (``StaffRegistry(pin_cost=...)``, tests/conftest.py).
SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
SALT_BYTES = 16
HASH_BYTES = 32
# A stored hash is this byte and HMAC(pepper, scrypt).
PEPPERED = b"\x01"
MAX_ATTEMPTS = 5
LOCKOUT_SECONDS = 15.0
MAX_LOCKOUT_SECONDS = 120.0
_PIN_RE = Regex(r"[0-9]{4,8}")
# A supervisor's PIN authorises overrides and staff changes: at least 6 digits.
SUPERVISOR_MIN_DIGITS = 6
# Columns added after the first schema; an older table file gets them on open.
_ADDED_COLUMNS = {
    "active": "INTEGER NOT NULL DEFAULT 1",
    "must_change": "INTEGER NOT NULL DEFAULT 0",
}
STAFF_ID_MAX = 32
# What a staff ID field takes as it is typed (Textual's ``restrict``): an ID's characters only.
STAFF_ID_RESTRICT = r"[A-Za-z0-9._-]*"
_ID_RE = Regex(rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,{STAFF_ID_MAX - 1}}}")
# What an unknown ID's PIN is checked against: the same work as a known one's.
_NO_SALT = bytes(SALT_BYTES)

STAFF_SCHEMA = """
CREATE TABLE IF NOT EXISTS staff (
    staff_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    enrol_seq INTEGER NOT NULL,
    salt BLOB NOT NULL,
    pin_hash BLOB NOT NULL,
    scrypt_n INTEGER NOT NULL,
    scrypt_r INTEGER NOT NULL,
    scrypt_p INTEGER NOT NULL,
    failed_attempts INTEGER NOT NULL DEFAULT 0,
    locked_until REAL,
    active INTEGER NOT NULL DEFAULT 1,
    must_change INTEGER NOT NULL DEFAULT 0
)
"""
# What a row caches of the fold, then what it keeps of the PIN: (salt, hash, n, r, p).
_ROW = ("SELECT staff_id, name, role, enrol_seq, failed_attempts, locked_until, active, must_change, salt, pin_hash, "
        "scrypt_n, scrypt_r, scrypt_p FROM staff")


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode("ascii"), salt=salt, n=n, r=r, p=p, dklen=HASH_BYTES, maxmem=64 * 1024 * 1024)


def check_pin_format(pin: str, role: Role | None = None) -> None:
    """PINs are 4 to 8 ASCII digits, a supervisor's at least 6; the message never repeats
    what was typed."""
    if not isinstance(pin, str) or not _PIN_RE.fullmatch(pin):
        raise InputError(Msg.of("staff.pin_format"))
    if role is Role.SUPERVISOR and len(pin) < SUPERVISOR_MIN_DIGITS:
        raise InputError(Msg.of("staff.supervisor_pin_format", digits=SUPERVISOR_MIN_DIGITS))


def _bad_credentials() -> AuthError:
    # One answer for an unknown ID, a wrong PIN and a deactivated person: IDs cannot be probed.
    return AuthError(Msg.of("staff.wrong_pin"))


def _hhmm(epoch: float) -> str:
    return datetime.fromtimestamp(epoch).astimezone().strftime("%H:%M:%S")


def _roles_of(require: Role | set[Role] | frozenset[Role] | None) -> frozenset[Role] | None:
    if require is None:
        return None
    if isinstance(require, Role):
        return frozenset({require})
    return frozenset(require)


class StaffRegistry:
    """The staff of one table: the fold of its journal's staff entries, with the PIN hashes in
    the journal file's ``staff`` table (a cache of the fold besides, checked against it)."""

    def __init__(
        self,
        journal: Journal,
        *,
        lockout_seconds: float = LOCKOUT_SECONDS,
        max_lockout_seconds: float = MAX_LOCKOUT_SECONDS,
        max_attempts: int = MAX_ATTEMPTS,
        clock: Callable[[], float] = time.time,
        pin_cost: int | None = None,
    ) -> None:
        self.journal = journal
        self.lockout_seconds = lockout_seconds
        self.max_lockout_seconds = max_lockout_seconds
        self.max_attempts = max_attempts
        self.pin_cost = pin_cost or SCRYPT_N  # (read here: tests lower the module's)
        self._clock = clock
        self._people = self._folded()
        if journal.read_only:  # a listing reads what the journal says
            return
        with journal.transaction() as cur:
            cur.execute(STAFF_SCHEMA)
            present = {row[1] for row in cur.execute("PRAGMA table_info(staff)")}
            for column, spec in _ADDED_COLUMNS.items():
                if column not in present:
                    cur.execute(f"ALTER TABLE staff ADD COLUMN {column} {spec}")
        self._check_cache()

    def _folded(self) -> dict[str, Person]:
        """The registry as the journal's staff entries say, each entry's keyed hash checked
        (an entry older than the latest snapshot is not walked by the writer's start check)."""
        people: dict[str, Person] = {}
        with self.journal.read_view() as view:
            for event in view.events(types=STAFF_CODEC.types):
                if not self.journal.hash_ok(event):
                    raise JournalError(Msg.of("staff.registry_differs", staff_id=event.staff_id or "-"))
                apply_entry(people, event)
        return people

    def _record(self, cur: sqlite3.Cursor, events: list[Event], body: EventBody, actor: Actor | None) -> None:
        events.append(self.journal.append_in(cur, *EventCodec.encode(body), round_id=0, actor=actor))

    def _commit(self, events: Iterable[Event]) -> None:
        """Fold entries just committed (a rolled-back transaction folds none)."""
        for event in events:
            apply_entry(self._people, event)

    def _credential(self, staff_id: str, row: tuple[Any, ...]) -> str:
        """The keyed digest of a stored PIN (salt, hash, n, r, p) of ``staff_id``: what the
        journal records of it."""
        salt, stored, n, r, p = row
        message = f"pin credential|{staff_id}|{n}|{r}|{p}|".encode() + bytes(salt) + b"|" + bytes(stored)
        return hmac.new(self.journal.pin_pepper, message, hashlib.sha256).hexdigest()[:32]

    def _matches(self, row: tuple[Any, ...], person: Person) -> bool:
        """Whether a staff row is what the journal says of its person, its PIN included."""
        return tuple(row[1:8]) == person.cached() and person.credential is not None and hmac.compare_digest(
            self._credential(person.staff_id, row[8:]), person.credential)

    def _check_cache(self) -> None:
        """A writer's start: every staff row against the fold (JournalError at the first that
        differs, a row with no enrolment or an enrolment with no row). A registry journaled
        before credentials were (no ``staff_credentials`` at all) records its rows' once."""
        rows = {row[0]: row for row in self.journal.query(_ROW)}
        people = self._people
        if people and all(person.credential is None for person in people.values()):
            self._adopt(rows)
        for staff_id in sorted(set(rows) | set(people)):
            if staff_id not in rows or staff_id not in people or not self._matches(rows[staff_id], people[staff_id]):
                raise JournalError(Msg.of("staff.registry_differs", staff_id=staff_id))

    def _adopt(self, rows: dict[str, tuple[Any, ...]]) -> None:
        """Journal the credentials of a registry that predates them (the rows whose enrolment,
        role and state are the journal's; the wrong-PIN count as the journal says)."""
        events: list[Event] = []
        with self.journal.transaction() as cur:
            credentials = {}
            for staff_id, person in self._people.items():
                row = rows.get(staff_id)
                if row is None or tuple(row[1:4]) + tuple(row[6:8]) != person.cached()[:3] + person.cached()[5:]:
                    continue  # refused by the check that follows
                credentials[staff_id] = self._credential(staff_id, row[8:])
                cur.execute("UPDATE staff SET failed_attempts = ?, locked_until = ? WHERE staff_id = ?",
                            (person.failed, person.locked_until, staff_id))
            if credentials:
                self._record(cur, events, StaffCredentials(credentials), None)
        self._commit(events)
        rows.update({row[0]: row for row in self.journal.query(_ROW)})

    def has_supervisor(self) -> bool:
        return any(person.role == Role.SUPERVISOR.value for person in self._people.values())

    def _as_record(self, person: Person) -> StaffRecord:
        locked = person.locked_until if person.locked_until is not None and self._clock() < person.locked_until \
            else None
        return StaffRecord(person.staff_id, person.name, Role(person.role), person.failed, locked, person.active,
                           person.must_change)

    def get(self, staff_id: str) -> StaffRecord | None:
        person = self._people.get(staff_id)
        return None if person is None else self._as_record(person)

    def all(self) -> list[StaffRecord]:
        return [self._as_record(self._people[staff_id]) for staff_id in sorted(self._people)]

    def _new_pin(self, staff_id: str, pin: str) -> tuple[tuple[Any, ...], str]:
        """A new PIN as stored (salt, hash, n, r, p) and its credential."""
        salt = secrets.token_bytes(SALT_BYTES)
        stored = (salt, self._peppered(_scrypt(pin, salt, self.pin_cost, SCRYPT_R, SCRYPT_P)), self.pin_cost,
                  SCRYPT_R, SCRYPT_P)
        return stored, self._credential(staff_id, stored)

    def verify_enrol(self, staff_id: object = None, name: object = None, role: Role | str | None = None,
                     pin: str | None = None, repeat: str | None = None) -> tuple[str, str, Role] | None:
        """The new person's ID and name are well formed and their PIN fits their role; the
        ID, name and role as enrolled. With all four left out: whether anyone can be enrolled
        now (always: the first supervisor at the first start, after that by a supervisor).
        ``repeat``: the PIN typed again, where it is."""
        if staff_id is None and name is None and role is None and pin is None:
            return None
        _same_pin_twice(pin, repeat)
        try:
            role = Role(role or "")
        except ValueError:
            raise _unknown_role(str(role or "")) from None
        staff_id = staff_id.strip() if isinstance(staff_id, str) else staff_id
        name = name.strip() if isinstance(name, str) else name
        if not isinstance(staff_id, str) or not _ID_RE.fullmatch(staff_id):
            raise InputError(Msg.of("staff.bad_id"))
        if not isinstance(name, str) or not name:
            raise InputError(Msg.of("staff.name_missing"))
        STAFF_NAME.check(name)
        check_pin_format(pin or "", role)
        return staff_id, name, role

    @command("staff_enrol", (When.ANY, Authority.SUPERVISOR), "console.md (staff)", "sup_staff_enrol",
             offers=(Offer("staff_enrol", "sup_staff_enrol", (
                 _STAFF_ID, Field("name", "name"), Field("role", "staff_role", "croupier / supervisor / instructor",
                                                         parse=parse_role),
                 Field("pin", "staff_new_pin", secret=True), Field("pin2", "pin_repeat", secret=True, arg="repeat"))),),
             training=False, signer="by", reason=None,
             note="a supervisor enrols anyone; the first supervisor is enrolled by nobody, "
                  "only while the journal has none (the first start)")
    def enrol(
        self, staff_id: str, name: str, role: Role | str, pin: str, *, by: Actor | Credentials | None,
        repeat: str | None = None,
    ) -> None:
        """Add a staff member and journal ``staff_enrolled`` (never the PIN or its hash) and
        the credential of their PIN.

        Once a supervisor exists only a supervisor may enrol (``by`` = their verified Actor, or
        their Credentials, which are checked here); before that, only a first supervisor may be
        enrolled, with ``by=None``.
        """
        checked = self.verify_enrol(staff_id, name, role, pin, repeat)
        assert checked is not None
        staff_id, name, role = checked
        if isinstance(by, Credentials):
            by = self.verify(by, require=Role.SUPERVISOR)
        stored, credential = self._new_pin(staff_id, pin)
        events: list[Event] = []
        with self.journal.transaction() as cur:
            if by is None:
                if self.has_supervisor() or role is not Role.SUPERVISOR:
                    raise AuthError(Msg.of("staff.enrol_needs_supervisor"))
            else:
                enroller = self._people.get(by.staff_id)
                if by.role is not Role.SUPERVISOR or enroller is None or enroller.role != Role.SUPERVISOR.value:
                    raise AuthError(Msg.of("staff.supervisor_required"))
                self._check_row(cur, enroller)
            if staff_id in self._people:
                raise InputError(Msg.of("staff.id_exists", staff_id=staff_id))
            self._record(cur, events, StaffEnrolled(staff_id, name, role.value, by.staff_id if by else None), by)
            self._record(cur, events, StaffCredentials({staff_id: credential}), by)
            cur.execute(
                "INSERT INTO staff (staff_id, name, role, enrol_seq, salt, pin_hash, scrypt_n, scrypt_r, scrypt_p) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (staff_id, name, role.value, events[0].seq, *stored),
            )
        self._commit(events)

    def verify(
        self, creds: Credentials, *, require: Role | set[Role] | None = None, allow_pin_change: bool = False
    ) -> Actor:
        """Check a PIN; return the Actor, or raise AuthError (wrong ID or PIN, a delay running,
        wrong role) — ``PinChangeRequired`` for a reset PIN unless ``allow_pin_change``."""
        roles = _roles_of(require)
        now = self._clock()
        events: list[Event] = []
        with self.journal.transaction() as cur:
            person = self._people.get(creds.staff_id) if isinstance(creds.staff_id, str) else None
            if person is None:
                if isinstance(creds.staff_id, str) and self._row(cur, creds.staff_id) is not None:
                    raise AuthError(Msg.of("staff.record_mismatch", staff_id=creds.staff_id[:32]))
                _scrypt(_typed(creds), _NO_SALT, self.pin_cost, SCRYPT_R, SCRYPT_P)  # an unknown ID costs the same
                self._journal_failure(cur, events, creds.staff_id, 0)
                error: ConsoleError | None = _bad_credentials()
            else:
                row = self._check_row(cur, person)
                if person.locked_until is not None and now < person.locked_until:
                    raise AuthError(Msg.of("staff.locked_until", until=_hhmm(person.locked_until)))
                error = self._check_pin(cur, events, creds, person, row[8:], now)
        # Raised after the commit so the failed attempt is counted (and journaled) durably.
        self._commit(events)
        if error is not None:
            raise error
        assert person is not None
        if not person.active:
            raise _bad_credentials()
        actor = Actor(person.staff_id, Role(person.role))
        if roles is not None and actor.role not in roles:
            raise role_required(roles)
        if person.must_change and not allow_pin_change:
            raise PinChangeRequired(Msg.of("staff.pin_change_required"))
        return actor

    @staticmethod
    def _row(cur: sqlite3.Cursor, staff_id: str) -> tuple[Any, ...] | None:
        row: tuple[Any, ...] | None = cur.execute(f"{_ROW} WHERE staff_id = ?", (staff_id,)).fetchone()
        return row

    def _check_row(self, cur: sqlite3.Cursor, person: Person) -> tuple[Any, ...]:
        """The person's staff row, which must be what the journal says (else AuthError): a
        role raised, a hash copied or a state edited in the table is refused, not honoured."""
        row = self._row(cur, person.staff_id)
        if row is None or not self._matches(row, person):
            raise AuthError(Msg.of("staff.record_mismatch", staff_id=person.staff_id))
        return row

    def delay(self, failed: int) -> float:
        """How long the next attempt waits after ``failed`` wrong PINs in a row (0 below
        ``max_attempts``): doubling from ``lockout_seconds``, never above ``max_lockout_seconds``."""
        if failed < self.max_attempts:
            return 0.0
        return float(min(self.lockout_seconds * 2 ** min(failed - self.max_attempts, 32), self.max_lockout_seconds))

    def _check_pin(self, cur: sqlite3.Cursor, events: list[Event], creds: Credentials, person: Person,
                   stored: tuple[Any, ...], now: float) -> ConsoleError | None:
        """Compare the PIN; count, journal and maybe delay on a wrong one (in ``verify``'s transaction)."""
        salt, digest, n, r, p = stored
        raw = _scrypt(_typed(creds), salt, n, r, p)
        if _PIN_RE.fullmatch(creds.pin if isinstance(creds.pin, str) else "") and hmac.compare_digest(
                self._peppered(raw), digest):
            if person.failed or person.locked_until is not None:
                cur.execute("UPDATE staff SET failed_attempts = 0, locked_until = NULL WHERE staff_id = ?",
                            (person.staff_id,))
                self._record(cur, events, StaffAttemptsCleared(person.staff_id), None)
            return None
        failed = person.failed + 1
        self._journal_failure(cur, events, person.staff_id, failed)
        wait = self.delay(failed)
        if not wait:
            cur.execute("UPDATE staff SET failed_attempts = ? WHERE staff_id = ?", (failed, person.staff_id))
            return _bad_credentials()
        until = float(math.ceil(now + wait))  # whole seconds: the entry says it to the second
        cur.execute("UPDATE staff SET failed_attempts = ?, locked_until = ? WHERE staff_id = ?",
                    (failed, until, person.staff_id))
        moment = datetime.fromtimestamp(until).astimezone().isoformat(timespec="seconds")
        self._record(cur, events, AccountLocked(person.staff_id, self.journal.table_id, moment), None)
        return AuthError(Msg.of("staff.wrong_pin_locked", until=_hhmm(until)))

    def _peppered(self, raw: bytes) -> bytes:
        return PEPPERED + hmac.new(self.journal.pin_pepper, raw, hashlib.sha256).digest()

    def _journal_failure(self, cur: sqlite3.Cursor, events: list[Event], typed_id: object, attempt: int) -> None:
        """Who tried which ID, at which table (the entry's time says when); ``attempt`` 0: no such ID."""
        typed = typed_id[:32] if isinstance(typed_id, str) else ""
        self._record(cur, events, PinFailed(typed, self.journal.table_id, attempt), None)

    # --- administration: a supervisor's, except changing one's own PIN ---------------------

    def _verify_account(self, staff_id: object = None) -> None:
        """``staff_id`` is an active account (left out: whichever, the probe)."""
        person = self._people.get(staff_id) if isinstance(staff_id, str) else None
        if staff_id is not None and (person is None or not person.active):
            raise InputError(Msg.of("staff.no_active", staff_id=str(staff_id)[:32]))

    verify_deactivate = verify_reset_pin = verify_unlock = _verify_account

    @command("staff_deactivate", (When.ANY, Authority.SUPERVISOR), "console.md (staff)", "sup_staff_deactivate",
             offers=(Offer("staff_deactivate", "sup_staff_deactivate", (_STAFF_ID,)),), training=False, signer="by",
             note="any other account, never the supervisor's own")
    def deactivate(self, staff_id: str, *, by: Credentials, reason: str) -> None:
        """The person can no longer sign in; history keeps their name and entries."""
        actor, reason = self._admin(by, reason)
        if staff_id == actor.staff_id:
            raise InputError(Msg.of("staff.deactivate_self"))
        events: list[Event] = []
        with self.journal.transaction() as cur:
            person = self._target(cur, staff_id)
            cur.execute("UPDATE staff SET active = 0 WHERE staff_id = ?", (staff_id,))
            self._record(cur, events, StaffDeactivated(staff_id, person.name, person.role, reason), actor)
        self._commit(events)

    @command("staff_reset_pin", (When.ANY, Authority.SUPERVISOR), "console.md (staff)", "sup_staff_reset_pin",
             offers=(Offer("staff_reset_pin", "sup_staff_reset_pin", (
                 _STAFF_ID, Field("pin", "staff_temp_pin", secret=True, arg="new_pin"))),), training=False, signer="by",
             note="a temporary PIN, changed by its owner at the next sign-in")
    def reset_pin(self, staff_id: str, new_pin: str, *, by: Credentials, reason: str) -> None:
        """A forgotten PIN: the supervisor gives a temporary one, to be changed at the next sign-in."""
        actor, reason = self._admin(by, reason)
        events: list[Event] = []
        with self.journal.transaction() as cur:
            person = self._target(cur, staff_id)
            check_pin_format(new_pin, Role(person.role))
            stored, credential = self._new_pin(staff_id, new_pin)
            cur.execute(
                "UPDATE staff SET salt = ?, pin_hash = ?, scrypt_n = ?, scrypt_r = ?, scrypt_p = ?, must_change = 1, "
                "failed_attempts = 0, locked_until = NULL WHERE staff_id = ?", (*stored, staff_id))
            self._record(cur, events, StaffPinReset(staff_id, person.name, reason), actor)
            self._record(cur, events, StaffCredentials({staff_id: credential}), actor)
        self._commit(events)

    @command("staff_unlock", (When.ANY, Authority.SUPERVISOR), "console.md (staff)", "sup_staff_unlock",
             offers=(Offer("staff_unlock", "sup_staff_unlock", (_STAFF_ID,)),), training=False, signer="by",
             note="another supervisor lifts a locked account's delay (a locked supervisor cannot sign)")
    def unlock(self, staff_id: str, *, by: Credentials, reason: str) -> None:
        """Lift a delay before it runs out (the attempts count starts again): another
        supervisor's, with their PIN."""
        actor, reason = self._admin(by, reason)
        events: list[Event] = []
        with self.journal.transaction() as cur:
            person = self._target(cur, staff_id)
            cur.execute("UPDATE staff SET failed_attempts = 0, locked_until = NULL WHERE staff_id = ?", (staff_id,))
            self._record(cur, events, StaffUnlocked(staff_id, person.name, reason), actor)
        self._commit(events)

    def verify_change_pin(self, creds: Credentials | None = None, new_pin: str | None = None,
                          repeat: str | None = None) -> None:
        """The new PIN fits the person's role (left out: anyone may change their own)."""
        _same_pin_twice(new_pin, repeat)
        record = None if creds is None else self.get(creds.staff_id)
        if record is not None and new_pin is not None:
            check_pin_format(new_pin, record.role)

    @command("own_pin", (When.ANY, Authority.OWN), "console.md (staff)", "sup_own_pin",
             offers=(Offer("own_pin", "sup_own_pin", (
                 Field("pin", "staff_new_pin", secret=True, arg="new_pin"), Field("pin2", "pin_repeat", secret=True, arg="repeat"))),),
             training=False, reason=None, note="with the current PIN, also one a supervisor reset")
    def change_pin(self, creds: Credentials, new_pin: str, repeat: str | None = None) -> Actor:
        """Anyone changes their own PIN with the current one (also a PIN a supervisor reset)."""
        self.verify_change_pin(creds, new_pin, repeat)  # before the PIN is checked: a typo costs no attempt
        actor = self.verify(creds, allow_pin_change=True)
        if new_pin == creds.pin:
            raise InputError(Msg.of("staff.same_pin"))
        stored, credential = self._new_pin(actor.staff_id, new_pin)
        events: list[Event] = []
        with self.journal.transaction() as cur:
            cur.execute(
                "UPDATE staff SET salt = ?, pin_hash = ?, scrypt_n = ?, scrypt_r = ?, scrypt_p = ?, must_change = 0 "
                "WHERE staff_id = ?", (*stored, actor.staff_id))
            self._record(cur, events, StaffPinChanged(actor.staff_id), actor)
            self._record(cur, events, StaffCredentials({actor.staff_id: credential}), actor)
        self._commit(events)
        return actor

    def _admin(self, by: Credentials, reason: str) -> tuple[Actor, str]:
        reason = reason.strip() if isinstance(reason, str) else ""
        if not reason:
            raise InputError(Msg.of("staff.reason_missing"))
        return self.verify(by, require=Role.SUPERVISOR), REASON.check(reason)

    def _target(self, cur: sqlite3.Cursor, staff_id: str) -> Person:
        self._verify_account(staff_id)
        person = self._people[staff_id]
        self._check_row(cur, person)
        return person


def _same_pin_twice(pin: str | None, repeat: str | None) -> None:
    if repeat is not None and repeat != pin:
        raise InputError(Msg.of("staff.pins_differ"))


def _typed(creds: Credentials) -> str:
    """The PIN to hash: the one typed when it is a PIN at all, else one of the same length of work."""
    pin = creds.pin if isinstance(creds.pin, str) else ""
    return pin if _PIN_RE.fullmatch(pin) else "0000"


def role_required(roles: frozenset[Role] | set[Role]) -> AuthError:
    if roles == {Role.SUPERVISOR}:
        return AuthError(Msg.of("staff.supervisor_required"))
    first, *others = (Msg.of(f"staff.role_{role.value}") for role in sorted(roles))
    for other in others:
        first = Msg.of("staff.role_or", first=first, second=other)
    return AuthError(Msg.of("staff.roles_required", roles=first))
