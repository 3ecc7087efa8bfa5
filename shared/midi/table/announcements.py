"""What the croupier announces (Art. 8 §1–6, Art. 9 §3–5): from the table's state, in order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shared.baccarat import (
    CoupResult,
    Winner,
    banca_draws,
    cards_needed,
    deal_order,
    is_natural,
    punto_draws,
    resolve_coup,
    total,
)
from shared.midi.config import MidiTableConfig
from shared.midi.table.state import CARDS_BELOW_CUT, KeyedCard, Phase
from shared.money import fmt_money

if TYPE_CHECKING:
    from shared.midi.table.base import MidiBase


@dataclass(frozen=True, slots=True)
class Announcement:
    es: str
    en: str


def table_announcements(t: MidiBase) -> list[Announcement]:
    """The announcements of the table's phase."""
    A = Announcement
    if t.phase is Phase.NO_SHOE:
        return [A("Sabot nuevo: contar, mezclar y cortar; carta de corte con 7 cartas debajo (Art. 8 §1)",
                  "New shoe: count, shuffle and cut; cut card with 7 cards below it (Art. 8 §1)")]
    if t.phase is Phase.SHOE_END:
        if t.shoe_end_reason == "cut":
            first = A("Fin del sabot: salió la carta de corte (Art. 8 §1)",
                      "End of the shoe: the cut card has come out (Art. 8 §1)")
        else:
            first = A("Fin del sabot", "End of the shoe")
        return [first] + commission_announcement(t) + sabot_announcement(t)
    if t.phase is Phase.BURN:
        if t._burn_card is None:
            return [A("Quema: descubrir la primera carta (Art. 8 §2)",
                      "Burn: expose the first card (Art. 8 §2)")]
        n = t._burn_card.rank.burn_count
        return [A(f"Quemar {n} {'carta' if n == 1 else 'cartas'} ({t._burn_card.display}) al descartero",
                  f"Burn {n} card{'' if n == 1 else 's'} ({t._burn_card.display}) to the discard")]
    if t.phase is Phase.BETS:
        anns = [A("Hagan sus apuestas", "Place your bets")]
        if t._cut_out or t._dealt >= t._size - CARDS_BELOW_CUT:
            # The cut card is out or is the next card: this coup is the shoe's last.
            anns.append(A("Último pase del sabot", "Last coup of the shoe"))
        return anns + sabot_announcement(t)
    if t.card_called_for is not None and t._dealt >= t._size:
        return [A("El sabot no tiene más cartas: pase NULO (Art. 9 §3)",
                  "The shoe has no cards left: the coup is void, NULO (Art. 9 §3)")]
    return coup_announcements(t.cards, t.reveal_box, t.config, t.spot_label)


def commission_announcement(t: MidiBase) -> list[Announcement]:
    if not t.commission_tally:
        return []
    owed = ", ".join(f"{t.spot_label(b)}: {fmt_money(v)}" for b, v in sorted(t.commission_tally.items()))
    return [Announcement(f"Cobrar las comisiones (Art. 5 §3) — casillero {owed}",
                         f"Collect the commissions (Art. 5 §3) — box {owed}")]


def sabot_announcement(t: MidiBase) -> list[Announcement]:
    if t.sabot_holder is None:
        return [Announcement("Sabot: reparte el croupier", "Sabot: the croupier deals")]
    label = t.spot_label(t.sabot_holder)
    if t.supervisor_dealing:
        return [Announcement(f"Sabot: reparte el supervisor (casillero {label})",
                             f"Sabot: the supervisor deals (box {label})")]
    return [Announcement(f"Sabot: casillero {label}", f"Sabot: box {label}")]

def coup_announcements(cards: list[KeyedCard], reveal_box: int | None, config: MidiTableConfig,
                       label: Callable[[int], str]) -> list[Announcement]:
    """What the croupier announces now, from the coup's cards (Art. 8 §3–6)."""
    A = Announcement
    n = len(cards)
    if n < 4:
        anns = []
        if n == 0:
            anns.append(A("Cartas", "Cards"))
            if reveal_box is None:
                anns.append(A("las cartas del PUNTO las descubre el croupier", "the croupier turns PUNTO's cards"))
            else:
                anns.append(A(f"Cartas del PUNTO al casillero {label(reveal_box)}",
                              f"PUNTO's cards to box {label(reveal_box)}"))
        hand = "PUNTO" if n % 2 == 0 else "BANCA"
        anns.append(A(f"carta {n + 1}: {hand}", f"card {n + 1}: {hand}"))
        return anns
    ranks = [c.rank for c in cards]
    pt2, bt2 = total(ranks[0:4:2]), total(ranks[1:4:2])
    anns = []
    p_drew = not is_natural(pt2) and not is_natural(bt2) and punto_draws(pt2)
    if n == 4:
        anns += [A(f"PUNTO {pt2}", f"PUNTO {pt2}"), A(f"BANCA {bt2}", f"BANCA {bt2}")]
        if is_natural(pt2) or is_natural(bt2):
            nat = [h for h, t in (("PUNTO", pt2), ("BANCA", bt2)) if is_natural(t)]
            anns.append(A(f"Natural ({' y '.join(nat)})", f"Natural ({' and '.join(nat)})"))
        elif p_drew:
            return anns + [A("Carta para el PUNTO", "Card for PUNTO")]
        else:
            anns.append(A(f"El PUNTO se planta con {pt2}", f"PUNTO stands on {pt2}"))
            if banca_draws(bt2, None):
                return anns + [A("Carta para la BANCA", "Card for BANCA")]
            anns.append(A(f"La BANCA se planta con {bt2}", f"BANCA stands on {bt2}"))
    elif n == 5 and p_drew:
        pt3 = total(ranks[0:4:2] + [ranks[4]])
        anns.append(A(f"PUNTO {pt3}", f"PUNTO {pt3}"))
        if cards_needed(ranks) == 6:
            return anns + [A("Carta para la BANCA", "Card for BANCA")]
        anns.append(A(f"La BANCA se planta con {bt2}", f"BANCA stands on {bt2}"))
    else:
        bt3 = total(deal_order(ranks)[1])
        anns.append(A(f"BANCA {bt3}", f"BANCA {bt3}"))
    result = resolve_coup(ranks)
    return anns + result_announcements(result, config)


def result_announcements(result: CoupResult, config: MidiTableConfig) -> list[Announcement]:
    """Art. 8 §6: the winning hand, and how it is paid."""
    A = Announcement
    if result.winner is Winner.TIE:
        return [A(f"Empate con {result.punto_total}: TIE paga 8 a 1, PUNTO y BANCA se devuelven",
                  f"Tie on {result.punto_total}: TIE pays 8 to 1, PUNTO and BANCA returned")]
    if result.winner is Winner.PUNTO:
        return [A(f"Gana el PUNTO con {result.punto_total}", f"PUNTO wins with {result.punto_total}")]
    if result.banca_six and config.banca_mode == "half-six":
        return [A("Gana la BANCA con 6: se paga el 50 %", "BANCA wins with 6: pays 50 %")]
    if config.banca_mode == "commission" and config.commission_handling == "tally":
        return [A(f"Gana la BANCA con {result.banca_total}: 1 a 1, el 5 % a la cuenta de comisión",
                  f"BANCA wins with {result.banca_total}: 1 to 1, the 5 % to the commission tally")]
    if config.banca_mode == "commission":
        return [A(f"Gana la BANCA con {result.banca_total}: 1 a 1 menos 5 % de comisión",
                  f"BANCA wins with {result.banca_total}: 1 to 1 less 5 % commission")]
    return [A(f"Gana la BANCA con {result.banca_total}", f"BANCA wins with {result.banca_total}")]
