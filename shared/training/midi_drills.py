"""Midi Punto y Banca drills: the BANCA tableau, payouts, the full coup.

Draw or stand, the totals and the winner come from ``shared.baccarat`` (the rules as
data); payouts from the Midi engine's payout function. The drill deals, asks and
explains; it never decides a rule itself.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping

from shared.baccarat import (
    BANCA_DRAWS_WHEN_PUNTO_STOOD,
    BANCA_TABLEAU,
    PUNTO_DRAWS_ON,
    Hand,
    Winner,
    is_natural,
    next_draw,
    points,
    total,
)
from shared.cards import Card, Rank, Suit
from shared.training.cards_text import show
from shared.training.core import AnswerKind, Exercise, Option, Question, Say

DRAW, STAND = "c", "p"
DRAW_OPTIONS = (
    Option(DRAW, Say("carta", "draw"), aliases=("d",)),
    Option(STAND, Say("se planta", "stand"), aliases=("s",)),
)
WINNER_OPTIONS = (
    Option("p", Say("PUNTO", "PUNTO")),
    Option("b", Say("BANCA", "BANCA")),
    Option("e", Say("empate (TIE)", "tie (TIE)"), aliases=("t",)),
)
_WINNER_KEY = {Winner.PUNTO: "p", Winner.BANCA: "b", Winner.TIE: "e"}
_WINNER_SAY = {
    Winner.PUNTO: Say("gana el PUNTO", "PUNTO wins"),
    Winner.BANCA: Say("gana la BANCA", "BANCA wins"),
    Winner.TIE: Say("empate", "tie"),
}

ART_NATURAL = "Art. 6 §2"
ART_PUNTO = "Art. 6, tercera carta §1"
ART_BANCA = "Art. 6, tercera carta §2"
ART_WINNER = "Art. 6 §1"


def _values(values: frozenset[int]) -> str:
    """``{4,5,6,7}`` → ``4–7``; ``{0,…,9}-{8}`` → ``0–7, 9``."""
    runs: list[str] = []
    ordered = sorted(values)
    start = prev = None
    for v in ordered + [None]:
        if v is not None and prev is not None and v == prev + 1:
            prev = v
            continue
        if start is not None:
            runs.append(str(start) if start == prev else f"{start}–{prev}")
        start = prev = v
    return ", ".join(runs)


def _hand_text(name: str, cards: list[Card]) -> str:
    return f"{name}: {show(cards)} = {total([c.rank for c in cards])}"


def punto_question(punto: list[Card], banca: list[Card], situation: tuple[Say, ...]) -> Question:
    """PUNTO on its first two cards: carta or se planta (naturals end the coup)."""
    pr, br = [c.rank for c in punto], [c.rank for c in banca]
    pt, bt = total(pr), total(br)
    draws = next_draw(pr, br) is Hand.PUNTO
    if is_natural(pt) or is_natural(bt):
        article = ART_NATURAL
        why = Say(f"natural (PUNTO {pt}, BANCA {bt}): nadie pide carta",
                  f"a natural (PUNTO {pt}, BANCA {bt}): neither hand draws")
    else:
        article = ART_PUNTO
        why = Say(f"el PUNTO pide con {_values(PUNTO_DRAWS_ON)} y se planta con 6 o 7",
                  f"PUNTO draws on {_values(PUNTO_DRAWS_ON)} and stands on 6 or 7")
    correct = (Say("«Carta para el PUNTO»", "“Card for PUNTO”") if draws
               else Say(f"«El PUNTO se planta con {pt}»", f"“PUNTO stands on {pt}”"))
    return Question(
        kind="punto_draw",
        prompt=Say("PUNTO: ¿carta (c) o se planta (p)?", "PUNTO: draw (c) or stand (p)?"),
        situation=situation,
        answer_kind=AnswerKind.CHOICE,
        correct=DRAW if draws else STAND,
        correct_text=correct,
        article=article,
        why=why,
        options=DRAW_OPTIONS,
        case=f"P{pt}",
    )


def banca_question(punto: list[Card], banca: list[Card], situation: tuple[Say, ...], kind: str = "banca_draw") -> Question:
    """BANCA on its first two cards, PUNTO's hand complete: carta or se planta."""
    pr, br = [c.rank for c in punto], [c.rank for c in banca]
    bt = total(br)
    draws = next_draw(pr, br) is Hand.BANCA
    p3 = points(pr[2]) if len(pr) == 3 else None
    if is_natural(total(pr[:2])) or is_natural(bt):
        article, why = ART_NATURAL, Say("natural: nadie pide carta", "a natural: neither hand draws")
        cell = "natural"
    elif p3 is None:
        article = ART_BANCA
        why = Say(f"el PUNTO se plantó: la BANCA pide con {_values(BANCA_DRAWS_WHEN_PUNTO_STOOD)}, se planta con 6 o 7",
                  f"PUNTO stood: BANCA draws on {_values(BANCA_DRAWS_WHEN_PUNTO_STOOD)}, stands on 6 or 7")
        cell = f"B{bt}-stood"
    else:
        article = ART_BANCA
        on = BANCA_TABLEAU[bt]
        if on == frozenset(range(10)):
            why = Say(f"BANCA con {bt} pide siempre", f"BANCA on {bt} always draws")
        elif not on:
            why = Say(f"BANCA con {bt} se planta siempre", f"BANCA on {bt} always stands")
        else:
            why = Say(f"BANCA con {bt} pide si la tercera carta del PUNTO vale {_values(on)}",
                      f"BANCA on {bt} draws when PUNTO's third card is worth {_values(on)}")
        cell = f"B{bt}-P{p3}"
    correct = (Say("«Carta para la BANCA»", "“Card for BANCA”") if draws
               else Say(f"«La BANCA se planta con {bt}»", f"“BANCA stands on {bt}”"))
    return Question(
        kind=kind,
        prompt=Say("BANCA: ¿carta (c) o se planta (p)?", "BANCA: draw (c) or stand (p)?"),
        situation=situation,
        answer_kind=AnswerKind.CHOICE,
        correct=DRAW if draws else STAND,
        correct_text=correct,
        article=article,
        why=why,
        options=DRAW_OPTIONS,
        case=cell,
    )


# --- the BANCA tableau alone ---------------------------------------------------------

TABLEAU_CELLS: tuple[str, ...] = tuple(
    f"B{bt}-{'stood' if p is None else f'P{p}'}" for bt in range(8) for p in (None, *range(10))
)
"""Every case of the tableau: BANCA total 0–7 × (PUNTO stood, or its third card 0–9)."""


def _cell_base_weight(cell: str) -> float:
    # BANCA 3–6 against a third card is where the tableau has exceptions worth drilling.
    bt, p = cell[1], cell.split("-")[1]
    return 3.0 if bt in "3456" and p != "stood" else 1.0


def tableau_weights(record: Mapping[str, tuple[int, int]] | None = None) -> dict[str, float]:
    """Weight of each cell: hard cells first, raised by how often this trainee missed it.

    ``record`` maps a cell to (times asked, times missed), from the trainee's history.
    """
    weights: dict[str, float] = {}
    for cell in TABLEAU_CELLS:
        asked, missed = (record or {}).get(cell, (0, 0))
        weights[cell] = _cell_base_weight(cell) * (1 + 8 * missed / (asked + 1))
    return weights


def _card_worth(rng: random.Random, value: int) -> Card:
    ranks = [r for r in Rank if r.baccarat_points == value]
    return Card(rng.choice(ranks), rng.choice(list(Suit)))


def _two_cards_totalling(rng: random.Random, value: int) -> list[Card]:
    first = rng.randrange(10)
    return [_card_worth(rng, first), _card_worth(rng, (value - first) % 10)]


class BancaTableauDrill:
    """Flash drill over the tableau's cases, weighted towards the ones missed most."""

    game = "midi"
    name = "tableau"
    title = Say("Cuadro de la BANCA", "BANCA tableau")
    default_length = 20

    def __init__(self, weights: Mapping[str, float] | None = None) -> None:
        self.weights = dict(weights) if weights is not None else tableau_weights()

    def exercises(self, rng: random.Random, count: int | None = None) -> Iterator[Exercise]:
        cells = list(self.weights)
        weights = [self.weights[c] for c in cells]
        for n in range(1, (count or self.default_length) + 1):
            cell = rng.choices(cells, weights)[0]
            yield self._exercise(rng, n, cell)

    def _exercise(self, rng: random.Random, n: int, cell: str) -> Exercise:
        bt, p = int(cell[1]), cell.split("-")[1]
        banca = _two_cards_totalling(rng, bt)
        if p == "stood":
            punto = _two_cards_totalling(rng, rng.choice((6, 7)))
            note = Say("(se planta)", "(stands)")
        else:
            punto = _two_cards_totalling(rng, rng.randrange(6)) + [_card_worth(rng, int(p[1]))]
            note = Say(f"(tercera carta {punto[2].display} = {p[1]})", f"(third card {punto[2].display} = {p[1]})")
        situation = (
            Say(_hand_text("PUNTO", punto) + " " + note.es, _hand_text("PUNTO", punto) + " " + note.en),
            Say(_hand_text("BANCA", banca), _hand_text("BANCA", banca)),
        )
        return Exercise(Say(f"Caso {n}", f"Case {n}"), (banca_question(punto, banca, situation, "tableau"),))
