"""``report``: the shift report of a table's journal, for both apps (no Textual)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from datetime import UTC, date, datetime
from itertools import chain
from pathlib import Path

from shared.errors import ConsoleError
from shared.base_events import TrayOpened
from shared.events import EventCodec
from shared.journal import Journal, ReadView, default_journal_path
from shared.journal_cli import named_table_id
from shared.messages import lang_of, money_text, text
from shared.money import fmt_money
from shared.report import (
    CroupierShift,
    Reading,
    ShiftClose,
    gaming_day_windows,
    last_moment,
    report_events,
    shift_closes,
    shift_readings,
    shift_report,
)
from shared.tray import TRAY_EVENTS, TrayLedger, tray_ledgers, trays_of_shift
from tui_common.cli import add_table_option, fail
from tui_common.i18n import t
from tui_common.shift_text import hold_text
from tui_common.tables import print_table


def add_report_subcommand(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str, game: str, default_table_id: str,
                          codec: EventCodec) -> None:
    parser = subparsers.add_parser("report", help=text("help.report", lang), description=text("help.report_terms", lang),
                                   epilog=text("help.example_report", lang))
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help=text("help.db", lang))
    add_table_option(parser, lang)
    window = parser.add_mutually_exclusive_group()
    window.add_argument("--since", help=text("help.since", lang))
    window.add_argument("--day", help=text("report.help_day", lang))
    window.add_argument("--all", action="store_true", help=text("report.help_all", lang))
    parser.add_argument("--json", action="store_true", help=text("help.json", lang))
    parser.add_argument("--shift", nargs="?", type=int, const=0, metavar="N", help=text("help.shift", lang))
    parser.set_defaults(func=lambda args: run(args, game, default_table_id, codec))


def _moment(text: str) -> str:
    """A moment typed as ISO text, as the journal writes its times (UTC, to the microsecond)."""
    moment = datetime.fromisoformat(text)
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _readings(view: ReadView, codec: EventCodec, game: str, args: argparse.Namespace,
              since: str | None) -> tuple[Iterator[Reading], datetime | None]:
    """The entries a report folds: those of the gaming day ``--day`` names, as the journal
    recorded it (``gaming_day_windows``), else from ``since`` on in the journal's order; and,
    when they run to the journal's end, its last entry's time (an open turn runs to it)."""
    if args.day:
        windows = gaming_day_windows(view, date.fromisoformat(args.day).isoformat())
        readings = chain.from_iterable(report_events(view, codec, game, after=after, before=before)
                                       for after, before in windows)
        return readings, last_moment(view) if windows and windows[-1][1] is None else None
    return report_events(view, codec, game, since=since), last_moment(view)


# The table's columns, by their headings' catalog keys; the croupier's alone is aligned left.
COLUMNS = ("report_col_croupier", "report_col_rounds", "report_col_voids", "report_col_rate", "report_col_bet",
           "report_col_returned", "report_col_commission", "report_col_adj_paid", "report_col_adj_collected",
           "report_col_rounding", "report_col_win", "report_col_hold")


def _row(line: CroupierShift, lang: str) -> tuple[str, ...]:
    rate = line.rounds_per_hour
    amounts = (line.handle, line.void_returned, line.commission, line.adjusted_paid, line.adjusted_collected,
               line.rounding, line.win)
    return (line.staff_id, str(line.rounds), str(line.voided), "—" if rate is None else money_text(rate, lang, 1),
            *(fmt_money(amount, lang=lang) for amount in amounts), hold_text(line.hold_percent, lang))


def journal_path(args: argparse.Namespace, game: str, default_table_id: str) -> Path:
    """The journal a tool reads: ``--db``, else that of the table the options name (``--table``
    FILE), else the shipped table's."""
    db: Path | None = getattr(args, "db", None)
    return db or default_journal_path(game, named_table_id(game, getattr(args, "table", None), default_table_id))


def run(args: argparse.Namespace, game: str, default_table_id: str, codec: EventCodec) -> int:
    lang = lang_of(args)
    try:
        path = journal_path(args, game, default_table_id)
    except ConsoleError as exc:
        return fail(f"report: {exc.message(lang)}")
    if args.shift is not None:
        return _run_shift(path, game, codec, args.shift, args.json, lang)
    try:
        since = _moment(args.since) if args.since else None
        if args.day:
            date.fromisoformat(args.day)
    except ValueError:
        return fail(t("report_bad_since", lang, text=args.day or args.since))
    try:
        with Journal.open_existing(path, game=game) as journal, journal.read_view() as view:
            # One read: the head printed is the one the figures were read up to.
            head_hash, entries = view.head()
            report = shift_report(*_readings(view, codec, game, args, since))
            table_id = journal.table_id
    except ConsoleError as exc:
        return fail(f"report: {exc.message(lang)}")
    lines = sorted(report.by_croupier.values(), key=lambda line: line.staff_id)
    if args.json:
        print(json.dumps({"table": table_id, "croupiers": [line.to_dict() for line in lines],
                          "total": report.total.to_dict(), "journal": {"entries": entries, "head": head_hash}},
                         ensure_ascii=False))
        return 0
    print(t("report_table", lang, table=table_id))
    print_table([_row(line, lang) for line in (*lines, report.total)], headings=[t(key, lang) for key in COLUMNS],
                right=range(1, len(COLUMNS)), indent=0)
    if report.total.arbitrated:
        print(t("report_arbitrated", lang, rounds=report.total.arbitrated))
    # The anchor of what was reported (``journal verify --anchor HASH:COUNT`` checks it later).
    print(t("report_journal_head", lang, entries=entries, anchor=f"{head_hash}:{entries}"))
    return 0


def _run_shift(path: Path, game: str, codec: EventCodec, number: int, as_json: bool, lang: str) -> int:
    """One shift (the last when ``number`` is 0) with every figure of each croupier."""
    from tui_common.shift_text import shift_text

    try:
        with Journal.open_existing(path, game=game) as journal, journal.read_view() as view:
            found = one_shift(view, codec, game, number)
            table_id = journal.table_id
    except ConsoleError as exc:
        return fail(f"report: {exc.message(lang)}")
    if isinstance(found, int):
        return fail(t("report_no_shift", lang) if not found else
                    t("report_no_such_shift", lang, number=number, shifts=found))
    shift, trays = found
    if as_json:
        print(json.dumps({"table": table_id} | shift.to_dict() | {"trays": [tray.to_dict() for tray in trays]},
                         ensure_ascii=False))
    else:
        print(t("report_table", lang, table=table_id))
        print(shift_text(shift, lang, trays=trays))
    return 0


def one_shift(view: ReadView, codec: EventCodec, game: str, number: int) -> tuple[ShiftClose, list[TrayLedger]] | int:
    """Shift ``number`` (the last when 0) and the trays closed in it, reading only its entries
    (and those of trays opened before it); else how many shifts there are."""
    shifts = shift_closes(shift_readings(view))
    if not shifts or not 0 <= number <= len(shifts):
        return len(shifts)
    index = number - 1 if number else len(shifts) - 1
    outline = shifts[index]
    before = None if outline.entries is None else outline.entries + 1
    readings = report_events(view, codec, game, after=outline.first_seq - 1, before=before)
    shift = shift_closes(readings, end=last_moment(view) if before is None else None)[0]
    shift.number = outline.number
    # A tray closed in the shift may have been opened before it: its ledger starts there.
    opened = [e.seq for e in view.events([TrayOpened.type], before=outline.first_seq)][-1:] or [outline.first_seq]
    trays = trays_of_shift(shift, tray_ledgers(report_events(view, codec, game, after=opened[0] - 1, before=before,
                                                             also=TRAY_EVENTS)))
    return shift, trays
