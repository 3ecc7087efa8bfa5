"""``midi-tui odds``: exact probabilities and house edges of a Midi shoe (counted, not simulated)."""

from __future__ import annotations

import argparse
import json
import time

from shared.errors import ConsoleError
from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig
from shared.midi.odds import table_odds
from tui_common.cli import add_table_option, fail, load_table


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("odds", help="exact BANCA/PUNTO/TIE probabilities and house edges",
                                   epilog="example: %(prog)s --decks 6 --mode commission")
    parser.add_argument("--decks", type=int, choices=(6, 8), help="decks in the shoe (default: the table's)")
    parser.add_argument("--mode", choices=("half-six", "commission"), help="BANCA payout mode (default: the table's)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_table_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        table = load_table(getattr(args, "table", None), MidiTableConfig, DEFAULT_MIDI_TABLE)
    except ConsoleError as exc:
        return fail(f"odds: {exc.message('es')}")
    decks = args.decks or table.decks
    mode = args.mode or table.banca_mode
    start = time.perf_counter()
    odds = table_odds(decks, mode)
    seconds = time.perf_counter() - start
    data = odds.to_dict()
    if args.json:
        print(json.dumps(data))
        return 0
    mode_text = "BANCA paga 50 % con 6" if mode == "half-six" else "BANCA paga 1 a 1 menos 5 % de comisión"
    print(f"Sabot de {decks} mazos — {mode_text} (exacto, por enumeración; {seconds * 1000:.0f} ms)")
    for label, key in (("BANCA gana", "p_banca"), ("PUNTO gana", "p_punto"), ("TIE", "p_tie"),
                       ("BANCA gana con 6", "p_banca_six")):
        print(f"  {label:<18} {data[key] * 100:9.6f} %")
    print("Ventaja de la casa por unidad apostada:")
    for label, key in (("BANCA", "banca"), ("PUNTO", "punto"), ("TIE 8 a 1", "tie")):
        print(f"  {label:<18} {data['house_edge'][key] * 100:9.6f} %")
    return 0
