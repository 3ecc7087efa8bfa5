"""Staff, roles and PINs, kept in the table's journal database.

PINs are stored only as salted ``hashlib.scrypt`` hashes, peppered with the table key (kept
outside the journal, so the database alone does not allow guessing PINs offline), and never
leave this module: not in events, reprs, exceptions or logs. Five wrong PINs lock an account for a while; the failed
attempts count is kept in the database so a restart does not reset it. Every failed attempt
and every lockout is journaled (the ID typed, the table), and an unknown ID gets the same
answer as a wrong PIN so IDs cannot be probed. A supervisor deactivates people, resets a
forgotten PIN (the person must choose a new one at the next sign-in) and unlocks accounts;
each change is a journal entry in words.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from shared.actor import Actor, Role
from shared.base_events import (
    AccountLocked,
    PinFailed,
    StaffDeactivated,
    StaffEnrolled,
    StaffPinChanged,
    StaffPinReset,
    StaffUnlocked,
)
from shared.errors import AuthError, ConsoleError, InputError
from shared.events import EventCodec
from shared.journal import Journal
from shared.messages import Msg
from shared.text import REASON, STAFF_NAME


ROLE_ES = {
    Role.CROUPIER: "croupier",
    Role.SUPERVISOR: "supervisor",
    Role.TRAINER: "instructor",
    Role.TRAINEE: "aprendiz",
}
# The roles a supervisor enrols at a table (trainees are named in training sessions only).
ENROLLABLE = (Role.CROUPIER, Role.SUPERVISOR, Role.TRAINER)


def parse_role(text: str) -> Role:
    """A role typed in either language (``croupier``, ``supervisor``, ``instructor``/``trainer``)."""
    word = text.strip().lower()
    for role in ENROLLABLE:
        if word in (role.value, ROLE_ES[role]):
            return role
    raise InputError(Msg.of("staff.unknown_role", role=text.strip()[:20]))


class PinChangeRequired(AuthError):
    """The PIN was right but was reset by a supervisor: the person chooses a new one first."""


@dataclass(frozen=True)
class Credentials:
    staff_id: str
    pin: str = field(repr=False)


@dataclass(frozen=True)
class StaffRecord:
    staff_id: str
    name: str
    role: Role
    failed_attempts: int
    locked_until: float | None  # epoch seconds, None when not locked
    active: bool = True
    must_change: bool = False


# scrypt cost: about 16 MiB and tens of milliseconds per check — slow for a guesser, invisible
# at sign-in. Stored with each hash so it can be raised later without breaking old PINs.
SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
SALT_BYTES = 16
HASH_BYTES = 32
# A peppered hash is this byte and HMAC(pepper, scrypt); one of HASH_BYTES alone predates the
# pepper, is still checked as it was, and is peppered at the next good sign-in.
PEPPERED = b"\x01"
MAX_ATTEMPTS = 5
_PIN_RE = re.compile(r"[0-9]{4,8}")
# A supervisor's PIN authorises overrides and staff changes: at least 6 digits.
SUPERVISOR_MIN_DIGITS = 6
# Columns added after the first schema; an older table file gets them on open.
_ADDED_COLUMNS = {
    "active": "INTEGER NOT NULL DEFAULT 1",
    "must_change": "INTEGER NOT NULL DEFAULT 0",
}
_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,31}")

_STAFF_SCHEMA = """
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
    locked_until REAL
)
"""


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
    return datetime.fromtimestamp(epoch).astimezone().strftime("%H:%M")


def _roles_of(require: Role | set[Role] | frozenset[Role] | None) -> frozenset[Role] | None:
    if require is None:
        return None
    if isinstance(require, Role):
        return frozenset({require})
    return frozenset(require)


class StaffRegistry:
    """The staff of one table, stored next to its journal (same SQLite file)."""

    def __init__(
        self,
        journal: Journal,
        *,
        lockout_seconds: float = 900,
        max_attempts: int = MAX_ATTEMPTS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.journal = journal
        self.lockout_seconds = lockout_seconds
        self.max_attempts = max_attempts
        self._clock = clock
        if journal.read_only:  # a listing reads the table a writer created
            return
        with journal.transaction() as cur:
            cur.execute(_STAFF_SCHEMA)
            present = {row[1] for row in cur.execute("PRAGMA table_info(staff)")}
            for column, spec in _ADDED_COLUMNS.items():
                if column not in present:
                    cur.execute(f"ALTER TABLE staff ADD COLUMN {column} {spec}")

    def has_supervisor(self) -> bool:
        return bool(self.journal.query("SELECT 1 FROM staff WHERE role = ? LIMIT 1", (Role.SUPERVISOR.value,)))

    _RECORD = "SELECT staff_id, name, role, failed_attempts, locked_until, active, must_change FROM staff"

    def get(self, staff_id: str) -> StaffRecord | None:
        rows = self.journal.query(f"{self._RECORD} WHERE staff_id = ?", (staff_id,))
        return _record(rows[0]) if rows else None

    def all(self) -> list[StaffRecord]:
        return [_record(row) for row in self.journal.query(f"{self._RECORD} ORDER BY staff_id")]

    def enrol(
        self, staff_id: str, name: str, role: Role | str, pin: str, *, by: Actor | Credentials | None
    ) -> None:
        """Add a staff member and journal ``staff_enrolled`` (never the PIN or its hash).

        Once a supervisor exists only a supervisor may enrol (``by`` = their verified Actor, or
        their Credentials, which are checked here); before that, only a first supervisor may be
        enrolled, with ``by=None``.
        """
        role = Role(role)
        staff_id = staff_id.strip() if isinstance(staff_id, str) else staff_id
        name = name.strip() if isinstance(name, str) else name
        if not isinstance(staff_id, str) or not _ID_RE.fullmatch(staff_id):
            raise InputError(Msg.of("staff.bad_id"))
        if not name:
            raise InputError(Msg.of("staff.name_missing"))
        STAFF_NAME.check(name)
        check_pin_format(pin, role)
        if isinstance(by, Credentials):
            by = self.verify(by, require=Role.SUPERVISOR)
        salt = secrets.token_bytes(SALT_BYTES)
        digest = self._peppered(_scrypt(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P))
        with self.journal.transaction() as cur:
            # Checked inside the write transaction so two consoles cannot both enrol a "first" supervisor.
            has_sup = cur.execute("SELECT 1 FROM staff WHERE role = ? LIMIT 1", (Role.SUPERVISOR.value,)).fetchone()
            if by is None:
                if has_sup or role is not Role.SUPERVISOR:
                    raise AuthError(Msg.of("staff.enrol_needs_supervisor"))
            else:
                row = cur.execute(
                    "SELECT role, name, enrol_seq FROM staff WHERE staff_id = ?", (by.staff_id,)
                ).fetchone()
                if by.role is not Role.SUPERVISOR or row is None or row[0] != Role.SUPERVISOR.value:
                    raise AuthError(Msg.of("staff.supervisor_required"))
                self._check_enrolment(by.staff_id, row[1], row[0], row[2])
            if cur.execute("SELECT 1 FROM staff WHERE staff_id = ?", (staff_id,)).fetchone():
                raise InputError(Msg.of("staff.id_exists", staff_id=staff_id))
            event = self.journal.append_in(
                cur, *EventCodec.encode(StaffEnrolled(staff_id, name, role.value, by.staff_id if by else None)),
                round_id=0, actor=by,
            )
            cur.execute(
                "INSERT INTO staff (staff_id, name, role, enrol_seq, salt, pin_hash, scrypt_n, scrypt_r, scrypt_p) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (staff_id, name, role.value, event.seq, salt, digest, SCRYPT_N, SCRYPT_R, SCRYPT_P),
            )

    def verify(
        self, creds: Credentials, *, require: Role | set[Role] | None = None, allow_pin_change: bool = False
    ) -> Actor:
        """Check a PIN; return the Actor, or raise AuthError (wrong ID or PIN, locked, wrong
        role) — ``PinChangeRequired`` for a reset PIN unless ``allow_pin_change`` (changing it)."""
        roles = _roles_of(require)
        now = self._clock()
        with self.journal.transaction() as cur:
            row = cur.execute(
                "SELECT role, salt, pin_hash, scrypt_n, scrypt_r, scrypt_p, failed_attempts, locked_until, "
                "name, enrol_seq, active, must_change FROM staff WHERE staff_id = ?",
                (creds.staff_id,),
            ).fetchone()
            if row is None:
                self._journal_failure(cur, creds.staff_id, 0)
                error: ConsoleError | None = _bad_credentials()
            else:
                failed, locked_until = row[6], row[7]
                if locked_until is not None and now < locked_until:
                    raise AuthError(Msg.of("staff.locked_until", until=_hhmm(locked_until)))
                if locked_until is not None:
                    failed = 0  # the lock has expired: a fresh set of attempts
                error = self._check_pin(cur, creds, row, failed, now)
        # Raised after the commit so the failed attempt is counted (and journaled) durably.
        if error is not None:
            raise error
        role, name, enrol_seq, active, must_change = row[0], row[8], row[9], row[10], row[11]
        if not active:
            raise _bad_credentials()
        self._check_enrolment(creds.staff_id, name, role, enrol_seq)
        actor = Actor(creds.staff_id, Role(role))
        if roles is not None and actor.role not in roles:
            raise role_required(roles)
        if must_change and not allow_pin_change:
            raise PinChangeRequired(Msg.of("staff.pin_change_required"))
        return actor

    def _check_pin(self, cur: sqlite3.Cursor, creds: Credentials, row: tuple[Any, ...], failed: int,
                   now: float) -> ConsoleError | None:
        """Compare the PIN; count, journal and maybe lock on a wrong one (in ``verify``'s transaction)."""
        salt, stored, n, r, p = row[1:6]
        pin = creds.pin if isinstance(creds.pin, str) else ""
        raw = _scrypt(pin, salt, n, r, p) if _PIN_RE.fullmatch(pin) else None
        legacy = len(stored) == HASH_BYTES
        if raw is not None and hmac.compare_digest(raw if legacy else self._peppered(raw), stored):
            if legacy:
                cur.execute("UPDATE staff SET pin_hash = ? WHERE staff_id = ?", (self._peppered(raw), creds.staff_id))
            if failed or row[7] is not None:
                cur.execute(
                    "UPDATE staff SET failed_attempts = 0, locked_until = NULL WHERE staff_id = ?", (creds.staff_id,)
                )
            return None
        failed += 1
        self._journal_failure(cur, creds.staff_id, failed)
        if failed < self.max_attempts:
            cur.execute(
                "UPDATE staff SET failed_attempts = ?, locked_until = NULL WHERE staff_id = ?", (failed, creds.staff_id)
            )
            return _bad_credentials()
        until = now + self.lockout_seconds
        cur.execute("UPDATE staff SET failed_attempts = 0, locked_until = ? WHERE staff_id = ?", (until, creds.staff_id))
        moment = datetime.fromtimestamp(until).astimezone().isoformat(timespec="seconds")
        self.journal.append_in(cur, *EventCodec.encode(AccountLocked(creds.staff_id, self.journal.table_id, moment)),
                               round_id=0, actor=None)
        return AuthError(Msg.of("staff.wrong_pin_locked", until=_hhmm(until)))

    def _peppered(self, raw: bytes) -> bytes:
        pepper = self.journal.pin_pepper
        assert pepper is not None  # a writer's journal always has its table key
        return PEPPERED + hmac.new(pepper, raw, hashlib.sha256).digest()

    def _journal_failure(self, cur: sqlite3.Cursor, typed_id: object, attempt: int) -> None:
        """Who tried which ID, at which table (the entry's time says when); ``attempt`` 0: no such ID."""
        typed = typed_id[:32] if isinstance(typed_id, str) else ""
        self.journal.append_in(cur, *EventCodec.encode(PinFailed(typed, self.journal.table_id, attempt)),
                               round_id=0, actor=None)

    # --- administration: a supervisor's, except changing one's own PIN ---------------------

    def deactivate(self, staff_id: str, *, by: Credentials, reason: str) -> None:
        """The person can no longer sign in; history keeps their name and entries."""
        actor, reason = self._admin(by, reason)
        if staff_id == actor.staff_id:
            raise InputError(Msg.of("staff.deactivate_self"))
        with self.journal.transaction() as cur:
            name, role = self._target(cur, staff_id)
            cur.execute("UPDATE staff SET active = 0 WHERE staff_id = ?", (staff_id,))
            self.journal.append_in(cur, *EventCodec.encode(StaffDeactivated(staff_id, name, role, reason)),
                                   round_id=0, actor=actor)

    def reset_pin(self, staff_id: str, new_pin: str, *, by: Credentials, reason: str) -> None:
        """A forgotten PIN: the supervisor gives a temporary one, to be changed at the next sign-in."""
        actor, reason = self._admin(by, reason)
        with self.journal.transaction() as cur:
            name, role = self._target(cur, staff_id)
            check_pin_format(new_pin, Role(role))
            salt = secrets.token_bytes(SALT_BYTES)
            cur.execute(
                "UPDATE staff SET salt = ?, pin_hash = ?, scrypt_n = ?, scrypt_r = ?, scrypt_p = ?, must_change = 1, "
                "failed_attempts = 0, locked_until = NULL WHERE staff_id = ?",
                (salt, self._peppered(_scrypt(new_pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)), SCRYPT_N, SCRYPT_R, SCRYPT_P, staff_id),
            )
            self.journal.append_in(cur, *EventCodec.encode(StaffPinReset(staff_id, name, reason)),
                                   round_id=0, actor=actor)

    def unlock(self, staff_id: str, *, by: Credentials, reason: str) -> None:
        """Lift a lockout before it runs out (the attempts count starts again)."""
        actor, reason = self._admin(by, reason)
        with self.journal.transaction() as cur:
            name, _ = self._target(cur, staff_id)
            cur.execute("UPDATE staff SET failed_attempts = 0, locked_until = NULL WHERE staff_id = ?", (staff_id,))
            self.journal.append_in(cur, *EventCodec.encode(StaffUnlocked(staff_id, name, reason)),
                                   round_id=0, actor=actor)

    def change_pin(self, creds: Credentials, new_pin: str) -> Actor:
        """Anyone changes their own PIN with the current one (also a PIN a supervisor reset)."""
        record = self.get(creds.staff_id)
        if record is not None:
            check_pin_format(new_pin, record.role)  # before the PIN is checked: a typo costs no attempt
        actor = self.verify(creds, allow_pin_change=True)
        if new_pin == creds.pin:
            raise InputError(Msg.of("staff.same_pin"))
        salt = secrets.token_bytes(SALT_BYTES)
        with self.journal.transaction() as cur:
            cur.execute(
                "UPDATE staff SET salt = ?, pin_hash = ?, scrypt_n = ?, scrypt_r = ?, scrypt_p = ?, must_change = 0 "
                "WHERE staff_id = ?",
                (salt, self._peppered(_scrypt(new_pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)), SCRYPT_N, SCRYPT_R, SCRYPT_P,
                 actor.staff_id),
            )
            self.journal.append_in(cur, *EventCodec.encode(StaffPinChanged(actor.staff_id)), round_id=0, actor=actor)
        return actor

    def _admin(self, by: Credentials, reason: str) -> tuple[Actor, str]:
        reason = reason.strip() if isinstance(reason, str) else ""
        if not reason:
            raise InputError(Msg.of("staff.reason_missing"))
        return self.verify(by, require=Role.SUPERVISOR), REASON.check(reason)

    @staticmethod
    def _target(cur: sqlite3.Cursor, staff_id: str) -> tuple[str, str]:
        row = cur.execute("SELECT name, role, active FROM staff WHERE staff_id = ?", (staff_id,)).fetchone()
        if row is None or not row[2]:
            raise InputError(Msg.of("staff.no_active", staff_id=staff_id[:32]))
        return row[0], row[1]

    def _check_enrolment(self, staff_id: str, name: str, role: str, enrol_seq: int) -> None:
        """The staff row must match its journaled, hash-intact enrolment: a role raised (or a row
        added) by editing the database directly is refused, not honoured."""
        event = self.journal.event(enrol_seq)
        if (
            event is None
            or event.type != "staff_enrolled"
            or not self.journal.hash_ok(event)
            or (event.payload.get("staff_id"), event.payload.get("name"), event.payload.get("role"))
            != (staff_id, name, role)
        ):
            raise AuthError(Msg.of("staff.record_mismatch", staff_id=staff_id))


def _record(row: tuple[Any, ...]) -> StaffRecord:
    return StaffRecord(row[0], row[1], Role(row[2]), row[3], row[4], bool(row[5]), bool(row[6]))


def role_required(roles: frozenset[Role] | set[Role]) -> AuthError:
    if roles == {Role.SUPERVISOR}:
        return AuthError(Msg.of("staff.supervisor_required"))
    first, *others = (Msg.of(f"staff.role_{role.value}") for role in sorted(roles))
    for other in others:
        first = Msg.of("staff.role_or", first=first, second=other)
    return AuthError(Msg.of("staff.roles_required", roles=first))
