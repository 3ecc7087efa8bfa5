"""Staff, roles and PINs, kept in the table's journal database.

PINs are stored only as salted ``hashlib.scrypt`` hashes, peppered with the table key (kept
outside the journal, so the database alone does not allow guessing PINs offline), and never
leave this module: not in events, reprs, exceptions or logs. Five wrong PINs lock an account
for a while; the failed attempts count is kept in the database so a restart does not reset it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from shared.errors import AuthError, InputError
from shared.journal import Journal
from shared.text import STAFF_NAME


class Role(StrEnum):
    CROUPIER = "croupier"
    SUPERVISOR = "supervisor"
    TRAINER = "trainer"
    TRAINEE = "trainee"


ROLE_ES = {
    Role.CROUPIER: "croupier",
    Role.SUPERVISOR: "supervisor",
    Role.TRAINER: "instructor",
    Role.TRAINEE: "aprendiz",
}


@dataclass(frozen=True)
class Actor:
    """Who did something, as journaled with each event. Only ``StaffRegistry.verify`` (or a
    training engine) should make one for a live command."""

    staff_id: str
    role: Role


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


def check_pin_format(pin: str) -> None:
    """PINs are 4 to 8 ASCII digits; the message never repeats what was typed."""
    if not isinstance(pin, str) or not _PIN_RE.fullmatch(pin):
        raise InputError("el PIN debe tener de 4 a 8 dígitos (0-9)", "the PIN must be 4 to 8 digits (0-9)")


def _hhmm(epoch: float) -> str:
    return datetime.fromtimestamp(epoch).strftime("%H:%M")


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
        with journal.transaction() as cur:
            cur.execute(_STAFF_SCHEMA)

    def has_supervisor(self) -> bool:
        return bool(self.journal.query("SELECT 1 FROM staff WHERE role = ? LIMIT 1", (Role.SUPERVISOR.value,)))

    def get(self, staff_id: str) -> StaffRecord | None:
        rows = self.journal.query(
            "SELECT staff_id, name, role, failed_attempts, locked_until FROM staff WHERE staff_id = ?", (staff_id,)
        )
        return StaffRecord(*rows[0][:2], Role(rows[0][2]), *rows[0][3:]) if rows else None

    def all(self) -> list[StaffRecord]:
        rows = self.journal.query(
            "SELECT staff_id, name, role, failed_attempts, locked_until FROM staff ORDER BY staff_id"
        )
        return [StaffRecord(r[0], r[1], Role(r[2]), r[3], r[4]) for r in rows]

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
            raise InputError(
                "ID de personal no válido (letras, dígitos, . _ -; hasta 32)",
                "invalid staff ID (letters, digits, . _ -; up to 32)",
            )
        if not name:
            raise InputError("falta el nombre", "the name is missing")
        STAFF_NAME.check(name)
        check_pin_format(pin)
        if isinstance(by, Credentials):
            by = self.verify(by, require=Role.SUPERVISOR)
        salt = secrets.token_bytes(SALT_BYTES)
        digest = self._peppered(_scrypt(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P))
        with self.journal.transaction() as cur:
            # Checked inside the write transaction so two consoles cannot both enrol a "first" supervisor.
            has_sup = cur.execute("SELECT 1 FROM staff WHERE role = ? LIMIT 1", (Role.SUPERVISOR.value,)).fetchone()
            if by is None:
                if has_sup or role is not Role.SUPERVISOR:
                    raise AuthError(
                        "se requiere un supervisor para dar de alta personal",
                        "a supervisor is required to enrol staff",
                    )
            else:
                row = cur.execute(
                    "SELECT role, name, enrol_seq FROM staff WHERE staff_id = ?", (by.staff_id,)
                ).fetchone()
                if by.role is not Role.SUPERVISOR or row is None or row[0] != Role.SUPERVISOR.value:
                    raise AuthError("se requiere un supervisor", "a supervisor is required")
                self._check_enrolment(by.staff_id, row[1], row[0], row[2])
            if cur.execute("SELECT 1 FROM staff WHERE staff_id = ?", (staff_id,)).fetchone():
                raise InputError(f"el ID {staff_id} ya existe", f"staff ID {staff_id} already exists")
            event = self.journal.append_in(
                cur,
                "staff_enrolled",
                {"staff_id": staff_id, "name": name, "role": role.value, "by": by.staff_id if by else None},
                round_id=0,
                actor=by,
            )
            cur.execute(
                "INSERT INTO staff (staff_id, name, role, enrol_seq, salt, pin_hash, scrypt_n, scrypt_r, scrypt_p) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (staff_id, name, role.value, event.seq, salt, digest, SCRYPT_N, SCRYPT_R, SCRYPT_P),
            )

    def verify(self, creds: Credentials, *, require: Role | set[Role] | None = None) -> Actor:
        """Check a PIN; return the Actor, or raise AuthError (wrong PIN, locked, wrong role)."""
        roles = _roles_of(require)
        now = self._clock()
        with self.journal.transaction() as cur:
            row = cur.execute(
                "SELECT role, salt, pin_hash, scrypt_n, scrypt_r, scrypt_p, failed_attempts, locked_until, "
                "name, enrol_seq FROM staff WHERE staff_id = ?",
                (creds.staff_id,),
            ).fetchone()
            if row is None:
                raise AuthError(
                    f"ID de personal desconocido: {creds.staff_id}", f"unknown staff ID: {creds.staff_id}"
                )
            role, salt, stored, n, r, p, failed, locked_until, name, enrol_seq = row
            if locked_until is not None and now < locked_until:
                raise AuthError(
                    f"cuenta bloqueada hasta {_hhmm(locked_until)}", f"account locked until {_hhmm(locked_until)}"
                )
            if locked_until is not None:
                failed, locked_until = 0, None  # the lock has expired: a fresh set of attempts
            pin = creds.pin if isinstance(creds.pin, str) else ""
            raw = _scrypt(pin, salt, n, r, p) if _PIN_RE.fullmatch(pin) else None
            legacy = len(stored) == HASH_BYTES
            ok = raw is not None and hmac.compare_digest(raw if legacy else self._peppered(raw), stored)
            if not ok:
                failed += 1
                if failed >= self.max_attempts:
                    until = now + self.lockout_seconds
                    cur.execute(
                        "UPDATE staff SET failed_attempts = 0, locked_until = ? WHERE staff_id = ?",
                        (until, creds.staff_id),
                    )
                    error = AuthError(
                        f"PIN incorrecto; cuenta bloqueada hasta {_hhmm(until)}",
                        f"wrong PIN; account locked until {_hhmm(until)}",
                    )
                else:
                    cur.execute(
                        "UPDATE staff SET failed_attempts = ?, locked_until = NULL WHERE staff_id = ?",
                        (failed, creds.staff_id),
                    )
                    left = self.max_attempts - failed
                    error = AuthError(
                        f"PIN incorrecto (quedan {left} intentos)", f"wrong PIN ({left} attempts left)"
                    )
            else:
                error = None
                if legacy:
                    cur.execute(
                        "UPDATE staff SET pin_hash = ? WHERE staff_id = ?", (self._peppered(raw), creds.staff_id)
                    )
                if failed or locked_until is not None or row[7] is not None:
                    cur.execute(
                        "UPDATE staff SET failed_attempts = 0, locked_until = NULL WHERE staff_id = ?",
                        (creds.staff_id,),
                    )
        # Raised after the commit so the failed attempt is counted durably.
        if error is not None:
            raise error
        self._check_enrolment(creds.staff_id, name, role, enrol_seq)
        actor = Actor(creds.staff_id, Role(role))
        if roles is not None and actor.role not in roles:
            raise role_required(roles)
        return actor

    def _peppered(self, raw: bytes) -> bytes:
        pepper = self.journal.pin_pepper
        assert pepper is not None  # a writer's journal always has its table key
        return PEPPERED + hmac.new(pepper, raw, hashlib.sha256).digest()

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
            raise AuthError(
                f"el registro de {staff_id} no coincide con su alta en el diario; avise a un supervisor",
                f"the record of {staff_id} does not match its enrolment in the journal; call a supervisor",
            )


def role_required(roles: frozenset[Role] | set[Role]) -> AuthError:
    if roles == {Role.SUPERVISOR}:
        return AuthError("se requiere un supervisor", "a supervisor is required")
    names_es = " o ".join(sorted(ROLE_ES[r] for r in roles))
    names_en = " or ".join(sorted(r.value for r in roles))
    return AuthError(f"se requiere: {names_es}", f"required: {names_en}")
