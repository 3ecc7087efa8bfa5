"""Independent oracle for Midi Punto y Banca (midi-rules.md "Drawing rules", "Payouts").

The tableau and the payouts are re-written here from the spec alone. Every distinct coup
(card values 0–9, exactly the cards the rules call for) is compared with
``resolve_coup``; ``cards_needed`` is compared on every 4- and 5-card start; the payouts
of ``settle_bets`` are compared on generated coups and stakes in both BANCA modes.
"""

from __future__ import annotations

from decimal import Decimal
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.baccarat import Winner, cards_needed, resolve_coup
from shared.cards import Rank
from shared.errors import InputError
from shared.midi.config import DEFAULT_MIDI_TABLE
from shared.midi.payouts import BetKind, Outcome, settle_bets, spot_summaries

D = Decimal


# ---------------------------------------------------------------- oracle: the tableau
def banca_draws(banca: int, punto_third: int | None) -> bool:
    """The spec's table, written out as its rows."""
    if punto_third is None:
        return banca <= 5
    p = punto_third
    return {0: True, 1: True, 2: True, 3: p != 8, 4: 2 <= p <= 7, 5: 4 <= p <= 7,
            6: p in (6, 7), 7: False}[banca]


def oracle_coup(values):
    """(punto hand, banca hand) from an iterable of card values in dealing order.

    1st and 3rd card to PUNTO, 2nd and 4th to BANCA (Art. 8 §3); then the third cards.
    Returns None when the values run out before the coup is complete."""
    it = iter(values)
    try:
        c1, c2, c3, c4 = next(it), next(it), next(it), next(it)
        punto, banca = [c1, c3], [c2, c4]
        pt, bt = (c1 + c3) % 10, (c2 + c4) % 10
        if pt >= 8 or bt >= 8:  # natural: nobody draws (Art. 6 §2)
            return punto, banca
        p3 = None
        if pt <= 5:
            p3 = next(it)
            punto.append(p3)
        if banca_draws(bt, p3):
            banca.append(next(it))
        return punto, banca
    except StopIteration:
        return None


def total(hand) -> int:
    return sum(hand) % 10


def oracle_winner(punto, banca) -> Winner:
    p, b = total(punto), total(banca)
    return Winner.PUNTO if p > b else Winner.BANCA if b > p else Winner.TIE


def complete_coups(first: int):
    """Every distinct complete coup (values in dealing order) starting with ``first``:
    grow each start one card at a time until the oracle says the coup is complete."""
    pending = [(first, *start) for start in product(range(10), repeat=3)]
    while pending:
        seq = pending.pop()
        hands = oracle_coup(seq)
        if hands is not None and len(hands[0]) + len(hands[1]) == len(seq):
            yield seq
        else:
            pending.extend(seq + (x,) for x in range(10))


# ---------------------------------------------------------------- tableau vs engine
@pytest.mark.parametrize("first", range(10))
def test_every_coup_matches_oracle(first):
    n = 0
    for seq in complete_coups(first):
        punto, banca = oracle_coup(seq)
        r = resolve_coup(seq)
        assert (list(r.punto_cards), list(r.banca_cards)) == (punto, banca), seq
        assert (r.punto_total, r.banca_total) == (total(punto), total(banca)), seq
        assert r.winner is oracle_winner(punto, banca), seq
        assert r.punto_drew == (len(punto) == 3) and r.banca_drew == (len(banca) == 3), seq
        natural = total(punto[:2]) >= 8 or total(banca[:2]) >= 8
        assert r.natural == natural, seq
        assert r.banca_six == (r.winner is Winner.BANCA and total(banca) == 6), seq
        assert tuple(r.cards_in_dealing_order) == seq
        assert cards_needed(seq) == len(seq), seq
        n += 1
    assert n > 10_000  # the enumeration really ran


@pytest.mark.parametrize("first", range(10))
def test_cards_needed_on_partial_coups(first):
    """With 4 cards: 4 on a natural, 5 while PUNTO's third card is still unknown (the
    documented lower bound), else exact; with 5 (PUNTO's third known): exact."""
    for rest in product(range(10), repeat=3):
        four = (first, *rest)
        lengths = {len(p) + len(b) for x in range(10) for y in range(10)
                   for p, b in [oracle_coup(four + (x, y))]}
        punto_draws = len(lengths) > 1 or lengths == {6} or (
            lengths == {5} and total(four[0::2]) <= 5)
        assert cards_needed(four) == (5 if punto_draws else lengths.pop()), four
        for x in range(10):
            p, b = oracle_coup(four + (x, 0))
            assert cards_needed(four + (x,)) == len(p) + len(b), four + (x,)


def test_resolve_refuses_missing_or_extra_cards():
    for seq in [(1, 2, 3, 4, 5, 6), (9, 0, 0, 0), (5, 5, 7, 1, 0)]:
        punto, banca = oracle_coup(seq)
        n = len(punto) + len(banca)
        with pytest.raises(InputError):
            resolve_coup(seq[:n - 1])
        with pytest.raises(InputError):
            resolve_coup(seq[:n] + (0,))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list(Rank)), min_size=6, max_size=6))
def test_ranks_count_as_points(ranks):
    """A = 1, 2–9 face value, 10/J/Q/K = 0 (Art. 2 §1)."""
    values = [r.value if r.value <= 9 else (1 if r is Rank.ACE else 0) for r in ranks]
    punto, banca = oracle_coup(values)
    n = len(punto) + len(banca)
    r = resolve_coup(ranks[:n])
    assert (r.punto_total, r.banca_total) == (total(punto), total(banca))
    assert r.winner is oracle_winner(punto, banca)


# ---------------------------------------------------------------- payouts
def takes(kind: BetKind, stake: D, config) -> bool:
    """The bets a table takes: whole chips, and a BANCA whose every payment is whole chips
    (an even number for the half on six, a multiple of 20 when the 5 % is deducted)."""
    chips = stake / config.chip
    if chips % 1:
        return False
    if kind is not BetKind.BANCA or (config.banca_mode, config.commission_handling) == ("commission", "tally"):
        return True
    return chips % (2 if config.banca_mode == "half-six" else 20) == 0


def oracle_line(kind: BetKind, stake: D, winner: Winner, banca_total: int, config):
    """(outcome, exact winnings, paid winnings, commission to the tally, returned stake,
    collected stake): every payment exact, never rounded (Art. 5 §2–3)."""
    if winner is Winner.TIE:
        if kind is BetKind.TIE:
            exact = 8 * stake
            return Outcome.WIN, exact, exact, D(0), stake, D(0)
        return Outcome.PUSH, D(0), D(0), D(0), stake, D(0)
    if kind.value != winner.value:
        return Outcome.LOSE, D(0), D(0), D(0), D(0), stake
    if kind is BetKind.PUNTO:
        exact = stake
    elif config.banca_mode == "commission":
        exact = stake - stake * D(5) / D(100)
        if config.commission_handling == "tally":  # paid 1 a 1, the 5 % owed to the box's tally
            return Outcome.WIN, exact, stake, stake - exact, stake, D(0)
    else:
        exact = stake / 2 if banca_total == 6 else stake
    return Outcome.WIN, exact, exact, D(0), stake, D(0)


CONFIGS = [
    DEFAULT_MIDI_TABLE,
    DEFAULT_MIDI_TABLE.with_changes(banca_mode="commission"),
    DEFAULT_MIDI_TABLE.with_changes(banca_mode="commission", commission_handling="deduct"),
    DEFAULT_MIDI_TABLE.with_changes(chip=D(5)),
    DEFAULT_MIDI_TABLE.with_changes(chip=D(5), banca_mode="commission"),
    DEFAULT_MIDI_TABLE.with_changes(chip=D(5), banca_mode="commission", commission_handling="deduct"),
]


def config_id(c) -> str:
    return f"{c.banca_mode}-{c.commission_handling}-chip{c.chip}"

stake = st.one_of(st.integers(1, 2000).map(D), st.integers(1, 4000).map(lambda n: D(n) / 2),
                  st.sampled_from([D(1), D(3), D(5), D(7), D(13), D(19), D(21), D(25), D(99)]))
spot_bets = st.dictionaries(st.sampled_from(list(BetKind)), stake, min_size=1, max_size=3)
coup = st.lists(st.integers(0, 9), min_size=6, max_size=6)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@settings(max_examples=200, deadline=None)
@given(values=coup, bets=st.dictionaries(st.integers(1, 9), spot_bets, min_size=1, max_size=9))
def test_payouts_match_oracle(config, values, bets):
    punto, banca = oracle_coup(values)
    result = resolve_coup(values[:len(punto) + len(banca)])
    winner = oracle_winner(punto, banca)
    lines = settle_bets(bets, result, config)
    got = {(l.spot, l.kind): (l.outcome, l.exact, l.paid, l.commission, l.returned, l.collected) for l in lines}
    want = {(spot, kind): oracle_line(kind, s, winner, total(banca), config)
            for spot, kinds in bets.items() for kind, s in kinds.items()}
    assert got == want
    for l in lines:
        assert l.stake == bets[l.spot][l.kind]
        assert l.returned + l.collected == l.stake
        # The stakes here need not be ones the table takes; those it takes pay whole chips.
        assert l.paid - l.commission == l.exact
        if takes(l.kind, l.stake, config):
            assert l.paid % config.chip == 0
    for spot, summary in spot_summaries(lines).items():
        assert summary.staked == sum(bets[spot].values())
        assert summary.staked == summary.returned + summary.collected
        assert summary.commission == sum((l.commission for l in lines if l.spot == spot), D(0))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@pytest.mark.parametrize("values,winner,banca_total", [
    ((0, 6, 0, 0, 0), Winner.BANCA, 6),       # PUNTO 0 draws 0, BANCA 6 stands on p=0: BANCA 6
    ((7, 6, 0, 0), Winner.PUNTO, 6),          # 7 v 6, both stand
    ((9, 8, 0, 0), Winner.PUNTO, 8),          # naturals
    ((6, 6, 0, 0), Winner.TIE, 6),            # 6 v 6 tie
    ((0, 7, 0, 0, 0), Winner.BANCA, 7),
])
def test_pinned_payouts(config, values, winner, banca_total):
    r = resolve_coup(values)
    assert r.winner is winner and r.banca_total == banca_total
    bets = {1: {BetKind.PUNTO: D(13)}, 2: {BetKind.BANCA: D(13)}, 3: {BetKind.TIE: D(13)},
            4: {BetKind.PUNTO: D(25), BetKind.BANCA: D(10), BetKind.TIE: D(7)}}
    lines = {(l.spot, l.kind): l for l in settle_bets(bets, r, config)}
    for (spot, kind), l in lines.items():
        o = oracle_line(kind, bets[spot][kind], winner, banca_total, config)
        assert (l.outcome, l.exact, l.paid, l.commission, l.returned, l.collected) == o
    if winner is Winner.TIE:
        assert lines[(3, BetKind.TIE)].exact == 104
        assert lines[(1, BetKind.PUNTO)].outcome is Outcome.PUSH
        assert lines[(2, BetKind.BANCA)].returned == 13


def test_void_coup_returns_everything():
    bets = {1: {BetKind.PUNTO: D(13), BetKind.TIE: D(7)}, 5: {BetKind.BANCA: D(40)}}
    lines = settle_bets(bets, None, DEFAULT_MIDI_TABLE)
    assert all(l.outcome is Outcome.VOID and l.returned == l.stake and l.paid == 0 for l in lines)
    assert len(lines) == 3
