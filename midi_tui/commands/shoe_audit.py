"""``midi-tui shoe-audit [FILE|-]``: replay a shoe's cards coup by coup, as the regulation deals.

The cards come in dealing order (ranks, suits optional, separated by white space), starting
with the burn card, with the cut card ``--cut`` cards from the end (7, Art. 8 §1).
"""

from __future__ import annotations

import argparse
import json
import sys

from shared.baccarat import card_label
from shared.errors import ConsoleError
from shared.midi.audit import REGULAR_CUT, audit_shoe
from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig
from shared.messages import lang_of, text
from shared.text import ascii_words
from tui_common.cli import add_table_option, fail, load_table, read_input


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    parser = subparsers.add_parser("shoe-audit", help=text("help.shoe_audit", lang),
                                   epilog=text("help.example_shoe_audit", lang))
    parser.add_argument("file", nargs="?", default="-", help=text("help.shoe_audit_file", lang))
    parser.add_argument("--cut", type=int, default=REGULAR_CUT, metavar="N", help=text("help.cut", lang, cut=REGULAR_CUT))
    parser.add_argument("--decks", type=int, choices=(6, 8), help=text("help.decks", lang))
    parser.add_argument("--json", action="store_true", help=text("help.json_lines", lang))
    add_table_option(parser, lang)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    lang = lang_of(args)
    try:
        table = load_table(getattr(args, "table", None), MidiTableConfig, DEFAULT_MIDI_TABLE)
        report = audit_shoe(ascii_words(read_input(args.file)), cut=args.cut, decks=args.decks or table.decks)
    except ConsoleError as exc:
        return fail(f"shoe-audit: {exc.message(lang)}")
    if report.irregular_cut:
        print(text("cli.audit_irregular_note", lang, cut=report.cut, regular=REGULAR_CUT), file=sys.stderr)
    if args.json:
        flag = {"irregular_cut": True} if report.irregular_cut else {}
        for coup in report.coups:
            print(json.dumps({"table": table.table_id, **coup.to_dict(), **flag}))
        return 0
    print(text("ui.report_table", lang, table=table.table_id))
    print(text("cli.audit_shoe", lang, decks=report.decks, cards=report.cards_total, burn=report.burn_card.label,
               burned=report.burned, position=report.cut_position))
    if report.irregular_cut:
        print(text("cli.audit_irregular", lang, cut=report.cut, regular=REGULAR_CUT))
    for coup in report.coups:
        r = coup.result
        if r is None:
            cards = " ".join(card_label(c) for c in coup.ranks)
            print(text("cli.audit_void", lang, coup=f"{coup.coup:>3}", cards=cards))
            continue
        punto = " ".join(card_label(c) for c in r.punto_cards)
        banca = " ".join(card_label(c) for c in r.banca_cards)
        tags = [tag for tag, on in (("natural", r.natural), (text("cli.audit_banca_six", lang), r.banca_six)) if on]
        drew = [h for h, on in (("PUNTO", r.punto_drew), ("BANCA", r.banca_drew)) if on]
        print(text("cli.audit_coup", lang, coup=f"{coup.coup:>3}", punto=f"{punto:<7}", punto_total=r.punto_total,
                   banca=f"{banca:<7}", banca_total=r.banca_total, winner=f"{r.winner.value.upper():<5}",
                   drew=f"{', '.join(drew) or '—':<12}", tags=" · ".join(tags)).rstrip())
    print(text("cli.audit_total", lang, coups=len(report.coups), used=report.cards_used, cards=report.cards_total))
    return 0
