"""``madero-tui settle [FILE|-]``: the supervisor's dispute tool for one finished round.

The round is first replayed through the table engine on a scratch journal — bets, "no va
más", every decision, every card — so a round that cannot exist is refused by the very
rules the live table enforces (limits, Flop = 2 × Ante, side bets only with an Ante, a
card seen twice …), with the article. Then it is settled by the engine's own settlement.

A round where every box folded needs no card (any given are checked, then ignored). On a
progressive table the round also gives ``"jackpot_value"`` (the jackpot as it stood at
settlement, before this round's contribution, which the tool adds as the table does; the
linked sum on a Carrusel), and optionally ``"magic_card"`` and ``"lucky_box"``; the JSON
output gives each box ``jackpot_prize`` (the total) and ``jackpot_lines`` (each line paid).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable
from itertools import chain
from decimal import Decimal
from pathlib import Path
from typing import TypedDict

from shared.cards import Card, parse_cards
from shared.commands import can
from shared.errors import ConsoleError, InputError, RuleViolation
from shared.journal import Journal
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.meter import SqliteMeterStore
from shared.madero.settlement import (
    Bet,
    BetResult,
    BoxBets,
    BoxInput,
    BoxStatus,
    MeterReading,
    Outcome,
    RoundSettlement,
    settle_round,
)
from shared.madero.table import MaderoTable
from shared.messages import Msg, lang_of, text
from shared.staff import Credentials
from shared.money import ZERO, fmt_money, to_money
from tui_common.cli import (
    JsonObject,
    add_table_option,
    card_list,
    fail,
    field_named,
    load_table,
    refuse_unknown,
    round_boxes,
    run_settle,
    open_scratch_tray,
    scratch_auditor,
)
from tui_common.i18n import t
from tui_common.tables import print_table, widths_of

class ProgressiveArgs(TypedDict, total=False):
    """What a progressive table's round adds to ``settle_round``."""

    meter: MeterReading
    carta_magica: Card
    jugador_afortunado: int


MAIN = ("ante", "flop", "turn", "river")
STATUS = {"dead": BoxStatus.DEAD, "void": BoxStatus.VOIDED}
"""A box's ``"status"``: a dead hand (§38) or a void one (§69), declared at its turn in the
first betting round; every bet of either is returned."""
ROUND_KEYS = ("board", "bank", "boxes", "jackpot_value", "magic_card", "lucky_box")
OUTCOME_NAMES = {Outcome.WIN: "win", Outcome.LOSE: "lose", Outcome.PUSH: "tie"}
OUT_NAMES = {BoxStatus.FOLDED: "fold", BoxStatus.DEAD: "dead", BoxStatus.VOIDED: "void"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    parser = subparsers.add_parser("settle", help=text("help.madero_settle", lang),
                                   epilog=text("help.example_madero_settle", lang))
    parser.add_argument("file", nargs="?", default="-", help=text("help.madero_settle_file", lang))
    parser.add_argument("--json", action="store_true", help=text("help.json", lang))
    add_table_option(parser, lang)
    parser.set_defaults(func=run)


def _box_bets(item: JsonObject) -> BoxBets:
    return BoxBets(
        **{k: to_money(item.get(k, 0)) for k in (*MAIN, "bonus")},
        jackpot_credits=_credits(item.get("jackpot_credits", 0)),
    )


def _credits(value: object) -> int:
    amount = to_money(value)
    if amount != int(amount):
        raise InputError(Msg.of("settle_input.credits_not_whole", value=value))
    return int(amount)


def _out(item: JsonObject) -> bool:
    """The box left the round before the showdown: folded, dead or void."""
    return bool(item.get("folded")) or "status" in item


def _replay(config: MaderoTableConfig, data: JsonObject, workdir: Path) -> None:
    """Play the round on a scratch table; any impossible step raises with its article."""
    journal = Journal(workdir / "settle.db", config.table_id, "madero")
    staff, auditor = scratch_auditor(journal)
    first_round = _first_round(auditor)
    meters = SqliteMeterStore(workdir / "meters.db") if config.progressive else None
    table = MaderoTable(journal, staff, config=config, meter_store=meters)
    table.shift.open(auditor)
    open_scratch_tray(table, auditor)
    boxes = sorted(data["boxes"], key=lambda b: int(b["box"]))
    for item in boxes:
        bets = _box_bets(item)
        if bets.ante:
            table.play.place_bet(int(item["box"]), Bet.ANTE, bets.ante)
        for bet, amount in ((Bet.JACKPOT, bets.jackpot_credits), (Bet.BONUS, bets.bonus)):
            if amount:
                table.play.place_bet(int(item["box"]), bet, amount)
    table.play.no_va_mas()
    board = parse_cards(data["board"])
    streets = {"flop": board[:3], "turn": board[3:4], "river": board[4:5]}
    decide = {1: first_round, 2: _later_round("turn"), 3: _later_round("river")}
    for number, street in ((1, "flop"), (2, "turn"), (3, "river")):
        for item in boxes:
            if can(table.play.verify_fold, int(item["box"])) or can(table.play.verify_check, int(item["box"])):
                decide[number](table, item)
        for card in streets[street]:
            table.play.key_card(card)
    for card in parse_cards(data["bank"]):
        table.play.key_card(card)
    for item in boxes:
        if not _out(item) and table.expected_card() is not None:
            for card in parse_cards(item.get("cards") or []):
                table.play.key_card(card)
    if table.carrusel.prize_claim_due:
        table.carrusel.claim_prize()  # a meter prize is settled on the (scratch) store's answer only
    table.carrusel.pending_settlement()
    journal.close()


def _first_round(auditor: Credentials) -> Callable[[MaderoTable, JsonObject], None]:
    def decide(table: MaderoTable, item: JsonObject) -> None:
        box = int(item["box"])
        if _out(item):
            for street in ("flop", "turn", "river"):
                if to_money(item.get(street, 0)):
                    raise InputError(Msg.of("settle_input.folded_bet", box=box, bet=street.capitalize()))
        # A dead hand only once betting began: the engine refuses one at the first box to act (§37).
        if item.get("status") == "dead":
            table.supervisor.dead_hand(auditor, box, "settle")
        elif item.get("status") == "void":
            table.supervisor.collusion(auditor, box, "settle")
        elif item.get("folded"):
            table.play.fold(box)
        else:
            table.play.voy(box, to_money(item.get("flop", 0)))
    return decide


def _later_round(street: str) -> Callable[[MaderoTable, JsonObject], None]:
    def decide(table: MaderoTable, item: JsonObject) -> None:
        box = int(item["box"])
        amount = to_money(item.get(street, 0))
        if amount:
            table.play.bet(box, amount)
        else:
            table.play.check(box)
    return decide


def _all_folded(data: JsonObject) -> bool:
    return bool(data["boxes"]) and all(_out(item) for item in data["boxes"])


def _check_shape(data: JsonObject) -> None:
    """A finished round has every card the showdown needs (Art. 8 §27–29, Art. 9 §30); when
    every box folded none is needed, and those given are only checked (Art. 8 §26.1)."""
    if "boxes" not in data:
        raise InputError(Msg.of("settle_input.missing", key="boxes"))
    refuse_unknown(data, ROUND_KEYS)
    for item in round_boxes(data, amounts=(*MAIN, "bonus", "jackpot_credits"), flags=("folded",),
                            others=("cards", "status")):
        if "status" in item and (item["status"] not in STATUS or item.get("folded")):
            raise InputError(Msg.of("settle_input.box_status", box=item["box"]))
    folded = _all_folded(data)
    for key in ("bank", "board"):
        if key not in data and not folded:
            raise InputError(Msg.of("settle_input.missing", key=key))
    # Only a folded round may leave the cards out, and it leaves them out by omitting the
    # key: a present «board»/«bank» must be a card list, so ``null`` is refused by name.
    with field_named("board"):
        board = parse_cards(card_list(data.get("board", []), "board"))
    with field_named("bank"):
        bank = parse_cards(card_list(data.get("bank", []), "bank"))
    if len(board) != 5 and not (folded and len(board) <= 5):
        raise RuleViolation("Art. 8 §27–29", Msg.of("settle_input.board_five"))
    if len(bank) != 2 and not (folded and len(bank) <= 2):
        raise RuleViolation("Art. 7 §24", Msg.of("settle_input.bank_two"))
    numbers = [int(item["box"]) for item in data["boxes"]]
    if len(set(numbers)) != len(numbers):
        raise InputError(Msg.of("settle_input.madero_box_twice"))
    seen = [*board, *bank]
    for item in data["boxes"]:
        with field_named(Msg.of("cli.box_field", box=item["box"], field="cards")):
            cards = parse_cards(card_list(item.get("cards") or [], "cards"))
        seen += cards
        if _out(item):
            continue
        if len(cards) != 2:
            raise RuleViolation("Art. 9 §30", Msg.of("settle_input.hand_two", box=item["box"]))
    for card in seen:
        if seen.count(card) > 1:
            raise RuleViolation("Art. 2 §5", Msg.of("settle_input.card_twice", card=card.display))


PROGRESSIVE_KEYS = ("jackpot_value", "magic_card", "lucky_box")


def _progressive(config: MaderoTableConfig, data: JsonObject) -> ProgressiveArgs:
    """The Jackpot at settlement (the linked sum on a Carrusel, §58), the Carta Mágica and the
    Jugador Afortunado of a progressive table's round, as ``settle_round`` takes them."""
    if not config.progressive:
        given = [key for key in PROGRESSIVE_KEYS if key in data]
        if given:
            raise RuleViolation("Art. 11 §50, §55", Msg.of("settle_input.progressive_only", key=given[0]))
        return {}
    if "jackpot_value" not in data:
        raise InputError(Msg.of("settle_input.jackpot_value_missing"))
    with field_named("jackpot_value"):
        value = to_money(data["jackpot_value"])
    out: ProgressiveArgs = {"meter": MeterReading(value, value, config.seed)}
    if data.get("magic_card"):
        with field_named("magic_card"):
            cards = parse_cards(data["magic_card"])
        if len(cards) != 1:
            raise InputError(Msg.of("settle_input.magic_card_one"))
        out["carta_magica"] = cards[0]
    if data.get("lucky_box") is not None:
        lucky = data["lucky_box"]
        # Strict like every box number: true or 1.5 is not box 1.
        if isinstance(lucky, bool) or not isinstance(lucky, int) or not 1 <= lucky <= config.boxes:
            raise RuleViolation("Art. 11 §57", Msg.of("settle_input.lucky_box_range", boxes=config.boxes))
        out["jugador_afortunado"] = lucky
    return out


def settle(config: MaderoTableConfig, data: JsonObject) -> RoundSettlement:
    _check_shape(data)
    progressive = _progressive(config, data)
    if _all_folded(data):
        # No card decides anything once every box folded: those given were checked, now ignored.
        data = {**data, "board": [], "bank": [],
                "boxes": [{k: v for k, v in item.items() if k != "cards"} for item in data["boxes"]]}
    with tempfile.TemporaryDirectory(prefix="madero-settle-") as tmp:
        _replay(config, data, Path(tmp))
    boxes = [
        BoxInput(
            int(item["box"]),
            _box_bets(item),
            tuple(parse_cards(item["cards"])) if item.get("cards") else None,
            STATUS[item["status"]] if "status" in item else BoxStatus.FOLDED if item.get("folded") else BoxStatus.ACTIVE,
        )
        for item in sorted(data["boxes"], key=lambda b: int(b["box"]))
    ]
    return settle_round(config, parse_cards(data["bank"]), parse_cards(data["board"]), boxes, **progressive)


def _net(result: BetResult | None) -> Decimal:
    if result is None:
        return ZERO
    if result.outcome is Outcome.WIN:
        return result.paid
    if result.outcome is Outcome.LOSE:
        return -result.stake
    return ZERO


def _number(amount: Decimal) -> int | float | str:
    return int(amount) if amount == int(amount) else str(amount)


def settlement_json(settlement: RoundSettlement) -> dict[str, object]:
    """The settlement for other systems, the same whatever ``--lang`` says: the hands by the
    regulation's category names («Color», «Pareja») and their details in its words, as the
    format has always given them; only the text output is localized."""
    boxes: list[dict[str, object]] = []
    for box in settlement.boxes:
        jackpot = box.result(Bet.JACKPOT)
        boxes.append({
            "box": box.box,
            "hand": None if box.hand is None else box.hand.category.es,
            "hand_detail": box.hand_text("es") or None,
            "outcome": OUT_NAMES[box.status] if box.main is None else OUTCOME_NAMES[box.main],
            "net": {bet: _number(_net(box.result(Bet(bet)))) for bet in (*MAIN, "bonus")},
            "jackpot_prize": _number(jackpot.paid if jackpot and jackpot.outcome is Outcome.WIN else ZERO),
            "jackpot_lines": [
                {"line": x.line, "amount": _number(x.paid)} | ({"exact": str(x.exact)} if x.exact is not None else {})
                for x in (jackpot.lines if jackpot else ())
            ],
        })
    return {
        "bank_hand": settlement.bank.category.es if settlement.bank else None,
        "bank_hand_detail": settlement.bank.name.render("es") if settlement.bank else None,
        "boxes": boxes,
    }


def _bet_row(result: BetResult, currency: str, lang: str) -> tuple[str, str, str]:
    """One bet's line of the text output: the bet, what it nets and why."""
    net = _net(result) if result.bet is not Bet.JACKPOT else (result.paid or -result.stake)
    sign = "+" if net > 0 else ""
    exact = "" if result.exact is None else " " + text("cli.settle_exact", lang, amount=result.exact)
    return (result.bet.value, f"{sign}{fmt_money(net, currency, lang=lang)}{exact}",
            f"— {result.reason.render(lang)} [{result.article}]")


def _print_text(settlement: RoundSettlement, currency: str, lang: str) -> None:
    print(settlement.bank_text(lang) or text("cli.settle_all_folded", lang))
    rows = {box.box: [_bet_row(result, currency, lang) for result in box.bets] for box in settlement.boxes}
    widths = widths_of(chain.from_iterable(rows.values()))  # every box's bets in the same columns
    for box in settlement.boxes:
        hand = box.hand_text(lang) or text("cli.settle_folded", lang)
        print(text("cli.settle_box", lang, box=box.box, hand=hand))
        print_table(rows[box.box], right={1}, widths=widths)
    print(text("cli.settle_table", lang, paid=fmt_money(settlement.paid, currency, lang=lang),
               collected=fmt_money(settlement.collected, currency, lang=lang),
               returned=fmt_money(settlement.pushed, currency, lang=lang)))


def run(args: argparse.Namespace) -> int:
    lang = lang_of(args)
    try:
        config = load_table(getattr(args, "table", None), MaderoTableConfig, DEFAULT_MADERO_TABLE)
    except ConsoleError as exc:
        return fail(f"settle: {exc.message(lang)}")

    def show(settlement: RoundSettlement, data: JsonObject) -> None:
        if args.json:  # the table it was settled under, named
            print(json.dumps({"table": config.table_id} | settlement_json(settlement), ensure_ascii=False))
        else:
            print(t("report_table", lang, table=config.table_id))
            _print_text(settlement, config.currency, lang)

    return run_settle(args.file, lambda data: settle(config, data), show, lang)
