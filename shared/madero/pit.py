"""What the Carrusel server holds, read for the supervisor (Art. 12 §58): the pit view and each
table's last journal head.

Read-only: every query runs in one read-only transaction, so the figures of one view are of one
moment. The tables are those ``shared.madero.meter_pg`` writes (``meters``, ``movements``,
``table_heads``, the last one ``shared.anchor``'s, whose ``HeadServer`` reads it); the
connection's ``search_path`` selects their schema.
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo
from decimal import Decimal
from typing import Any

from shared.anchor import HeadServer, ServerUnavailable
from shared.record import record
from shared.text import printable

PRIZE_KINDS = frozenset({"royal", "straight_flush"})
"""The movements that carry a prize paid (``shared.madero.meter_pg``)."""

__all__ = ["CarruselServer", "ServerUnavailable"]

ONLINE_MINUTES = 1
"""A table is online when it wrote its head within this many minutes. It writes it at every
settlement; a Madero round at a full table (seven boxes, Jackpot bets, questions) takes two to
three minutes, so five tolerates one slow round, and a terminal that stopped is seen within one
walk of the pit."""


@record
class PitTable:
    table_id: str
    meter: Decimal
    online: bool
    last_round: int | None
    croupier: str | None
    fallback: bool
    updated_at: datetime | None
    """When the table was last heard from (its head, written at least every HEARTBEAT_S)."""
    contributions_today: Decimal
    fallback_since: datetime | None = None
    """Since when the table says it is on §48's fixed paytable (None: it says it is not)."""

    @property
    def fixed_since(self) -> datetime | None:
        """Since when the table is on the fixed paytable of §48, from the last state the server
        knows: as the table reported it, or, a table silent past the online window, since it
        was last heard from (a table that cannot reach the server settles on §48)."""
        if self.fallback:
            return self.fallback_since or self.updated_at
        return None if self.online else self.updated_at

    def to_dict(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "meter": str(self.meter), "online": self.online,
                "last_round": self.last_round, "croupier": self.croupier, "fallback": self.fallback,
                "updated_at": None if self.updated_at is None else self.updated_at.isoformat(),
                "fixed_since": None if self.fixed_since is None else self.fixed_since.isoformat(),
                "contributions_today": str(self.contributions_today)}


@record
class Prize:
    kind: str  # royal | straight_flush (the movement kinds of shared.madero.meter_pg)
    at: datetime
    table_id: str
    round_id: int
    amount: Decimal

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "at": self.at.isoformat(), "table_id": self.table_id,
                "round_id": self.round_id, "amount": str(self.amount)}


@record
class CarruselView:
    carrusel_id: str
    jackpot: Decimal
    tables: tuple[PitTable, ...]
    prizes: tuple[Prize, ...]  # newest first

    def to_dict(self) -> dict[str, Any]:
        return {"carrusel_id": self.carrusel_id, "jackpot": str(self.jackpot),
                "tables": [table.to_dict() for table in self.tables],
                "prizes": [prize.to_dict() for prize in self.prizes]}


class CarruselServer(HeadServer):
    """A read-only session on the Carrusel server; a failure mid-read becomes ``ServerUnavailable``."""

    UNREACHABLE = "pit.unreachable"
    NO_SCHEMA = "pit.no_schema"
    BAD_ROW = "pit.bad_row"
    TOO_LONG = "carrusel.url_too_long"

    def carrusel_ids(self) -> list[str]:
        with self._reading():
            rows = self._rows("SELECT DISTINCT carrusel_id FROM meters WHERE carrusel_id IS NOT NULL "
                              "ORDER BY carrusel_id")
        return [self._text(carrusel_id, ("meters", carrusel_id)) for (carrusel_id,) in rows]

    def view(self, carrusel_id: str, now: datetime, *, tz: tzinfo | None = None,
             online_minutes: int = ONLINE_MINUTES, prize_limit: int = 50) -> CarruselView | None:
        """The Carrusel ``carrusel_id`` as the server holds it at ``now``; None if no table is
        linked under that id. ``tz`` fixes which day "today" is (None: the machine's local day)."""
        since = start_of_day(now, tz)
        with self._reading():
            meters = self._rows("SELECT meter_id, value FROM meters WHERE carrusel_id = %s ORDER BY meter_id",
                                (carrusel_id,))
            if not meters:
                return None
            heads = {row[0]: row[1:] for row in self._rows(
                "SELECT table_id, last_round, croupier, fallback, updated_at, fallback_since FROM table_heads "
                "WHERE carrusel_id = %s", (carrusel_id,))}
            today = dict(self._rows(
                "SELECT meter_id, SUM(amount) FROM movements WHERE carrusel_id = %s AND kind = 'contribution' "
                "AND at >= %s GROUP BY meter_id", (carrusel_id, since)))
            # Only the paying table's movement of a prize carries the prize paid.
            prize_rows = self._rows(
                "SELECT kind, at, meter_id, round_id, prize FROM movements WHERE carrusel_id = %s "
                "AND prize IS NOT NULL ORDER BY at DESC, id DESC LIMIT %s", (carrusel_id, prize_limit))
        window = timedelta(minutes=online_minutes)
        tables = []
        for meter_id, value in meters:
            last_round, croupier, fallback, updated_at, since = heads.get(meter_id, (None, None, False, None, None))
            where = ("meters", meter_id)
            table_id = self._text(meter_id, where)
            updated = None if updated_at is None else self._moment(updated_at, where)
            tables.append(PitTable(
                table_id, self._money(value, where), updated is not None and now - updated <= window,
                None if last_round is None else self._whole(last_round, where),
                None if croupier is None else self._text(croupier, where), fallback is True, updated,
                self._money(today.get(meter_id) or Decimal(0), where),
                None if since is None else self._moment(since, where)))
        prizes = []
        for kind, at, table_id, round_id, amount in prize_rows:
            where = ("movements", table_id)
            if kind not in PRIZE_KINDS:
                raise self._unreadable(where)
            prizes.append(Prize(kind, self._moment(at, where), self._text(table_id, where),
                                self._whole(round_id, where), self._money(amount, where)))
        jackpot = sum((table.meter for table in tables), Decimal(0))
        return CarruselView(printable(carrusel_id), jackpot, tuple(tables), tuple(prizes))

    def _money(self, value: object, where: tuple[str, object]) -> Decimal:
        if not isinstance(value, Decimal | int) or isinstance(value, bool) or not Decimal(value).is_finite():
            raise self._unreadable(where)
        return Decimal(value)


def start_of_day(now: datetime, tz: tzinfo | None) -> datetime:
    """Midnight of ``now``'s day in ``tz`` (None: the machine's local time), as an aware moment."""
    local = now.astimezone(tz)
    return local.replace(hour=0, minute=0, second=0, microsecond=0)
