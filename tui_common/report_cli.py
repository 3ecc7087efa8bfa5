"""``report``: the shift report of a table's journal, for both apps (no Textual)."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from pathlib import Path

from shared.errors import ConsoleError
from shared.journal import Journal, default_journal_path
from shared.messages import lang_of, text
from shared.money import fmt_money
from shared.report import REPORT_TYPES, CroupierShift, shift_closes, shift_report
from tui_common.cli import fail
from tui_common.i18n import t


def add_report_subcommand(subparsers: argparse._SubParsersAction, lang: str, game: str, default_table_id: str) -> None:
    parser = subparsers.add_parser("report", help=text("help.report", lang), description=text("help.report_terms", lang),
                                   epilog=text("help.example_report", lang))
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help=text("help.db", lang))
    parser.add_argument("--since", help=text("help.since", lang))
    parser.add_argument("--json", action="store_true", help=text("help.json", lang))
    parser.add_argument("--shift", nargs="?", type=int, const=0, metavar="N", help=text("help.shift", lang))
    parser.set_defaults(func=lambda args: run(args, game, default_table_id))


def _since(text: str | None) -> datetime | None:
    if not text:
        return None
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# The table's columns: heading (a catalog key), alignment, width.
COLUMNS = (("report_col_croupier", "<", 12), ("report_col_rounds", ">", 7), ("report_col_voids", ">", 6),
           ("report_col_rate", ">", 9), ("report_col_bet", ">", 12), ("report_col_returned", ">", 10),
           ("report_col_commission", ">", 9), ("report_col_adj_paid", ">", 9), ("report_col_adj_collected", ">", 9),
           ("report_col_rounding", ">", 9), ("report_col_win", ">", 12), ("report_col_hold", ">", 9))


def _row(line: CroupierShift, lang: str) -> str:
    rate = line.rounds_per_hour
    hold = "—" if line.hold_percent is None else f"{line.hold_percent} %"
    return (f"{line.staff_id:<12} {line.rounds:>7} {line.voided:>6} {('—' if rate is None else f'{rate:.1f}'):>9} "
            f"{fmt_money(line.handle, lang=lang):>12} {fmt_money(line.void_returned, lang=lang):>10} {fmt_money(line.commission, lang=lang):>9} "
            f"{fmt_money(line.adjusted_paid, lang=lang):>9} {fmt_money(line.adjusted_collected, lang=lang):>9} {fmt_money(line.rounding, lang=lang):>9} "
            f"{fmt_money(line.win, lang=lang):>12} {hold:>9}")


def run(args: argparse.Namespace, game: str, default_table_id: str) -> int:
    path = getattr(args, "db", None) or default_journal_path(game, default_table_id)
    lang = lang_of(args)
    if args.shift is not None:
        return _run_shift(path, game, args.shift, args.json, lang)
    try:
        since = _since(args.since)
        with Journal.open_existing(path, game=game) as journal, journal.read_view() as view:
            # One read: the head printed is the one the figures were read up to.
            head_hash, entries = view.head()
            report = shift_report(view.events(REPORT_TYPES), since)
    except ValueError:
        return fail(t("report_bad_since", lang, text=args.since))
    except ConsoleError as exc:
        return fail(f"report: {exc.message(lang)}")
    lines = sorted(report.by_croupier.values(), key=lambda line: line.staff_id)
    if args.json:
        print(json.dumps({"croupiers": [line.to_dict() for line in lines], "total": report.total.to_dict(),
                          "journal": {"entries": entries, "head": head_hash}}, ensure_ascii=False))
        return 0
    print(" ".join(f"{t(key, lang):{align}{width}}" for key, align, width in COLUMNS))
    for line in lines:
        print(_row(line, lang))
    print(_row(report.total, lang))
    if report.total.arbitrated:
        print(t("report_arbitrated", lang, rounds=report.total.arbitrated))
    # The anchor of what was reported (``journal verify --anchor HASH:COUNT`` checks it later).
    print(t("report_journal_head", lang, entries=entries, anchor=f"{head_hash}:{entries}"))
    return 0


def _run_shift(path: Path, game: str, number: int, as_json: bool, lang: str) -> int:
    """One shift (the last when ``number`` is 0) with every figure of each croupier."""
    from shared.tray import tray_ledgers, trays_of_shift
    from tui_common.shift_text import shift_text

    try:
        journal = Journal.open_existing(path, game=game)
        shifts = shift_closes(journal.events())
    except ConsoleError as exc:
        return fail(f"report: {exc.message(lang)}")
    if not shifts:
        return fail(t("report_no_shift", lang))
    if not 0 <= number <= len(shifts):
        return fail(t("report_no_such_shift", lang, number=number, shifts=len(shifts)))
    shift = shifts[number - 1] if number else shifts[-1]
    trays = trays_of_shift(shift, tray_ledgers(journal.events()))
    if as_json:
        print(json.dumps(shift.to_dict() | {"trays": [tray.to_dict() for tray in trays]}, ensure_ascii=False))
    else:
        print(shift_text(shift, lang, trays=trays))
    return 0
