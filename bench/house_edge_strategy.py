"""The strategy chosen from the sums of ``bench/house_edge.py``, and its figures (exact fractions).

``sums`` maps each accumulator to rows × 169 integers (one column per two-card class of the
13×13 chart, ``house_edge_core.hole_class``): ``count`` boards × holdings counted; ``ante``
and ``flop`` the results of those bets playing; ``turn_gain`` / ``river_gain`` per situation
the result of betting it, ``turn_count`` / ``river_count`` how often it arises (×orders);
``*_optimal_gain`` / ``*_optimal_count`` the same for the bets of the game's optimum.
All in Ante units × 20 orders, each summed over the bank's 990 holdings.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bench.house_edge_core import BANK_HOLDINGS, RIVER_SITUATIONS, TURN_SITUATIONS

ORDERS = 20
RANKS = "23456789TJQKA"
REBUILD = "python bench/house_edge.py"
Sums = dict[str, list[list[int]]]


def class_name(index: int) -> str:
    """The chart's name of a two-card class: ``AA``, ``AKs`` (suited), ``AKo`` (offsuit)."""
    row, col = divmod(index, 13)
    if row == col:
        return RANKS[row] * 2
    high, low = max(row, col), min(row, col)
    return RANKS[high] + RANKS[low] + ("s" if row > col else "o")


@dataclass(frozen=True)
class Figures:
    play: frozenset[int]
    turn_bets: frozenset[int]
    river_bets: frozenset[int]
    edge: Fraction
    wager: Fraction
    by_bet: dict[str, Fraction]


@dataclass(frozen=True)
class Later:
    """Per two-card class: what the Turn and River bets a strategy makes gain, and how often
    they are made (×orders), in the units of ``sums``."""

    turn_gain: list[int]
    river_gain: list[int]
    bets: list[int]


def rules(sums: Sums, turn: frozenset[int], river: frozenset[int]) -> Later:
    """The later bets of a strategy that bets the situations ``turn`` and ``river``."""
    return Later(
        [sum(sums["turn_gain"][c][h] for c in turn) for h in range(169)],
        [sum(sums["river_gain"][c][h] for c in river) for h in range(169)],
        [sum(sums["turn_count"][c][h] for c in turn) + sum(sums["river_count"][c][h] for c in river)
         for h in range(169)],
    )


def optimum(sums: Sums) -> Later:
    """The later bets of the game's optimum, which decides each suit class of hand apart."""
    return Later(sums["turn_optimal_gain"][0], sums["river_optimal_gain"][0],
                 [t + r for t, r in zip(sums["turn_optimal_count"][0], sums["river_optimal_count"][0], strict=True)])


def _value(sums: Sums, h: int, later: Later) -> Fraction:
    """The value of playing class ``h``, per Ante, with these later bets."""
    total = sums["ante"][0][h] + sums["flop"][0][h] + later.turn_gain[h] + later.river_gain[h]
    return Fraction(total, sums["count"][0][h] * ORDERS * BANK_HOLDINGS)


def figures(sums: Sums, later: Later, turn: frozenset[int] = frozenset(), river: frozenset[int] = frozenset()) -> Figures:
    """The best pre-flop play with these later bets (play a class worth more than the −1 of
    folding), and the game's figures under it, per Ante dealt."""
    count = sums["count"][0]
    dealt = sum(count)
    play = frozenset(h for h in range(169) if count[h] and _value(sums, h, later) > -1)
    scale = dealt * ORDERS * BANK_HOLDINGS
    by_bet = {
        "ante": Fraction(sum(sums["ante"][0][h] for h in play), scale) - Fraction(dealt - sum(count[h] for h in play), dealt),
        "flop": Fraction(sum(sums["flop"][0][h] for h in play), scale),
        "turn": Fraction(sum(later.turn_gain[h] for h in play), scale),
        "river": Fraction(sum(later.river_gain[h] for h in play), scale),
    }
    wager = 1 + Fraction(2 * sum(count[h] for h in play), dealt) + Fraction(sum(later.bets[h] for h in play), dealt * ORDERS)
    return Figures(play, turn, river, -sum(by_bet.values(), Fraction(0)), wager, by_bet)


def _gains(sums: Sums, street: str, play: frozenset[int]) -> list[Fraction]:
    dealt = sum(sums["count"][0]) * ORDERS * BANK_HOLDINGS
    return [Fraction(sum(row[h] for h in play), dealt) for row in sums[f"{street}_gain"]]


def choose(sums: Sums) -> Figures:
    """Bet each situation whose bets gain over the classes played; play each class worth
    more than folding; repeat until neither choice changes (it settles in a few rounds)."""
    play = frozenset(range(169))
    turn = river = frozenset[int]()
    for _ in range(50):
        turn = frozenset(c for c, g in enumerate(_gains(sums, "turn", play)) if g > 0)
        river = frozenset(c for c, g in enumerate(_gains(sums, "river", play)) if g > 0)
        chosen = figures(sums, rules(sums, turn, river), turn, river)
        if chosen.play == play:
            return chosen
        play = chosen.play
    raise RuntimeError("the strategy did not settle")


def _exact(x: Fraction) -> dict[str, object]:
    return {"value": float(x), "exact": f"{x.numerator}/{x.denominator}"}


def result_json(sums: Sums, chosen: Figures, boards: int, cpu: float, limit: int | None) -> dict[str, object]:
    """What ``madero-tui odds`` shows (``shared/madero/house_edge.json``)."""
    count = sums["count"][0]
    dealt = sum(count)
    values = {h: _value(sums, h, rules(sums, chosen.turn_bets, chosen.river_bets)) for h in range(169) if count[h]}
    streets = {}
    for street, names, bets in (("turn", TURN_SITUATIONS, chosen.turn_bets), ("river", RIVER_SITUATIONS, chosen.river_bets)):
        gains = _gains(sums, street, chosen.play)
        seen = [Fraction(sum(row[h] for h in chosen.play), dealt * ORDERS) for row in sums[f"{street}_count"]]
        streets[street] = [
            {"situation": name, "bet": c in bets, "gain_if_bet": float(gains[c]), "frequency": float(seen[c])}
            for c, name in enumerate(names)
        ]
    every_turn, every_river = frozenset(range(len(TURN_SITUATIONS))), frozenset(range(len(RIVER_SITUATIONS)))
    alternatives = {
        "optimum": figures(sums, optimum(sums)),
        "never_turn_or_river": figures(sums, rules(sums, frozenset(), frozenset())),
        "always_turn_and_river": figures(sums, rules(sums, every_turn, every_river)),
        "turn_as_chosen_never_river": figures(sums, rules(sums, chosen.turn_bets, frozenset())),
        "river_as_chosen_never_turn": figures(sums, rules(sums, frozenset(), chosen.river_bets)),
    }
    return {
        "method": "exact" if limit is None else f"partial: first {limit} board classes (not the game's figures)",
        "boards": boards,
        "deals": dealt * ORDERS * BANK_HOLDINGS,
        "cpu_seconds": round(cpu),
        "rebuild": REBUILD,
        "rules": "Ante 1 a 1 solo con Color o mejor, si no se devuelve (Art. 9 §33); Flop 2×Ante, Turn y River 1×Ante, 1 a 1 (§33); empate: todo se devuelve (§35)",
        "house_edge": _exact(chosen.edge),
        "average_wager": _exact(chosen.wager),
        "element_of_risk": _exact(chosen.edge / chosen.wager),
        "by_bet": {bet: float(-x) for bet, x in chosen.by_bet.items()},
        "fold": sorted((class_name(h) for h in values if h not in chosen.play), key=lambda n: -float(values[RANKS_INDEX[n]])),
        "play_values": {class_name(h): float(v) for h, v in sorted(values.items(), key=lambda hv: hv[1])},
        "turn": streets["turn"],
        "river": streets["river"],
        "alternatives": {name: {"house_edge": float(f.edge), "element_of_risk": float(f.edge / f.wager),
                                "fold": sorted(class_name(h) for h in values if h not in f.play)}
                         for name, f in alternatives.items()},
    }


RANKS_INDEX = {class_name(h): h for h in range(169)}
