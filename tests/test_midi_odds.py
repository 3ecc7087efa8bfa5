"""Exact odds against the published 8-deck values and an independent enumeration."""

from fractions import Fraction

import pytest

from shared.midi.odds import coup_odds, house_edges, shoe_counts, table_odds

# The dealer's chart again, independently of shared.baccarat (rows: BANCA total 0–7;
# columns: PUNTO's third card 0–9, then "-" for PUNTO stood).
CHART = ["DDDDDDDDDD D", "DDDDDDDDDD D", "DDDDDDDDDD D", "DDDDDDDDSD D",
         "SSDDDDDDSS D", "SSSSDDDDSS D", "SSSSSSDDSS S", "SSSSSSSSSS S"]


def brute_force(counts):
    """Every ordered card sequence P1 B1 P2 B2 [P3] [B3], dealt one card at a time with
    exact probabilities — no pair symmetry, no common denominator."""
    counts = list(counts)
    out = {"banca": Fraction(0), "punto": Fraction(0), "tie": Fraction(0), "six": Fraction(0)}

    def draw(prob, then):
        n = sum(counts)
        for v in range(10):
            if counts[v]:
                p = prob * Fraction(counts[v], n)
                counts[v] -= 1
                then(p, v)
                counts[v] += 1

    def finish(prob, p, b):
        pt, bt = sum(p) % 10, sum(b) % 10
        key = "punto" if pt > bt else "banca" if bt > pt else "tie"
        out[key] += prob
        if key == "banca" and bt == 6:
            out["six"] += prob

    def after_four(prob, p, b):
        pt, bt = sum(p) % 10, sum(b) % 10
        if pt >= 8 or bt >= 8:
            return finish(prob, p, b)
        if pt <= 5:
            def punto_third(q, v):
                if CHART[bt][v] == "D":
                    draw(q, lambda r, w: finish(r, p + [v], b + [w]))
                else:
                    finish(q, p + [v], b)
            return draw(prob, punto_third)
        if CHART[bt][11] == "D":
            return draw(prob, lambda q, w: finish(q, p, b + [w]))
        finish(prob, p, b)

    draw(Fraction(1), lambda p1, a: draw(p1, lambda p2, b: draw(p2, lambda p3, c: draw(
        p3, lambda p4, d: after_four(p4, [a, c], [b, d])))))
    return out


def test_against_an_independent_enumeration_on_a_depleted_shoe():
    counts = [20, 3, 7, 1, 5, 9, 2, 11, 4, 6]
    ours = coup_odds(counts)
    ref = brute_force(counts)
    assert (ours.p_banca, ours.p_punto, ours.p_tie, ours.p_banca_six) == (
        ref["banca"], ref["punto"], ref["tie"], ref["six"])


def test_published_eight_deck_values():
    o = table_odds(8, "half-six").odds
    assert round(float(o.p_banca), 6) == 0.458597
    assert round(float(o.p_punto), 6) == 0.446247
    assert round(float(o.p_tie), 6) == 0.095156
    assert o.p_banca + o.p_punto + o.p_tie == 1


def test_house_edges_follow_the_payouts():
    eight = table_odds(8, "commission")
    assert round(float(eight.house_edge["banca"]), 4) == 0.0106
    assert round(float(eight.house_edge["punto"]), 4) == 0.0124
    assert round(float(eight.house_edge["tie"]), 4) == 0.1436
    half = table_odds(8, "half-six")
    o = half.odds
    assert half.house_edge["banca"] == o.p_punto - (o.p_banca - o.p_banca_six / 2)
    assert round(float(half.house_edge["banca"]), 4) == 0.0146
    assert table_odds(6).to_dict()["decks"] == 6
    with pytest.raises(ValueError):
        house_edges(o, "free")


def test_shoe_counts():
    assert shoe_counts(8) == [128] + [32] * 9 and sum(shoe_counts(6)) == 312
    with pytest.raises(ValueError):
        coup_odds([5, 0, 0, 0, 0, 0, 0, 0, 0, 0])
