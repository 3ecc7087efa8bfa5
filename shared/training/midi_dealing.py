"""Graded dealing at the Midi table: the moments of a shoe and their questions.

Every answer is read off the training engine (``MidiTable``) at that moment: the burn
count from the exposed burn card, who turns PUNTO's cards from ``reveal_box``, draw or
stand from the coup's cards through the drills' builders (``shared.baccarat``), totals
and winner from ``result``, each payout from ``settlement`` — the lines the table pays —
and the last coup from the shoe's cut card. Nothing here decides a rule.

Adaptive practice (no seed): the shoe is still a full shuffle of the table's decks; of a
few shuffles, the one whose coups meet the trainee's most-missed BANCA cases most often
is dealt.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator, Mapping

from shared.baccarat import Hand, next_draw
from shared.cards import FULL_DECK, Card
from shared.midi.table import CARDS_BELOW_CUT, MidiTable, Phase
from shared.messages import Msg, Plain
from shared.training.core import AnswerKind, Option, Question
from shared.training.midi_drills import (
    _bets_lines,
    _hand_text,
    _mode_text,
    _plain_card,
    banca_question,
    line_question,
    punto_question,
    reveal_question,
    tableau_weights,
    winner_question,
)

LAST_COUP_WINDOW = 12
"""The last-coup question is asked in the coups dealt within this many cards of the cut card."""

YES_NO = (Option("s", Msg.of("drill.option_yes"), ("y",)), Option("n", Msg.of("drill.option_no")))


def burn_question(table: MidiTable) -> Question:
    shoe = table.shoe
    assert shoe is not None and shoe.burn_card is not None
    card = shoe.burn_card
    n = card.rank.burn_count
    announcement = table.prompt.announcements[0]
    return Question(
        kind="burn_count",
        prompt=Msg.of("drill.burn_prompt", card=card.display),
        situation=(),
        answer_kind=AnswerKind.NUMBER,
        correct=str(n),
        correct_text=Msg.of("drill.quoted", text=announcement),
        article="Art. 8 §2",
        why=Msg.of("drill.burn_why"),
        hint=Msg.of("drill.burn_hint"),
    )


TOTAL_PROMPT = {"punto": Msg.of("drill.total_prompt_punto"), "banca": Msg.of("drill.total_prompt_banca")}
"""«¿Total del PUNTO?», «¿Total de la BANCA?»: each hand with its own article."""


def total_question(hand: str, cards: list[Card], value: int) -> Question:
    name = hand.upper()
    return Question(
        kind=f"{hand}_total",
        prompt=TOTAL_PROMPT[hand],
        situation=(),
        answer_kind=AnswerKind.NUMBER,
        correct=str(value),
        correct_text=Msg.of("drill.quoted", text=f"{name} {value}"),
        article="Art. 6 §1",
        why=Msg.of("drill.total_why"),
        hint=Plain(" · ".join(f"{c.display} = {c.rank.baccarat_points}" for c in cards)),
    )


def last_coup_question(table: MidiTable) -> Question:
    shoe = table.shoe
    assert shoe is not None
    last = shoe.cut_card_out
    return Question(
        kind="last_coup",
        prompt=Msg.of("drill.last_coup_prompt"),
        situation=(),
        answer_kind=AnswerKind.CHOICE,
        correct="s" if last else "n",
        correct_text=Msg.of("drill.last_coup_yes" if last else "drill.last_coup_no"),
        article="Art. 8 §1",
        why=Msg.of("drill.last_coup_why"),
        options=YES_NO,
        hint=Msg.of("drill.last_coup_hint", left=shoe.cards_left, below=CARDS_BELOW_CUT),
    )


def midi_moments(table: MidiTable) -> Iterator[tuple[Hashable, Callable[[], list[Question]]]]:
    """The moments the table has reached in its current shoe and coup."""
    shoe = table.shoe
    if shoe is None:
        return
    coup = (shoe.number, table.coup_no)
    if table.phase is Phase.BURN and shoe.burn_card is not None:
        yield ("burn", shoe.number), lambda: [burn_question(table)]
    if table.phase not in (Phase.CARDS, Phase.RESULT):
        return
    bets = {spot: dict(b) for spot, b in table.bets.items()}
    head = (_mode_text(table.config), *_bets_lines(bets))
    yield ("reveal", *coup), lambda: [reveal_question(table, head)]
    cards = [_plain_card(c) for c in table.cards]
    if len(cards) < 4:
        return
    punto = [_plain_card(c) for c in table.punto_cards]
    banca = [_plain_card(c) for c in table.banca_cards]
    first = (_hand_text("PUNTO", punto[:2]), _hand_text("BANCA", banca[:2]))
    yield ("punto", *coup), lambda: [punto_question(punto[:2], banca[:2], head + first)]
    if table.card_called_for == Hand.PUNTO.value:
        return
    punto_line = _hand_text("PUNTO", punto)
    yield ("banca", *coup), lambda: [banca_question(punto, banca[:2], head + (punto_line, first[1]))]
    result, lines = table.result, table.settlement
    if result is None or lines is None:
        return

    def at_result() -> list[Question]:
        assert result is not None and lines is not None
        questions = []
        if shoe.dealt >= shoe.cut_position - LAST_COUP_WINDOW:
            questions.append(last_coup_question(table))
        situation = head + (punto_line, _hand_text("BANCA", banca))
        questions += [total_question("punto", punto, result.punto_total),
                      total_question("banca", banca, result.banca_total),
                      winner_question(punto, banca, result, situation)]
        questions += [line_question(line, result, table.config, situation) for line in lines]
        return questions

    yield ("result", *coup), at_result


# --- adaptive shoes ---------------------------------------------------------------------

SHUFFLES = 4
"""Shuffles compared for an adaptive shoe: enough to lean, few enough that any shoe may come."""


def _banca_cases(order: list[Card]) -> Iterator[str]:
    """The BANCA case of each coup a shoe in this order would deal (burn, then to the cut card)."""
    burn = 1 + order[0].rank.burn_count
    cut = len(order) - CARDS_BELOW_CUT
    i = burn
    while i < cut:
        punto: list[Card] = []
        banca: list[Card] = []
        while (hand := next_draw([c.rank for c in punto], [c.rank for c in banca])) is not None:
            if i >= len(order):
                return
            (punto if hand is Hand.PUNTO else banca).append(order[i])
            i += 1
        case = banca_question(punto, banca[:2], ()).case
        if case is not None:
            yield case


def adaptive_order(rng: random.Random, decks: int, record: Mapping[str, tuple[int, int]]) -> list[str]:
    """A shuffled shoe (card texts) leaning towards the BANCA cases this trainee misses most."""
    weights = tableau_weights(record)
    best: tuple[float, list[str]] | None = None
    for _ in range(SHUFFLES):
        deck = [str(c) for c in FULL_DECK] * decks
        rng.shuffle(deck)
        cards = [Card.parse(t) for t in deck]
        weight = sum(weights.get(case, 0.0) for case in _banca_cases(cards))
        if best is None or weight > best[0]:
            best = (weight, deck)
    assert best is not None
    return best[1]

