"""``madero-tui odds``: the main game's house edge and strategy, and exact probabilities and
returns of the Bonus and Jackpot paytables.

Counted, not simulated (``shared.madero.odds``): the main game (Art. 8–9, §33) over every
deal, by ``bench/house_edge.py``, shipped as data; Bonus over every deal of the player's and
the bank's hole cards, with and without the optional 1000 a 1 line (Art. 13 §67); Jackpot
over all 2,598,960 five-card hands of hole cards plus flop (Art. 11 §44, §48–49).
"""

from __future__ import annotations

import argparse
import json
from decimal import Decimal
from fractions import Fraction

from shared.errors import ConsoleError
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.odds import (
    MainGameEdge,
    OddsLine,
    Situation,
    bonus_house_edge,
    bonus_lines,
    jackpot_lines,
    main_game_edge,
)
from shared.messages import lang_of, money_text, text
from tui_common.cli import add_table_option, fail, load_table
from tui_common.tables import print_table, widths_of


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    parser = subparsers.add_parser("odds", help=text("help.madero_odds", lang),
                                   epilog=text("help.example", lang, example="%(prog)s --json"))
    parser.add_argument("--json", action="store_true", help=text("help.json", lang))
    add_table_option(parser, lang)
    parser.set_defaults(func=run)


def _line_json(line: OddsLine, with_return: bool, lang: str) -> dict[str, object]:
    row: dict[str, object] = {"line": line.line, "name": line.name.render(lang), "pays": line.pays,
           "probability": float(line.probability)}
    if with_return:
        row["return"] = float(line.probability * line.pays)
    else:
        row["per_credit"] = not line.fixed
    return row


def odds_json(table: MaderoTableConfig, lang: str) -> dict[str, object]:
    """The odds for other systems: stable keys and line ids; ``name`` is the line's words in ``lang``."""
    configured = table.bonus_1000_line
    return {
        "table": table.table_id,
        "main_game": _main_json(main_game_edge(), lang),
        "bonus": {
            "with_1000_line": configured,
            "lines": [_line_json(line, True, lang) for line in bonus_lines(configured)],
            "house_edge": float(bonus_house_edge(configured)),
            "variants": {
                key: {
                    "lines": [_line_json(line, True, lang) for line in bonus_lines(flag)],
                    "house_edge": float(bonus_house_edge(flag)),
                }
                for key, flag in (("with_1000_line", True), ("without_1000_line", False))
            },
        },
        "jackpot": {
            "table": "fixed",
            "lines": [_line_json(line, False, lang) for line in jackpot_lines()],
        },
    }


def _main_json(game: MainGameEdge, lang: str) -> dict[str, object]:
    def street(rows: tuple[Situation, ...]) -> list[dict[str, object]]:
        return [{"situation": row.situation, "name": text(f"odds_situation.{row.situation}", lang), "bet": row.bet,
                 "gain_if_bet": row.gain_if_bet, "frequency": row.frequency} for row in rows]

    return {
        "house_edge": float(game.house_edge), "house_edge_exact": str(game.house_edge),
        "element_of_risk": float(game.element_of_risk), "element_of_risk_exact": str(game.element_of_risk),
        "average_wager": float(game.average_wager), "by_bet": game.by_bet, "method": game.method,
        "optimum": {"house_edge": game.optimum_edge, "element_of_risk": game.optimum_element_of_risk},
        "deals": game.deals, "fold": list(game.fold), "turn": street(game.turn), "river": street(game.river),
        "rebuild": game.rebuild,
    }


def _print_main_game(game: MainGameEdge, lang: str) -> None:
    def pct(x: float, places: int = 4) -> str:
        return f"{money_text(x * 100, lang, places)} %"

    print(text("cli.odds_main_title", lang))
    print("  " + text("cli.odds_main_edge", lang, edge=pct(float(game.house_edge))))
    print("  " + text("cli.odds_main_risk", lang, risk=pct(float(game.element_of_risk)),
                      wager=money_text(float(game.average_wager), lang, 4)))
    print("  " + text("cli.odds_main_by_bet", lang, **{bet: pct(x) for bet, x in game.by_bet.items()}))
    print("  " + text("cli.odds_main_method", lang, deals=Decimal(game.deals)))
    print("  " + text("cli.odds_main_optimum", lang, edge=pct(game.optimum_edge), risk=pct(game.optimum_element_of_risk)))
    print("  " + text("cli.odds_main_strategy", lang))
    print("    " + text("cli.odds_main_fold", lang, count=len(game.fold), hands=" ".join(game.fold)))
    streets = [(key, [(text("cli.odds_main_bet" if row.bet else "cli.odds_main_check", lang),
                       text(f"odds_situation.{row.situation}", lang), pct(row.frequency, 2), pct(row.gain_if_bet))
                      for row in rows]) for key, rows in (("cli.odds_main_turn", game.turn),
                                                           ("cli.odds_main_river", game.river))]
    widths = widths_of(row for _, rows in streets for row in rows)  # Turn and River in the same columns
    for key, street_rows in streets:
        print("    " + text(key, lang))
        print_table(street_rows, right={2, 3}, indent=6, widths=widths)
    print("    " + text("cli.odds_main_columns", lang))
    print("  " + text("cli.odds_main_rebuild", lang, command=game.rebuild, cpu=Decimal(game.cpu_seconds)) + "\n")


def _pct(p: Fraction, lang: str) -> str:
    return f"{money_text(float(p) * 100, lang, 6)} %"


def _odds_against(p: Fraction, lang: str) -> str:
    return text("cli.odds_one_in", lang, n=Decimal(round(1 / p))) if p else "—"


def run(args: argparse.Namespace) -> int:
    lang = lang_of(args)
    try:
        table = load_table(getattr(args, "table", None), MaderoTableConfig, DEFAULT_MADERO_TABLE)
    except ConsoleError as exc:
        return fail(f"odds: {exc.message(lang)}")
    if args.json:
        print(json.dumps(odds_json(table, lang), ensure_ascii=False, indent=2))
        return 0
    print(text("ui.report_table", lang, table=table.table_id))
    _print_main_game(main_game_edge(), lang)
    heads = [text(f"cli.odds_{key}", lang) for key in ("line", "pays", "probability", "frequency", "return")]
    bonus = {flag: [(_name(line, lang), text("cli.odds_to_one", lang, pays=line.pays), _pct(line.probability, lang),
                     _odds_against(line.probability, lang), money_text(float(line.probability * line.pays), lang, 6))
                    for line in bonus_lines(flag)] for flag in (True, False)}
    widths = widths_of([heads, *bonus[True], *bonus[False]])  # both Bonus tables in the same columns
    for flag in (True, False):
        configured = " " + text("cli.odds_configured", lang) if flag == table.bonus_1000_line else ""
        print(text("cli.odds_bonus_with" if flag else "cli.odds_bonus_without", lang) + configured)
        print_table(bonus[flag], headings=heads, right={1, 2, 3, 4}, widths=widths)
        print("  " + text("cli.odds_house_edge", lang, edge=_pct(bonus_house_edge(flag), lang)) + "\n")
    print(text("cli.odds_jackpot", lang))
    print_table([(_name(line, lang),
                  text("cli.odds_fixed" if line.fixed else "cli.odds_per_credit", lang, amount=Decimal(line.pays)),
                  _pct(line.probability, lang), _odds_against(line.probability, lang))
                 for line in jackpot_lines()], headings=heads[:4], right={1, 2, 3})
    return 0


def _name(line: OddsLine, lang: str) -> str:
    return line.name.render(lang)
