"""The Carrusel's meters on a PostgreSQL server (Art. 12 §58): one linked jackpot for tables on
separate terminals.

``PostgresMeterStore`` implements ``MeterStore`` on the server's tables (created and migrated
here; an empty database suffices; the connection string's ``search_path`` picks the schema):

- ``carrusel_schema(version)``: one row, the schema version below.
- ``meters(meter_id, carrusel_id, seed, value)``: one row per table (``meter_id`` is the table
  id); a table of its own is a Carrusel of one, under its own id.
- ``movements(id, key, meter_id, carrusel_id, kind, amount, value_after, round_id, at, prize)``:
  every change of a meter, ``amount`` signed (what the meter gained), so each meter's value is
  the sum of its movements. ``kind``: ``seed`` (the meter created at its seed), ``contribution``
  (§51), ``straight_flush`` (§53: each linked meter's share of the deduction; the paying
  table's row carries the prize paid in ``prize``), ``royal`` (§52: the paying table's meter
  back to its seed, the prize paid in ``prize``), ``reset`` (another linked meter back to its
  seed after that royal), ``released`` (a prize claim given back, see ``_release_claim``: the
  claim's movements then carry no ``prize``, it was never paid). ``key`` is unique: ``"{ref}:{kind}"`` on the paying table's meter
  and ``"{ref}:{kind}:{meter_id}"`` on the others, where ``ref`` is the round's
  ``"{table_id}:{round}:{round hash}"``; a seed's key is ``"{table_id}:0:seed"``.
- ``settlements(key, meter_id, carrusel_id, round_id, reading, at)``: one row per applied round
  (``key`` is the round's ``ref``), with the reading its settlement was valued on. It is the
  exactly-once gate: a round's movements are written in the transaction that inserts its row
  (``on conflict do nothing``), and only if the row was inserted.
- ``table_heads(table_id, carrusel_id, head_hash, entry_count, last_round, croupier, fallback,
  fallback_since, updated_at)``: each table's journal head, written with its round's movements
  and at least every ``HEARTBEAT_S`` while the console runs (``updated_at``: when the table was
  last heard from), with since when §48 is in force if it is.
- ``table_identities(table_id, journal_id, terminal, claimed_at)``: which journal holds each
  table id (issue 27 §4); ``carrusel_changes``: each supervisor's move of a table to another
  Carrusel or seed, with what became of its meter's value.

Every transaction that moves a meter notifies ``notify_channel(schema)`` with the Carrusel id as
payload. A channel belongs to the database, not to a schema, so its name carries the schema:
two Carrusels on one server (or two test schemas) never wake each other.

Serializing two tables that pay at once: ``hold()`` opens a transaction and takes a
transaction-level advisory lock on the schema and Carrusel id (``_LOCK_KEY``) before its first
statement; every transaction that moves a meter takes it. A prize (royal, straight flush) is
claimed inside one hold (``shared.madero.meter.claim_prize``): the settlements row of the
round's ``ref`` is looked up (present: the answer is the reading stored there, nothing moves),
else the meters are read, the prize valued on them, its movement applied and the row inserted
with the reading, then committed; the table journals that answer (``prize_answered``) before
its screen shows the amount, and settles on it. The lock makes every other writer of the Carrusel wait, so the transaction runs as if alone: as
safe as SERIALIZABLE for these tables, without retries (READ COMMITTED reads each statement's
latest committed data, and no writer of the Carrusel commits meanwhile). Contributions may
still be journaled first and applied after, inside the hold (they add up in any order). A
transaction cut off (a kill, a dropped connection, ``deadline``) is rolled back by the server
and releases the lock; a claim whose answer was lost is asked for again with the same ``ref``;
a round settled on §48 after a claim the server committed gives it back (``_release_claim``).

psycopg is imported here only, so ``shared`` works without it (``pip install '.[pit]'``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from shared.anchor import (
    CALL_DEADLINE_S,
    CONNECT_TIMEOUT_S,
    STATEMENT_TIMEOUT_S,
    TABLE_HEADS,
    TCP_USER_TIMEOUT_MS,
    Head,
    deadline,
    upsert_head,
)
from shared.errors import ConsoleError
from shared.madero.meter import (
    CarruselUnreachable,
    MeterUnavailable,
    TableRefused,
    reading_from_dict,
    reading_to_dict,
)
from shared.madero.settlement import LinkedMeter, MeterMovement, MeterReading
from shared.messages import Msg
from shared.redact import redact
from shared.text import printable

if TYPE_CHECKING:
    import psycopg

SCHEMA_VERSION = 3
LOCK_TIMEOUT_S = 3
"""How long a settlement waits for another table's hold of the Carrusel (the lock, a
LockNotAvailable past it: unreachable, §48); below ``STATEMENT_TIMEOUT_S``, which
ends any one statement, a lock wait included. A hold lasts a few statements (tens of
milliseconds); three seconds is a hold stuck on a table gone silent."""
IDLE_IN_TRANSACTION_S = 30
"""A hold lasts a journal write; one idle this long belongs to a table gone silent."""

_LOCK_KEY = "hashtextextended(current_schema() || ':' || %s, 0)"
"""An advisory lock's key: advisory locks, like channels, are the database's, so the key carries
the schema (two Carrusels on one server, or two test schemas, never wait on each other)."""

_MIGRATIONS: dict[int, str] = {
    1: """
CREATE TABLE IF NOT EXISTS meters (
    meter_id text PRIMARY KEY,
    carrusel_id text NOT NULL,
    seed numeric NOT NULL,
    value numeric NOT NULL
);
CREATE INDEX IF NOT EXISTS meters_carrusel ON meters (carrusel_id);
CREATE TABLE IF NOT EXISTS movements (
    id bigserial PRIMARY KEY,
    key text UNIQUE NOT NULL,
    meter_id text NOT NULL,
    carrusel_id text NOT NULL,
    kind text NOT NULL,
    amount numeric NOT NULL,
    value_after numeric NOT NULL,
    round_id bigint,
    at timestamptz NOT NULL DEFAULT now(),
    prize numeric
);
CREATE INDEX IF NOT EXISTS movements_meter ON movements (meter_id, id);
CREATE INDEX IF NOT EXISTS movements_carrusel ON movements (carrusel_id, id);
CREATE TABLE IF NOT EXISTS settlements (
    key text PRIMARY KEY,
    meter_id text NOT NULL,
    carrusel_id text NOT NULL,
    round_id bigint,
    reading jsonb,
    at timestamptz NOT NULL DEFAULT now()
);
"""
    + TABLE_HEADS + ";\n",
    2: """
CREATE TABLE IF NOT EXISTS table_identities (
    table_id text PRIMARY KEY,
    journal_id text NOT NULL,
    terminal text NOT NULL,
    claimed_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS carrusel_changes (
    id bigserial PRIMARY KEY,
    key text UNIQUE NOT NULL,
    table_id text NOT NULL,
    from_carrusel text NOT NULL,
    to_carrusel text NOT NULL,
    from_seed numeric NOT NULL,
    to_seed numeric NOT NULL,
    value numeric NOT NULL,
    value_kept text NOT NULL,
    supervisor text NOT NULL,
    reason text NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE table_heads ADD COLUMN IF NOT EXISTS fallback_since timestamptz;
""",
    # Any table with an anchor address writes its head here too (``shared.anchor``).
    3: """
ALTER TABLE table_heads ALTER COLUMN carrusel_id DROP NOT NULL;
ALTER TABLE table_heads ADD COLUMN IF NOT EXISTS journal_id text;
""",
}


def _unreachable(url: str, error: BaseException) -> CarruselUnreachable:
    # The driver's text may quote the connection string: only its redacted form is shown; and
    # it may carry the server's own words (a trigger's message): nothing unprintable is kept.
    text = str(error).strip()
    return CarruselUnreachable(printable(redact(text.splitlines()[0] if text else type(error).__name__, url)))


def notify_channel(schema: str) -> str:
    """The channel a schema's Carrusel notifies on (as ``_notify`` names it on the server): a
    digest keeps it within PostgreSQL's 63 bytes whatever the schema's name."""
    return "carrusel_" + hashlib.md5(schema.encode(), usedforsecurity=False).hexdigest()


def change_command(table_id: str) -> str:
    """The supervisor command that moves a table's meter to what its table file says."""
    return f"madero-tui carrusel --table TABLE_FILE --by SUPERVISOR_ID --keep carried|left --reason '…'  ({table_id})"


def _spread_to(amount: Decimal, meters: dict[str, Decimal]) -> dict[str, Decimal]:
    """``amount`` over ``meters`` in proportion to their values (to the cent; the last takes
    the rest, so the shares add up to it exactly)."""
    whole = sum(meters.values(), Decimal(0))
    ids = sorted(meters)
    shares = {m: (amount * meters[m] / whole if whole > 0 else amount / len(ids)).quantize(Decimal("0.01"))
              for m in ids[:-1]}
    if ids:
        shares[ids[-1]] = amount - sum(shares.values(), Decimal(0))
    return shares


def round_of(ref: str) -> int | None:
    """The round number of a ``"{table_id}:{round}:{hash}"`` key."""
    parts = ref.rsplit(":", 2)
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


class PostgresMeterStore:
    """Meters of one table on the Carrusel's server (see the module doc)."""

    remote = True

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.RLock()
        self._conn: psycopg.Connection[Any] | None = None
        self._cur: psycopg.Cursor[Any] | None = None
        self._carrusel: dict[str, str] = {}
        """meter_id → carrusel id, as registered."""

    # --- connection and transactions -----------------------------------------------------------

    def _connect(self) -> psycopg.Connection[Any]:
        import psycopg

        if self._conn is None or self._conn.closed or self._conn.broken:
            # Keepalives notice a server gone silent; the server ends a transaction whose table
            # went silent (releasing the Carrusel's lock), and a table waits for that lock only
            # so long before it settles on §48 instead.
            self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                                         keepalives=1, keepalives_idle=10, keepalives_interval=5,
                                         keepalives_count=3, tcp_user_timeout=TCP_USER_TIMEOUT_MS)
            with deadline(self._conn, CALL_DEADLINE_S), self._conn.transaction():
                self._conn.execute(f"SET lock_timeout = '{LOCK_TIMEOUT_S}s'")
                self._conn.execute(f"SET statement_timeout = '{STATEMENT_TIMEOUT_S}s'")
                self._conn.execute(f"SET idle_in_transaction_session_timeout = '{IDLE_IN_TRANSACTION_S}s'")
                cur = self._conn.cursor()
                # One console migrates at a time; the others wait and find the schema current.
                cur.execute(f"SELECT pg_advisory_xact_lock({_LOCK_KEY})", ("carrusel_schema",))
                # A schema already current is only read: a table's role may not create tables.
                if cur.execute("SELECT to_regclass('carrusel_schema')").fetchone() == (None,):
                    cur.execute("CREATE TABLE carrusel_schema (version integer NOT NULL)")
                row = cur.execute("SELECT version FROM carrusel_schema").fetchone()
                version = 0 if row is None else int(row[0])
                for v in sorted(_MIGRATIONS):
                    if v > version:
                        cur.execute(_MIGRATIONS[v])
                if row is None:
                    cur.execute("INSERT INTO carrusel_schema (version) VALUES (%s)", (SCHEMA_VERSION,))
                elif version < SCHEMA_VERSION:
                    cur.execute("UPDATE carrusel_schema SET version = %s", (SCHEMA_VERSION,))
        return self._conn

    def migrate(self) -> None:
        """Bring the schema to ``SCHEMA_VERSION`` as the connection's role (its owner: a table
        login only reads a current schema; see ``shared.madero.carrusel_roles``)."""
        with self._tx():
            pass

    @contextlib.contextmanager
    def _tx(self, lock_carrusel: str | None = None) -> Iterator[psycopg.Cursor[Any]]:
        """A transaction; one opened inside another (``hold()``) joins it. ``lock_carrusel``
        takes that Carrusel's advisory lock for the transaction (see the module doc)."""
        import psycopg

        with self._lock:
            if self._cur is not None:
                yield self._cur
                return
            try:
                conn = self._connect()
                with deadline(conn, CALL_DEADLINE_S), conn.transaction():
                    self._cur = conn.cursor()
                    if lock_carrusel is not None:
                        self._cur.execute(f"SELECT pg_advisory_xact_lock({_LOCK_KEY})", (lock_carrusel,))
                    yield self._cur
            except psycopg.OperationalError as error:
                raise _unreachable(self.url, error) from error
            except psycopg.Error as error:
                raise MeterUnavailable(Msg.of("carrusel.server_error",
                                              reason=printable(redact(str(error), self.url)))) from error
            finally:
                self._cur = None

    # --- helpers inside a transaction ------------------------------------------------------------

    @staticmethod
    def _row(cur: psycopg.Cursor[Any], meter_id: str) -> tuple[str, Decimal, Decimal]:
        row = cur.execute("SELECT carrusel_id, seed, value FROM meters WHERE meter_id = %s", (meter_id,)).fetchone()
        if row is None:
            raise ConsoleError(Msg.of("meter_pg.no_meter", meter=meter_id))
        return str(row[0]), Decimal(row[1]), Decimal(row[2])

    def _read(self, cur: psycopg.Cursor[Any], meter_id: str) -> MeterReading:
        carrusel, seed, value = self._row(cur, meter_id)
        rows = cur.execute("SELECT meter_id, value, seed FROM meters WHERE carrusel_id = %s AND meter_id <> %s "
                           "ORDER BY meter_id", (carrusel, meter_id)).fetchall()
        others = tuple(LinkedMeter(m, Decimal(v), Decimal(s)) for m, v, s in rows)
        return MeterReading(value, value + sum((m.value for m in others), Decimal(0)), seed, others)

    @staticmethod
    def _move(cur: psycopg.Cursor[Any], key: str, meter_id: str, kind: str, amount: Decimal,
              round_id: int | None, prize: Decimal | None = None) -> None:
        row = cur.execute("UPDATE meters SET value = value + %s WHERE meter_id = %s RETURNING value, carrusel_id",
                          (amount, meter_id)).fetchone()
        if row is None:
            raise ConsoleError(Msg.of("meter_pg.no_meter", meter=meter_id))
        cur.execute("INSERT INTO movements (key, meter_id, carrusel_id, kind, amount, value_after, round_id, prize) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    (key, meter_id, row[1], kind, amount, row[0], round_id, prize))

    def _notify(self, cur: psycopg.Cursor[Any], meter_id: str) -> None:
        cur.execute("SELECT pg_notify('carrusel_' || md5(current_schema()), %s)", (self._carrusel_of(cur, meter_id),))

    def _carrusel_of(self, cur: psycopg.Cursor[Any], meter_id: str) -> str:
        if meter_id not in self._carrusel:
            self._carrusel[meter_id] = self._row(cur, meter_id)[0]
        return self._carrusel[meter_id]

    def _gate(self, cur: psycopg.Cursor[Any], meter_id: str, ref: str, reading: MeterReading | None) -> bool:
        """Insert the round's settlement row; False if the round was applied already."""
        row = cur.execute(
            "INSERT INTO settlements (key, meter_id, carrusel_id, round_id, reading) VALUES (%s, %s, %s, %s, %s) "
            "ON CONFLICT (key) DO NOTHING RETURNING key",
            (ref, meter_id, self._carrusel_of(cur, meter_id), round_of(ref),
             None if reading is None else json.dumps(reading_to_dict(reading)))).fetchone()
        return row is not None

    # --- MeterStore ------------------------------------------------------------------------------

    def register(self, meter_id: str, seed: Decimal, link: str | None) -> None:
        """The table's meter created at its seed if new. One already on the server stays in its
        Carrusel at its seed: a table file naming another is refused with the supervisor
        command that moves it (issue 27 §4; ``change_carrusel``), never applied silently."""
        carrusel = link if link is not None else meter_id
        with self._tx(carrusel) as cur:
            row = cur.execute("INSERT INTO meters (meter_id, carrusel_id, seed, value) VALUES (%s, %s, %s, 0) "
                              "ON CONFLICT (meter_id) DO NOTHING RETURNING meter_id",
                              (meter_id, carrusel, seed)).fetchone()
            if row is not None:
                self._carrusel[meter_id] = carrusel
                self._move(cur, f"{meter_id}:0:seed", meter_id, "seed", seed, 0)
                self._notify(cur, meter_id)
                return
            held, held_seed, _ = self._row(cur, meter_id)
        if (held, held_seed) != (carrusel, seed):
            raise TableRefused(Msg.of("carrusel.change_needed", table=printable(meter_id),
                                      held=printable(held), held_seed=held_seed, wanted=printable(carrusel),
                                      wanted_seed=seed, command=change_command(meter_id)))
        self._carrusel[meter_id] = carrusel

    def claim_identity(self, table_id: str, journal_id: str, terminal: str) -> None:
        """The table id is this journal's on the server (issue 27 §4): claimed by the first
        journal that registers it; another journal under the same id is refused, naming the
        first terminal, so two terminals never share one meter and one head."""
        with self._tx() as cur:
            cur.execute("INSERT INTO table_identities (table_id, journal_id, terminal) VALUES (%s, %s, %s) "
                        "ON CONFLICT (table_id) DO NOTHING", (table_id, journal_id, terminal))
            row = cur.execute("SELECT journal_id, terminal, claimed_at FROM table_identities WHERE table_id = %s",
                              (table_id,)).fetchone()
        if row is not None and row[0] != journal_id:
            raise TableRefused(Msg.of("carrusel.table_id_taken", table=printable(table_id),
                                      terminal=printable(str(row[1])),
                                      since=row[2].astimezone().strftime("%d/%m/%Y %H:%M")))

    def change_carrusel(self, meter_id: str, link: str | None, seed: Decimal, keep: str,
                        supervisor: str, reason: str, key: str) -> dict[str, str]:
        """A supervisor's move of the table's meter to another Carrusel (``link``; None: a
        Carrusel of its own, leaving the one it was in) or to another seed, recorded on the
        server (``carrusel_changes``) in one transaction under both Carrusels' locks. ``keep``
        says what becomes of the meter's value: ``carried`` (it goes with the table) or ``left``
        (what it holds above its seed is handed to the other meters of the Carrusel it leaves,
        in proportion to their values, and it restarts at its seed). What was done is returned
        for the table's journal; asked again with the same ``key`` (its journal entry was not
        written), the same record comes back and nothing moves again."""
        to = link if link is not None else meter_id
        with self._tx(to) as cur:
            done = cur.execute("SELECT from_carrusel, to_carrusel, from_seed, to_seed, value, value_kept "
                               "FROM carrusel_changes WHERE key = %s", (key,)).fetchone()
            if done is not None:
                return dict(zip(("source", "to", "from_seed", "to_seed", "value", "kept"), map(str, done), strict=True))
            held, held_seed, value = self._row(cur, meter_id)
            cur.execute(f"SELECT pg_advisory_xact_lock({_LOCK_KEY})", (held,))
            if (held, held_seed) == (to, seed):
                raise ConsoleError(Msg.of("carrusel.nothing_to_change", table=printable(meter_id), carrusel=printable(to)))
            others = cur.execute("SELECT meter_id, value FROM meters WHERE carrusel_id = %s AND meter_id <> %s "
                                 "ORDER BY meter_id", (held, meter_id)).fetchall()
            if keep == "left" and held != to:
                handed = value - held_seed
                if not others and handed:
                    raise ConsoleError(Msg.of("carrusel.nobody_to_leave_to", carrusel=printable(held)))
                shares = _spread_to(handed, {m: Decimal(v) for m, v in others})
                for mid, share in shares.items():
                    self._move(cur, f"{key}:handed:{mid}", mid, "handed", share, None)
                self._move(cur, f"{key}:left", meter_id, "left", -handed, None)
            cur.execute("UPDATE meters SET carrusel_id = %s, seed = %s WHERE meter_id = %s", (to, seed, meter_id))
            cur.execute("INSERT INTO carrusel_changes (key, table_id, from_carrusel, to_carrusel, from_seed, to_seed, "
                        "value, value_kept, supervisor, reason) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                        (key, meter_id, held, to, held_seed, seed, value, keep, supervisor, reason))
            self._carrusel[meter_id] = to
            self._notify(cur, meter_id)
            cur.execute("SELECT pg_notify('carrusel_' || md5(current_schema()), %s)", (held,))
        return {"source": held, "to": to, "from_seed": str(held_seed), "to_seed": str(seed), "value": str(value),
                "kept": keep}

    def read(self, meter_id: str) -> MeterReading:
        with self._tx() as cur:
            return self._read(cur, meter_id)

    def contribute(self, meter_id: str, amount: Decimal, ref: str | None = None) -> None:
        self.deliver_contribution(meter_id, ref or self._serial(meter_id), amount)

    def pay(self, meter_id: str, amount: Decimal, ref: str | None = None) -> None:
        key = ref or self._serial(meter_id)
        with self._tx(self._carrusel.get(meter_id)) as cur:
            if self._gate(cur, meter_id, key, None):
                self._move(cur, f"{key}:straight_flush", meter_id, "straight_flush", -amount, round_of(key), amount)
                self._notify(cur, meter_id)

    def reset_to_seed(self, meter_id: str, ref: str | None = None) -> None:
        key = ref or self._serial(meter_id)
        with self._tx(self._carrusel.get(meter_id)) as cur:
            if not self._gate(cur, meter_id, key, None):
                return
            carrusel = self._carrusel_of(cur, meter_id)
            for mid, seed, value in cur.execute("SELECT meter_id, seed, value FROM meters WHERE carrusel_id = %s "
                                                "ORDER BY meter_id", (carrusel,)).fetchall():
                kind = "royal" if mid == meter_id else "reset"
                self._move(cur, f"{key}:{kind}" if mid == meter_id else f"{key}:{kind}:{mid}", mid, kind,
                           Decimal(seed) - Decimal(value), round_of(key))
            self._notify(cur, meter_id)

    @staticmethod
    def _serial(meter_id: str) -> str:
        """A key for a movement made outside a round (tests, tools): never repeats."""
        return f"{meter_id}:-:{uuid.uuid4().hex}"

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        carrusel = next(iter(self._carrusel.values()), None)
        with self._tx(carrusel):
            yield

    def settled_reading(self, ref: str) -> MeterReading | None:
        with self._tx() as cur:
            row = cur.execute("SELECT reading FROM settlements WHERE key = %s", (ref,)).fetchone()
        return None if row is None or row[0] is None else reading_from_dict(row[0])

    def apply_settlement(self, meter_id: str, ref: str, reading: MeterReading, movement: MeterMovement) -> None:
        round_id = round_of(ref)
        with self._tx(self._carrusel.get(meter_id)) as cur:
            if not self._gate(cur, meter_id, ref, reading):
                return
            if movement.contribution:
                self._move(cur, f"{ref}:contribution", meter_id, "contribution", movement.contribution, round_id)
            if movement.royal_hit:
                # Each meter of the reading restarts at its seed, keeping what came in after the
                # prize was valued (nothing unless applied late; see shared.madero.meter).
                valued = [(meter_id, reading.own + movement.contribution, reading.own_seed)]
                valued += [(m.meter_id, m.value, m.seed) for m in reading.others]
                for mid, at_reading, seed in valued:
                    now = self._row(cur, mid)[2]
                    after = max(seed, seed + now - at_reading)
                    if mid == meter_id:
                        self._move(cur, f"{ref}:royal", mid, "royal", after - now, round_id, movement.royal_prize)
                    else:
                        self._move(cur, f"{ref}:reset:{mid}", mid, "reset", after - now, round_id)
            if movement.straight_flush_paid:
                # §58: the deduction is spread over the linked meters; this one carries the rest.
                for other, share in movement.others_paid:
                    self._move(cur, f"{ref}:straight_flush:{other}", other, "straight_flush", -share, round_id)
                own_share = movement.straight_flush_paid - sum((a for _, a in movement.others_paid), Decimal(0))
                self._move(cur, f"{ref}:straight_flush", meter_id, "straight_flush", -own_share, round_id,
                           movement.straight_flush_paid)
            if movement.contribution or movement.royal_hit or movement.straight_flush_paid:
                self._notify(cur, meter_id)

    def deliver_contribution(self, meter_id: str, ref: str, amount: Decimal) -> None:
        with self._tx(self._carrusel.get(meter_id)) as cur:
            if self._gate(cur, meter_id, ref, None):
                if amount:
                    self._move(cur, f"{ref}:contribution", meter_id, "contribution", amount, round_of(ref))
                    self._notify(cur, meter_id)
            elif self._release_claim(cur, ref):
                self._notify(cur, meter_id)

    def _release_claim(self, cur: psycopg.Cursor[Any], ref: str) -> bool:
        """A round settled on §48 whose prize claim the server committed while its answer was
        lost (issue 27): the prize never reached a player, so its debit goes back to each meter
        it came from (``released`` movements); the round's contribution, the same on either
        paytable, stays. False if the round holds no claim (or it was released already)."""
        row = cur.execute("SELECT reading FROM settlements WHERE key = %s FOR UPDATE", (ref,)).fetchone()
        if row is None or row[0] is None:
            return False
        prefix = f"{ref}:"
        taken = cur.execute("SELECT key, meter_id, amount FROM movements WHERE left(key, %s) = %s "
                            "AND kind IN ('royal', 'reset', 'straight_flush') ORDER BY id",
                            (len(prefix), prefix)).fetchall()
        for key, mid, amount in taken:
            self._move(cur, f"{key}:released", mid, "released", -Decimal(amount), round_of(ref))
        # The prize never reached a player: no report may count it as paid.
        cur.execute("UPDATE movements SET prize = NULL WHERE left(key, %s) = %s AND prize IS NOT NULL",
                    (len(prefix), prefix))
        cur.execute("UPDATE settlements SET reading = NULL WHERE key = %s", (ref,))
        return True

    def write_head(self, table_id: str, head: Head) -> None:
        with self._tx() as cur:
            upsert_head(cur, table_id, head, carrusel_id=self._carrusel_of(cur, table_id))

    def movements(self, meter_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The latest entries of the meter's own log (§54), newest first."""
        with self._tx() as cur:
            rows = cur.execute("SELECT at, kind, amount, value_after, key FROM movements WHERE meter_id = %s "
                               "ORDER BY id DESC LIMIT %s", (meter_id, limit)).fetchall()
        return [{"ts": at.isoformat(timespec="milliseconds"), "kind": kind, "amount": str(amount),
                 "value_after": str(after), "ref": key} for at, kind, amount, after, key in rows]

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def sibling(self) -> PostgresMeterStore:
        other = PostgresMeterStore(self.url)
        other._carrusel = self._carrusel  # one map: a registration by either locks for both
        return other
