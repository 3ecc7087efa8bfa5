"""``madero-tui hand CARDS…``: the best five of 5–7 cards and the combination (Art. 5 §17–19).

``--batch`` reads one hand a line on stdin and writes one JSON object a line, for audits
of many hands; a bad line is reported with its number and the run goes on (and ends with
exit status 2, as any refused input).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import TextIO

from shared.cards import Card, parse_cards
from shared.errors import ConsoleError
from shared.messages import Msg, lang_of, text
from shared.poker.evaluator import HandValue, describe, evaluate
from tui_common.cli import fail


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    parser = subparsers.add_parser("hand", help=text("help.hand", lang),
                                   epilog=text("help.example", lang, example="%(prog)s As Kd Qh Jc 10s --json"))
    parser.add_argument("cards", nargs="*", metavar=text("help.cards_metavar", lang), help=text("help.hand_cards", lang))
    parser.add_argument("--json", action="store_true", help=text("help.json", lang))
    parser.add_argument("--batch", action="store_true", help=text("help.hand_batch", lang))
    parser.set_defaults(func=run)


def hand_json(cards_text: str | list[str]) -> dict[str, object]:
    cards = parse_cards(cards_text)
    value = evaluate(cards)
    return _as_json(cards, value)


def _as_json(cards: Sequence[Card], value: HandValue) -> dict[str, object]:
    return {
        "cards": [str(c) for c in cards],
        "category": value.category.es,
        "best": [str(c) for c in value.best],
        "strength": value.strength,
    }


def run(args: argparse.Namespace) -> int:
    lang = lang_of(args)
    if args.batch:
        return _run_batch(sys.stdin.buffer, sys.stdout, lang)
    if not args.cards:
        return fail(text("cli.hand_no_cards", lang))
    try:
        cards = parse_cards(args.cards)
        value = evaluate(cards)
    except ConsoleError as exc:
        return fail(f"hand: {exc.message(lang)}")
    if args.json:
        print(json.dumps(_as_json(cards, value), ensure_ascii=False))
    else:
        best = " ".join(c.display for c in value.best)
        print(f"{describe(value, lang)}  ({best})  " + text("cli.hand_strength", lang, strength=value.strength))
    return 0


def _run_batch(lines: Iterable[bytes], out: TextIO, lang: str) -> int:
    """``lines`` are bytes: a line that is not UTF-8 is one bad line, not the end of the run."""
    bad = 0
    write = out.write
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            write(json.dumps(hand_json(raw.decode("utf-8")), ensure_ascii=False) + "\n")
        except UnicodeDecodeError as exc:
            bad += 1
            print(text("cli.hand_batch_line", lang, number=number, error=Msg.of("cli.not_utf8_line", byte=exc.start + 1)),
                  file=sys.stderr)
        except ConsoleError as exc:
            bad += 1
            print(text("cli.hand_batch_line", lang, number=number, error=exc), file=sys.stderr)
    return 2 if bad else 0
