"""The Jackpot paytables as Resolución 132/2015 prints them: §48 (fixed) and §50 (progressive)."""

from __future__ import annotations

from decimal import Decimal

from shared.madero.paytables import JackpotLine, JackpotPayKind, jackpot_paytable

L, K = JackpotLine, JackpotPayKind
# "Póker $ 500* … *se multiplicará por cada seguro apostado" (§48 and §50 alike).
PER_CREDIT_HANDS = [(L.POKER, "Póker", "Four of a kind", 7, 500), (L.FULL, "Full", "Full house", 6, 100),
                    (L.COLOR, "Color", "Flush", 5, 50), (L.ESCALERA, "Escalera simple", "Straight", 4, 25)]


def rows(table):
    return [(p.line, p.kind, p.amount, p.name.render("es"), p.name.render("en"), p.category, p.article) for p in table]


def test_section_48_the_fixed_paytable():
    assert rows(jackpot_paytable(progressive=False)) == [
        # §49: the two flushes pay a fixed amount.
        (L.ESCALERA_REAL, K.FIXED, 5000, "Escalera real de color", "Royal flush", 9, "Art. 11 §48–49"),
        (L.ESCALERA_DE_COLOR, K.FIXED, 2000, "Escalera de color", "Straight flush", 8, "Art. 11 §48–49"),
        *[(line, K.PER_CREDIT, amount, es, en, cat, "Art. 11 §48") for line, es, en, cat, amount in PER_CREDIT_HANDS],
    ]


def test_section_50_the_progressive_paytable():
    assert rows(jackpot_paytable(progressive=True)) == [
        (L.ESCALERA_REAL, K.METER_SHARE, 1, "Escalera real de color (100 % del pozo)",
         "Royal flush (100 % of the meter)", 9, "Art. 11 §50, §52"),
        (L.ESCALERA_DE_COLOR, K.METER_SHARE, Decimal("0.1"), "Escalera de color (10 % del pozo)",
         "Straight flush (10 % of the meter)", 8, "Art. 11 §50, §53"),
        *[(line, K.PER_CREDIT, amount, es, en, cat, "Art. 11 §50") for line, es, en, cat, amount in PER_CREDIT_HANDS],
        # §55–57: the two special prizes do not depend on the hand.
        (L.CARTA_MAGICA, K.PER_CREDIT, 30, "Carta Mágica", "Magic card", None, "Art. 11 §55–56"),
        (L.JUGADOR_AFORTUNADO, K.PER_CREDIT, 30, "Jugador Afortunado", "Lucky player", None, "Art. 11 §55, §57"),
    ]

