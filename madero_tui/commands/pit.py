"""``madero-tui pit``: the Carrusel as the server holds it, for the supervisor (read-only)."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo

from shared.errors import ConsoleError, InputError
from shared.madero.pit import ONLINE_MINUTES, CarruselServer, CarruselView
from shared.messages import lang_of, text
from madero_tui.pit_cells import PRIZE_COLUMNS, Column, TABLE_COLUMNS, heading, headings, prize_cells, table_cells
from tui_common.cli import _version, fail

SERVER_ENV = "MADERO_CARRUSEL_URL"
EXIT_SERVER = 3

def _minutes(value: str, lang: str) -> int:
    if not (value.isascii() and value.isdigit() and 1 <= int(value) <= 24 * 60):
        raise argparse.ArgumentTypeError(text("help.pit_minutes", lang))
    return int(value)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    parser = subparsers.add_parser(
        "pit", help=text("help.pit", lang), description=text("help.pit_description", lang),
        epilog=text("help.example", lang,
                    example="%(prog)s --server 'postgresql://pit@10.0.0.5/casino' --carrusel SALA-A --lang en"))
    parser.add_argument("--server", default=os.environ.get(SERVER_ENV), metavar="URL",
                        help=text("help.pit_server", lang, env=SERVER_ENV))
    parser.add_argument("--carrusel", metavar="ID", help=text("help.pit_carrusel", lang))
    parser.add_argument("--online-minutes", type=lambda value: _minutes(value, lang), default=ONLINE_MINUTES, metavar="N",
                        help=text("help.pit_online", lang, minutes=ONLINE_MINUTES))
    parser.add_argument("--json", action="store_true", help=text("help.json", lang))
    parser.add_argument("--watch", action="store_true", help=text("help.pit_watch", lang))
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}", help=text("help.version", lang))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, *, tz: tzinfo | None = None) -> int:
    """``tz``: the time zone of the times shown and of "today" (None: the machine's)."""
    lang = lang_of(args)
    if not args.server:
        return fail(f"pit: {text('pit.no_server', lang, env=SERVER_ENV)}")
    now = datetime.now(UTC)
    try:
        with CarruselServer(args.server) as server:
            ids = [args.carrusel] if args.carrusel else server.carrusel_ids()
            views = [] if args.watch else [server.view(carrusel_id, now, tz=tz, online_minutes=args.online_minutes)
                                           for carrusel_id in ids]
    except InputError as exc:
        return fail(f"pit: {exc.message(lang)}")
    except ConsoleError as exc:
        return fail(f"pit: {exc.message(lang)}", EXIT_SERVER)
    if args.watch:
        return _watch(args, ids, lang, tz)
    if args.carrusel and views[0] is None:
        return fail(f"pit: {text('pit.no_carrusel', lang, carrusel=args.carrusel)}")
    found = [view for view in views if view is not None]
    if args.json:
        print(json.dumps({"at": now.isoformat(), "online_minutes": args.online_minutes,
                          "carrusels": [view.to_dict() for view in found]}, ensure_ascii=False))
        return 0
    if not found:
        print(text("pit.no_carrusels", lang))
    for number, view in enumerate(found):
        if number:
            print()
        print("\n".join(view_lines(view, now, lang, tz, args.online_minutes)))
    return 0


def _watch(args: argparse.Namespace, ids: list[str], lang: str, tz: tzinfo | None) -> int:
    if len(ids) != 1:
        return fail(f"pit: {text('pit.choose_carrusel', lang, ids=', '.join(ids)) if ids else text('pit.no_carrusels', lang)}")
    from madero_tui.pit_app import PitApp

    def fetch(now: datetime) -> CarruselView | None:
        # A connection per read: a server restarted meanwhile is simply read again.
        with CarruselServer(args.server) as server:
            return server.view(ids[0], now, tz=tz, online_minutes=args.online_minutes)

    PitApp(fetch, ids[0], lang, tz, args.online_minutes).run()
    return 0


def _line(cells: Sequence[str], columns: Sequence[Column]) -> str:
    return " ".join(f"{cell:{align}{width}}" for cell, (_, align, width) in zip(cells, columns, strict=True)).rstrip()


def view_lines(view: CarruselView, now: datetime, lang: str, tz: tzinfo | None, online_minutes: int) -> list[str]:
    """The Carrusel as text: heading, one line per linked table, then the prizes, newest first."""
    lines = [heading(view, now, lang, tz), _line(headings(TABLE_COLUMNS, lang), TABLE_COLUMNS)]
    lines += [_line(table_cells(table, lang, tz), TABLE_COLUMNS) for table in view.tables]
    lines.append(text("pit.online_rule", lang, minutes=online_minutes))
    lines.append("")
    if not view.prizes:
        lines.append(text("pit.no_prizes", lang))
        return lines
    lines += [text("pit.prizes", lang), _line(headings(PRIZE_COLUMNS, lang), PRIZE_COLUMNS)]
    lines += [_line(prize_cells(prize, lang, tz), PRIZE_COLUMNS) for prize in view.prizes]
    return lines
