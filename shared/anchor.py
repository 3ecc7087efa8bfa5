"""A table's journal head kept on a PostgreSQL server (issue 29): the anchor that shows a journal
replaced together with its key, which nothing inside the table's folder can.

Any live table whose table file names a server (``anchor_url``; a Carrusel table's
``carrusel_url`` serves as its anchor, written with its meter by ``shared.madero.meter_pg``)
writes its head (``HASH:COUNT``, the last round, the croupier on duty) to the server's
``table_heads`` at every round close and at the shift's close; ``journal verify --server URL``
compares a journal with it. Each game's console reads the table's anchor address here, as the
Carrusel's address is read (``server_address``), never journaled: it may hold a password, and
every text that names it goes through ``shared.redact``.

``AnchorWriter`` writes in a thread of its own, within a deadline (the connection's, each
statement's, and ``deadline``, which cuts a socket a silent server holds): a round never waits
on the server. The latest head wins: a head submitted while another is being written replaces
the one still waiting, so nothing queues up behind a silent server. A write that fails is
told once (``on_failure``) until one succeeds, and the next close tries again.

The server's row of a table carries the journal's identity (``Journal.identity``, a fingerprint
of the table key): a head is written over the row only by the journal that wrote it, so a journal
replaced with a fresh key cannot overwrite the head that shows the replacement.

psycopg is imported only when a server is used.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Self

from shared.config import ANCHOR_SETTING, TableFile
from shared.errors import ConsoleError, InputError
from shared.messages import Msg
from shared.record import record
from shared.redact import MAX_ADDRESS, redact
from shared.text import printable

if TYPE_CHECKING:
    import psycopg

_SCHEMES = ("postgresql://", "postgres://")

CONNECT_TIMEOUT_S = 3
"""How long a call waits for an unreachable server (a Carrusel settlement then falls back on §48)."""
STATEMENT_TIMEOUT_S = 4
"""The server ends any one statement after this."""
TCP_USER_TIMEOUT_MS = 4000
"""The kernel gives up on data the server has not acknowledged after this (a cable cut)."""
CALL_DEADLINE_S = 5.0
"""The longest one transaction may take, end to end. A server that accepted the connection
and went silent behind a black hole (TCP acknowledges, nothing answers) is ended by neither
of the timeouts above, so the table cuts its own socket here (``deadline``). With the connect
timeout, a Carrusel settlement is on §48 within about 8 s of a silent server (a prize's second
ask adds one more deadline): long for a croupier, short of a player's patience, and well above
the few milliseconds a healthy server takes."""
CLOSE_WAIT_S = 1.0
"""How long a closing console waits for a head still being written (the shift's close just
before quitting); a silent server is not waited for longer."""

TABLE_HEADS = """
CREATE TABLE IF NOT EXISTS table_heads (
    table_id text PRIMARY KEY,
    carrusel_id text,
    head_hash text NOT NULL,
    entry_count bigint NOT NULL,
    last_round bigint,
    croupier text,
    fallback boolean NOT NULL DEFAULT false,
    updated_at timestamptz NOT NULL DEFAULT now(),
    fallback_since timestamptz,
    journal_id text
)"""
"""Each table's last head (the Carrusel's schema creates it too, see ``shared.madero.meter_pg``):
``carrusel_id`` is the Carrusel a linked table's meter is in (none for another table),
``fallback``/``fallback_since`` whether and since when a Carrusel table is on §48, ``journal_id``
the identity of the journal that wrote it (none from a Carrusel table, whose server binds the
table id to its journal in ``table_identities``)."""

_UPSERT = (
    "INSERT INTO table_heads (table_id, carrusel_id, head_hash, entry_count, last_round, croupier, fallback, "
    "fallback_since, journal_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id) DO UPDATE SET "
    "carrusel_id = excluded.carrusel_id, head_hash = excluded.head_hash, entry_count = excluded.entry_count, "
    "last_round = excluded.last_round, croupier = excluded.croupier, fallback = excluded.fallback, "
    "fallback_since = excluded.fallback_since, updated_at = now(), "
    "journal_id = coalesce(excluded.journal_id, table_heads.journal_id) "
    "WHERE excluded.journal_id IS NULL OR table_heads.journal_id IS NULL OR table_heads.journal_id = excluded.journal_id "
    "RETURNING table_id")


@record
class Head:
    """A table's journal head as the server keeps it (read together, so the hash and the count
    belong to the same entry), with the last round, the croupier on duty and, for a Carrusel
    table, whether §48 is in force and since when."""

    head_hash: str
    entry_count: int
    last_round: int | None
    croupier: str | None
    fallback: bool = False
    fallback_since: datetime | None = None


def upsert_head(cur: psycopg.Cursor[Any], table_id: str, head: Head, *, carrusel_id: str | None = None,
                journal_id: str | None = None) -> bool:
    """Write ``head`` as ``table_id``'s in the transaction of ``cur``; False if the row is another
    journal's (``journal_id`` given and the server's row names another). A head older than the
    one the same journal wrote is left unwritten: a write still under way when its console quit
    lands after the next launch's."""
    if journal_id is not None:  # (a Carrusel's store writes its heads in order, holding the meter)
        kept = cur.execute("SELECT entry_count, journal_id FROM table_heads WHERE table_id = %s FOR UPDATE",
                           (table_id,)).fetchone()
        if kept is not None and kept[1] == journal_id and kept[0] > head.entry_count:
            return True
    row = cur.execute(_UPSERT, (table_id, carrusel_id, head.head_hash, head.entry_count, head.last_round,
                                head.croupier, head.fallback, head.fallback_since if head.fallback else None,
                                journal_id)).fetchone()
    return row is not None


@contextlib.contextmanager
def deadline(conn: psycopg.Connection[Any], seconds: float) -> Iterator[None]:
    """Cut ``conn``'s socket if the block outlasts ``seconds``: a call blocked on it then fails
    at once (an OperationalError, the server unreachable) instead of waiting on TCP."""
    fd = conn.fileno()

    def cut() -> None:
        with contextlib.suppress(OSError), socket.socket(fileno=os.dup(fd)) as sock:
            sock.shutdown(socket.SHUT_RDWR)

    timer = threading.Timer(seconds, cut)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def error_reason(error: Exception, url: str) -> str:
    """A driver's error on one line (libpq's span several), ``url``'s password masked and
    nothing unprintable left (a server's error text is the server's input)."""
    return printable(redact(" ".join(str(error).split()), url))


# --- the address -------------------------------------------------------------------------------


def addresses_in(table_file: TableFile | None, *settings: str) -> dict[str, object]:
    """What the table file says under each of ``settings`` (``TableConfig.SERVER_SETTINGS``), as
    written (``server_address`` checks one where it is used); None for a setting it lacks."""
    mapping = {} if table_file is None else table_file.mapping
    return {setting: mapping.get(setting) for setting in settings}


def server_address(value: object, section: str) -> str:
    """``value`` as a PostgreSQL address: a text, no longer than ``MAX_ADDRESS``, a URL or
    ``key=value`` words; refused with ``section``'s messages (``anchor``, ``carrusel``)."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(Msg.of(f"{section}.url_not_text"))
    url = value.strip()
    if len(url) > MAX_ADDRESS:
        raise InputError(Msg.of(f"{section}.url_too_long", limit=MAX_ADDRESS))
    if not (url.lower().startswith(_SCHEMES) or "=" in url):
        raise InputError(Msg.of(f"{section}.url_not_postgres"))
    return url


def anchor_url(table_file: TableFile | None) -> str | None:
    """The anchor server the table file names, checked; None if it names none."""
    value = addresses_in(table_file, ANCHOR_SETTING)[ANCHOR_SETTING]
    return None if value is None else server_address(value, "anchor")


# --- writing -----------------------------------------------------------------------------------


class AnchorWriter:
    """Writes one table's head to its anchor server in a thread of its own (see the module doc)."""

    def __init__(self, url: str, table_id: str, journal_id: str) -> None:
        self.url, self.table_id, self.journal_id = url, table_id, journal_id
        self.on_failure: Callable[[Msg], None] | None = None
        """Told (from the writer's thread) why a write failed: once, until one succeeds."""
        self.failure: Msg | None = None
        """Why the last write failed (None: it succeeded, or none was tried)."""
        self.written: Head | None = None
        """The last head the server took."""
        self._pending: Head | None = None
        self._busy = False
        self._closed = False
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._conn: psycopg.Connection[Any] | None = None

    def submit(self, head: Head) -> None:
        """Write ``head`` soon; one still waiting is replaced by it. Never waits on the server."""
        with self._wake:
            if self._closed:
                return
            self._pending = head
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="anchor-writer", daemon=True)
                self._thread.start()
            self._wake.notify()

    def idle(self) -> bool:
        """Nothing waits to be written and nothing is being written."""
        with self._wake:
            return self._idle()

    def _idle(self) -> bool:
        return self._pending is None and not self._busy

    def close(self, wait: float = CLOSE_WAIT_S) -> None:
        """Stop the writer, waiting up to ``wait`` seconds for a head still to be written."""
        with self._wake:
            self._wake.wait_for(self._idle, timeout=wait)
            self._closed = True
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._pending is not None or self._closed)
                if self._closed:
                    break
                head, self._pending, self._busy = self._pending, None, True
            assert head is not None
            failure = self._write(head)
            with self._wake:
                self._busy = False
                told, self.failure = self.failure, failure
                if failure is None:
                    self.written = head
                self._wake.notify_all()
            if failure is not None and told is None and self.on_failure is not None:
                self.on_failure(failure)
        if self._conn is not None:
            self._conn.close()

    def _write(self, head: Head) -> Msg | None:
        """Why ``head`` could not be written (None: it was)."""
        try:
            import psycopg
        except ImportError:
            return Msg.of("anchor.not_written", url=redact(self.url), reason=Msg.of("pit.no_driver"))
        try:
            conn = self._connect()
            with deadline(conn, CALL_DEADLINE_S), conn.transaction():
                cur = conn.cursor()
                if upsert_head(cur, self.table_id, head, journal_id=self.journal_id):
                    return None
                return Msg.of("anchor.other_journal", url=redact(self.url), table=printable(self.table_id))
        except (psycopg.Error, OSError) as error:  # OSError: a socket the deadline found gone
            if self._conn is not None and (self._conn.closed or self._conn.broken):
                self._conn = None
            return Msg.of("anchor.not_written", url=redact(self.url), reason=error_reason(error, self.url))

    def _connect(self) -> psycopg.Connection[Any]:
        import psycopg

        if self._conn is None or self._conn.closed or self._conn.broken:
            self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                                         keepalives=1, keepalives_idle=10, keepalives_interval=5,
                                         keepalives_count=3, tcp_user_timeout=TCP_USER_TIMEOUT_MS)
            with deadline(self._conn, CALL_DEADLINE_S):
                self._conn.execute(f"SET statement_timeout = '{STATEMENT_TIMEOUT_S}s'")
                # Once a connection: a table login may not create tables, so a server that has
                # them is only read.
                if self._conn.execute("SELECT to_regclass('table_heads')").fetchone() == (None,):
                    self._conn.execute(TABLE_HEADS)
        return self._conn


# --- reading -----------------------------------------------------------------------------------


class ServerUnavailable(ConsoleError):
    """The server could not be queried (unreachable, or it holds none of the tables asked for)."""


def open_server(url: str, unreachable: str = "anchor.unreachable",
                too_long: str = "anchor.server_too_long") -> psycopg.Connection[tuple[Any, ...]]:
    """A read-only connection to the server at ``url``: ``InputError`` if the string is not a
    connection string (``too_long``'s message for one past ``MAX_ADDRESS``), ``ServerUnavailable``
    (``unreachable``'s message) if psycopg is missing or the server does not answer."""
    if len(url) > MAX_ADDRESS:
        raise InputError(Msg.of(too_long, limit=MAX_ADDRESS))
    try:
        import psycopg
    except ImportError:
        raise ServerUnavailable(Msg.of("pit.no_driver")) from None
    try:
        conn = psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S, tcp_user_timeout=TCP_USER_TIMEOUT_MS)
    except psycopg.ProgrammingError as exc:  # a malformed connection string
        raise InputError(Msg.of("pit.bad_url", url=redact(url), reason=error_reason(exc, url))) from None
    except psycopg.Error as exc:
        raise ServerUnavailable(Msg.of(unreachable, url=redact(url), reason=error_reason(exc, url))) from None
    conn.read_only = True
    return conn


@record
class ServerHead:
    """The journal head a table last wrote to the server."""

    table_id: str
    head_hash: str
    entry_count: int
    updated_at: datetime


class HeadServer:
    """A read-only session on a server holding ``table_heads``; a failure mid-read becomes
    ``ServerUnavailable``. Every value of a row is checked and every text made printable."""

    # The messages that name the server (the pit's name it the Carrusel's).
    UNREACHABLE = "anchor.unreachable"
    NO_SCHEMA = "anchor.no_schema"
    BAD_ROW = "anchor.bad_row"
    TOO_LONG = "anchor.server_too_long"

    def __init__(self, url: str) -> None:
        self.url, self.shown_url = url, redact(url)
        self.conn = open_server(url, self.UNREACHABLE, self.TOO_LONG)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.close()

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """One read-only transaction, within ``CALL_DEADLINE_S``: a server gone silent after the
        connection (no timeout of its own ends that) is cut, and any failure, its BEGIN and
        COMMIT included, becomes ``ServerUnavailable``."""
        import psycopg

        try:
            with deadline(self.conn, CALL_DEADLINE_S), self.conn.transaction():
                yield
        except psycopg.errors.UndefinedTable:
            raise ServerUnavailable(Msg.of(self.NO_SCHEMA, url=self.shown_url)) from None
        except psycopg.Error as exc:
            raise ServerUnavailable(Msg.of(self.UNREACHABLE, url=self.shown_url,
                                           reason=error_reason(exc, self.url))) from None

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, params).fetchall()

    def head(self, table_id: str) -> ServerHead | None:
        """The head ``table_id`` last wrote to the server, or None if it never wrote one."""
        with self._reading():
            rows = self._rows("SELECT head_hash, entry_count, updated_at FROM table_heads WHERE table_id = %s",
                              (table_id,))
        if not rows:
            return None
        head_hash, entry_count, updated_at = rows[0]
        where = ("table_heads", table_id)
        return ServerHead(table_id, self._text(head_hash, where), self._whole(entry_count, where),
                          self._moment(updated_at, where))

    def _unreadable(self, where: tuple[str, object]) -> ServerUnavailable:
        table, row = where
        shown = printable(row) if isinstance(row, str) else printable(repr(row))
        return ServerUnavailable(Msg.of(self.BAD_ROW, url=self.shown_url, table=table, row=shown[:64]))

    def _text(self, value: object, where: tuple[str, object]) -> str:
        if not isinstance(value, str):
            raise self._unreadable(where)
        return printable(value)

    def _whole(self, value: object, where: tuple[str, object]) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._unreadable(where)
        return value

    def _moment(self, value: object, where: tuple[str, object]) -> datetime:
        if not isinstance(value, datetime) or value.tzinfo is None:
            raise self._unreadable(where)
        return value
