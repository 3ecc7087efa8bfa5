"""``midi-tui odds``: exact probabilities and house edges of a Midi shoe (counted, not simulated)."""

from __future__ import annotations

import argparse
import json
import time

from shared.errors import ConsoleError
from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig
from shared.midi.odds import table_odds
from shared.messages import lang_of, money_text, text
from tui_common.cli import add_table_option, fail, load_table
from tui_common.tables import print_table, widths_of


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    parser = subparsers.add_parser("odds", help=text("help.midi_odds", lang),
                                   epilog=text("help.example", lang, example="%(prog)s --decks 8 --mode half-six"))
    parser.add_argument("--decks", type=int, choices=(6, 8), help=text("help.decks", lang))
    parser.add_argument("--mode", choices=("half-six", "commission"), help=text("help.mode", lang))
    parser.add_argument("--json", action="store_true", help=text("help.json", lang))
    add_table_option(parser, lang)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    lang = lang_of(args)
    try:
        table = load_table(getattr(args, "table", None), MidiTableConfig, DEFAULT_MIDI_TABLE)
    except ConsoleError as exc:
        return fail(f"odds: {exc.message(lang)}")
    decks = args.decks or table.decks
    mode = args.mode or table.banca_mode
    start = time.perf_counter()
    odds = table_odds(decks, mode)
    seconds = time.perf_counter() - start
    data = {"table": table.table_id, **odds.to_dict()}
    if args.json:
        print(json.dumps(data))
        return 0
    print(text("ui.report_table", lang, table=table.table_id))
    mode_text = text("cli.midi_mode_half_six" if mode == "half-six" else "cli.midi_mode_commission", lang)
    print(text("cli.midi_odds_title", lang, decks=decks, mode=mode_text, ms=f"{seconds * 1000:.0f}"))
    chances = [(text(label, lang), f"{money_text(data[key] * 100, lang, 6)} %")
               for label, key in (("cli.midi_banca_wins", "p_banca"), ("cli.midi_punto_wins", "p_punto"),
                                  ("cli.midi_tie", "p_tie"), ("cli.midi_banca_six_wins", "p_banca_six"))]
    edges = [(label, f"{money_text(data['house_edge'][key] * 100, lang, 6)} %")
             for label, key in (("BANCA", "banca"), ("PUNTO", "punto"), (text("cli.midi_tie_pays", lang), "tie"))]
    widths = widths_of(chances + edges)  # the two tables in the same columns
    print_table(chances, right={1}, widths=widths)
    print(text("cli.midi_house_edge", lang))
    print_table(edges, right={1}, widths=widths)
    return 0
