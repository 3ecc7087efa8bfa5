"""``midi-tui settle [FILE|-]``: the supervisor's dispute tool for one coup.

The coup is replayed on a scratch table (a live shoe, the bets, "No va más", the cards in
dealing order), so bets outside the table's rules and cards the drawing rules could not
have produced are refused exactly as at the table, with the article; the settlement is the
engine's own.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from decimal import Decimal

from shared.baccarat import CoupResult, card_label, resolve_hands
from shared.cards import Rank, parse_baccarat_card
from shared.errors import ConsoleError, InputError
from shared.journal import Journal
from shared.messages import Msg, lang_of, text
from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig
from shared.midi.payouts import BetKind, Outcome, SettlementLine
from shared.midi.table import MidiTable
from shared.money import ZERO, fmt_money, to_money
from tui_common.i18n import t
from tui_common.tables import print_table
from tui_common.cli import (JsonObject, add_table_option, card_list, fail, field_named, load_table, refuse_unknown,
                            open_scratch_tray, round_boxes, run_settle, scratch_auditor)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    parser = subparsers.add_parser("settle", help=text("help.midi_settle", lang),
                                   epilog=text("help.example", lang, example="%(prog)s coup.json --mode half-six"))
    parser.add_argument("file", nargs="?", default="-", help=text("help.midi_settle_file", lang))
    parser.add_argument("--json", action="store_true", help=text("help.json", lang))
    parser.add_argument("--mode", choices=("half-six", "commission"), help=text("help.mode_override", lang))
    parser.add_argument("--commission", choices=("tally", "deduct"), help=text("help.commission", lang))
    parser.add_argument("--chip", help=text("help.chip", lang))
    add_table_option(parser, lang)
    parser.set_defaults(func=run)


def table_for(args: argparse.Namespace) -> MidiTableConfig:
    config = load_table(getattr(args, "table", None), MidiTableConfig, DEFAULT_MIDI_TABLE)
    changes: dict[str, object] = {}
    if args.mode:
        changes["banca_mode"] = args.mode
    if args.commission:
        changes["commission_handling"] = args.commission
    if args.chip:
        changes["chip"] = to_money(args.chip)
    return config.with_changes(**changes) if changes else config


def _ranks(tokens: object, hand: str) -> list[Rank]:
    with field_named(hand):
        return [parse_baccarat_card(token)[0] for token in card_list(tokens, hand)]


def settle(config: MidiTableConfig, data: JsonObject) -> tuple[CoupResult, list[SettlementLine]]:
    for key in ("punto", "banca", "boxes"):
        if key not in data:
            raise InputError(Msg.of("settle_input.missing", key=key))
    refuse_unknown(data, ("punto", "banca", "boxes"))
    round_boxes(data, amounts=[kind.value for kind in BetKind])
    result = resolve_hands(_ranks(data["punto"], "punto"), _ranks(data["banca"], "banca"))
    journal = Journal(":memory:", config.table_id, "midi")
    staff, auditor = scratch_auditor(journal)
    table = MidiTable(journal, staff, config=config)
    table.shift.open(auditor)
    open_scratch_tray(table, auditor)
    table.play.new_shoe()
    table.play.key_card("A")  # a burn of one card opens the shoe; it only makes the shoe live
    table.play.confirm_burn()
    numbers = [int(item["box"]) for item in data["boxes"]]
    if len(set(numbers)) != len(numbers):
        raise InputError(Msg.of("settle_input.midi_box_twice"))
    for item in data["boxes"]:
        for kind in BetKind:
            amount = to_money(item.get(kind.value, 0))
            if amount:
                table.play.place_bet(int(item["box"]), kind, amount)
    table.play.no_va_mas()
    for card in result.cards_in_dealing_order:
        table.play.key_card(card_label(card))
    if table.result is None or table.settlement is None:  # the cards keyed did not finish the coup
        raise InputError(Msg.of("baccarat.incomplete"))
    return table.result, table.settlement


def _number(amount: Decimal) -> int | str:
    return int(amount) if amount == int(amount) else str(amount)


def settlement_json(result: CoupResult, lines: list[SettlementLine], boxes: list[int],
                    config: MidiTableConfig) -> dict[str, object]:
    """Per box: ``net`` (what moves now, per bet), ``exact`` (the regulated amount where it
    differs from ``net``) and, at a commission table, ``commission`` (what goes to the tally)."""
    nets = {box: {kind.value: ZERO for kind in BetKind} for box in boxes}
    exact: dict[int, dict[str, str]] = {}
    commission = {box: ZERO for box in boxes}
    for line in lines:
        nets[line.spot][line.kind.value] = line.net
        if line.outcome is Outcome.WIN and line.exact != line.net:
            exact.setdefault(line.spot, {})[line.kind.value] = str(line.exact)
        commission[line.spot] += line.commission
    commission_table = config.banca_mode == "commission"
    return {
        "winner": result.winner.value,
        "punto_total": result.punto_total,
        "banca_total": result.banca_total,
        "natural": result.natural,
        "banca_six": result.banca_six,
        "boxes": [
            {"box": box, "net": {k: _number(v) for k, v in nets[box].items()},
             **({"exact": exact[box]} if box in exact else {}),
             **({"commission": str(commission[box])} if commission_table else {})}
            for box in boxes
        ],
    }


def _labels(cards: Sequence[Rank | int]) -> str:
    return " ".join(card_label(c) for c in cards)


def run(args: argparse.Namespace) -> int:
    lang = lang_of(args)
    try:
        config = table_for(args)
    except ConsoleError as exc:
        return fail(f"settle: {exc.message(lang)}")

    def show(outcome: tuple[CoupResult, list[SettlementLine]], data: JsonObject) -> None:
        result, lines = outcome
        boxes = sorted(int(item["box"]) for item in data["boxes"])
        if args.json:  # the table it was settled under, named
            print(json.dumps({"table": config.table_id} | settlement_json(result, lines, boxes, config),
                             ensure_ascii=False))
            return
        print(t("report_table", lang, table=config.table_id))
        print(text("cli.settle_coup", lang, punto=_labels(result.punto_cards), punto_total=result.punto_total,
                   banca=_labels(result.banca_cards), banca_total=result.banca_total,
                   winner=result.winner.value.upper())
              + (" (natural)" if result.natural else ""))
        rows = []
        for line in lines:
            sign = "+" if line.net > 0 else ""
            exact = (" " + text("cli.settle_exact", lang, amount=line.exact)
                     if line.outcome is Outcome.WIN and line.exact != line.net else "")
            rows.append((text("cli.settle_spot", lang, box=line.spot, bet=line.kind.value.upper()),
                         f"{sign}{fmt_money(line.net, config.currency, lang=lang)}{exact}", f"— {line.reason.render(lang)}"))
        print_table(rows, right={1})

    return run_settle(args.file, lambda data: settle(config, data), show, lang)
