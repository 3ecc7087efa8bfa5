"""The pit's columns and cells, shared by its text (``madero-tui pit``) and its screen
(``--watch``, pit_app.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo

from shared.madero.pit import CarruselView, PitTable, Prize
from shared.messages import text
from shared.money import fmt_money

Column = tuple[str, str, int]
"""A column: its heading (a [pit] code), alignment (``<`` or ``>``), width."""

TABLE_COLUMNS: tuple[Column, ...] = (
    ("col_table", "<", 12), ("col_status", "<", 10), ("col_round", ">", 9), ("col_croupier", "<", 10),
    ("col_fallback", "<", 23), ("col_meter", ">", 14), ("col_today", ">", 14), ("col_updated", "<", 14))
PRIZE_COLUMNS: tuple[Column, ...] = (
    ("col_when", "<", 19), ("col_prize", "<", 22), ("col_table", "<", 12), ("col_prize_round", ">", 10),
    ("col_amount", ">", 14))


def _when(moment: datetime | None, lang: str, tz: tzinfo | None, form: str = "%Y-%m-%d %H:%M:%S") -> str:
    return text("pit.never", lang) if moment is None else moment.astimezone(tz).strftime(form)


def _fixed(table: PitTable, lang: str, tz: tzinfo | None) -> str:
    since = table.fixed_since
    if since is None:
        return text("pit.fallback_off", lang)
    return text("pit.fallback_on", lang, since=since.astimezone(tz).strftime("%H:%M"))


def headings(columns: Sequence[Column], lang: str) -> list[str]:
    return [text(f"pit.{key}", lang) for key, _, _ in columns]


def table_cells(table: PitTable, lang: str, tz: tzinfo | None) -> list[str]:
    """One linked table as the cells of ``TABLE_COLUMNS``."""
    return [table.table_id, text("pit.online" if table.online else "pit.offline", lang),
            "—" if table.last_round is None else str(table.last_round), table.croupier or "—",
            _fixed(table, lang, tz),
            fmt_money(table.meter, lang=lang), fmt_money(table.contributions_today, lang=lang),
            _when(table.updated_at, lang, tz, "%d/%m %H:%M:%S")]


def prize_cells(prize: Prize, lang: str, tz: tzinfo | None) -> list[str]:
    """One prize as the cells of ``PRIZE_COLUMNS``."""
    return [_when(prize.at, lang, tz), text(f"pit.{prize.kind}", lang), prize.table_id, str(prize.round_id),
            fmt_money(prize.amount, lang=lang)]


def heading(view: CarruselView, now: datetime, lang: str, tz: tzinfo | None) -> str:
    return text("pit.heading", lang, carrusel=view.carrusel_id, jackpot=view.jackpot, now=_when(now, lang, tz))
