"""What the croupier announces (Art. 8 §1–6, Art. 9 §3–5): from the table's state, in order.

Every announcement is a catalog message (``[midi]`` in shared/locale/*.toml)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from shared.baccarat import (
    banca_draws,
    cards_needed,
    deal_order,
    is_natural,
    punto_draws,
    resolve_coup,
    total,
)
from shared.cards import Rank
from shared.engine import can
from shared.messages import Joined, Money, Msg, Plain
from shared.midi.config import MidiTableConfig
from shared.midi.table.result_words import result_announcements
from shared.midi.table.state import CARDS_BELOW_CUT, KeyedCard, Phase

if TYPE_CHECKING:
    from shared.midi.table.base import MidiBase


def table_announcements(t: MidiBase) -> list[Msg]:
    """The announcements of the table's phase."""
    if t.phase is Phase.NO_SHOE:
        return [Msg.of("midi.ann_new_shoe")]
    if t.phase is Phase.SHOE_END:
        first = Msg.of("midi.ann_shoe_end_cut" if t.shoe_end_reason == "cut" else "midi.ann_shoe_end")
        return [first] + commission_announcement(t) + sabot_announcement(t)
    if t.phase is Phase.BURN:
        if t._burn_card is None:
            return [Msg.of("midi.ann_burn_expose")]
        n = t._burn_card.rank.burn_count
        return [Msg.of("midi.ann_burn", count=n, card=t._burn_card.display)]
    if t.phase is Phase.BETS:
        if not can(t.tray.verify_bets_with_tray):
            return [Msg.of("tray.open_before_bets")]  # no «hagan sus apuestas» a bet key refuses
        anns = [Msg.of("midi.ann_place_bets")]
        if t._cut_out or t._size - t._dealt - CARDS_BELOW_CUT < 4:
            # Fewer cards above the cut card than a coup's first four: it comes out during
            # this coup, the shoe's last (with 8 left the prompt did not say so).
            anns.append(Msg.of("midi.ann_last_coup"))
        return anns + sabot_announcement(t)
    # The cut card came out during this coup, or is the next out of the sabot (Art. 8 §1):
    # said at once and until the coup is settled, first, so the call that follows stays the
    # line's last, highlighted words.
    cut_next = t.card_called_for is not None and t._dealt >= t._size - CARDS_BELOW_CUT
    cut = [Msg.of("midi.ann_cut_card_out")] if t._cut_out or cut_next else []
    if t.card_called_for is not None and t._dealt >= t._size:
        return cut + [Msg.of("midi.ann_shoe_empty")]
    return cut + coup_announcements(t.cards, t.reveal_box, t.config, t.spot_label)


def commission_announcement(t: MidiBase) -> list[Msg]:
    if not t.commission_tally:
        return []
    owed = Joined(tuple(Joined((Plain(f"{t.spot_label(b)}:"), Money(v)), " ")
                        for b, v in sorted(t.commission_tally.items())), ", ")
    return [Msg.of("midi.ann_collect_commissions", owed=owed)]


def sabot_announcement(t: MidiBase) -> list[Msg]:
    if t.sabot_holder is None:
        return [Msg.of("midi.ann_sabot_croupier")]
    label = t.spot_label(t.sabot_holder)
    if t.supervisor_dealing:
        return [Msg.of("midi.ann_sabot_supervisor", box=label)]
    return [Msg.of("midi.ann_sabot_box", box=label)]


def coup_announcements(cards: list[KeyedCard], reveal_box: int | None, config: MidiTableConfig,
                       label: Callable[[int], str]) -> list[Msg]:
    """What the croupier announces now, from the coup's cards (Art. 8 §3–6)."""
    if len(cards) < 4:
        return _first_four(len(cards), reveal_box, label)
    ranks = [c.rank for c in cards]
    anns, done = _third_cards(ranks)
    if not done:
        return anns
    return anns + result_announcements(resolve_coup(ranks), config)


def _first_four(n: int, reveal_box: int | None, label: Callable[[int], str]) -> list[Msg]:
    """«Cartas», who turns PUNTO's cards (Art. 8 §4), and the hand of card ``n + 1``."""
    anns = []
    if n == 0:
        anns.append(Msg.of("midi.ann_cards"))
        if reveal_box is None:
            anns.append(Msg.of("midi.ann_croupier_turns_punto"))
        else:
            anns.append(Msg.of("midi.ann_punto_cards_to", box=label(reveal_box)))
    anns.append(Msg.of("midi.ann_card_n", n=n + 1, hand="PUNTO" if n % 2 == 0 else "BANCA"))
    return anns


NATURAL = {(True, False): Msg.of("midi.ann_natural_punto"), (False, True): Msg.of("midi.ann_natural_banca"),
           (True, True): Msg.of("midi.ann_natural_both")}
"""«Natural», by which hands are naturals (PUNTO's, BANCA's)."""


def _third_cards(ranks: list[Rank]) -> tuple[list[Msg], bool]:
    """The totals and the third-card calls of four or more cards (Art. 6), and whether the coup
    is complete."""
    n = len(ranks)
    pt2, bt2 = total(ranks[0:4:2]), total(ranks[1:4:2])
    p_drew = not is_natural(pt2) and not is_natural(bt2) and punto_draws(pt2)
    if n == 4:
        anns = [Msg.of("midi.ann_punto_total", total=pt2), Msg.of("midi.ann_banca_total", total=bt2)]
        if is_natural(pt2) or is_natural(bt2):
            return anns + [NATURAL[is_natural(pt2), is_natural(bt2)]], True
        if p_drew:
            return anns + [Msg.of("midi.ann_card_for_punto")], False
        anns.append(Msg.of("midi.ann_punto_stands", total=pt2))
        if banca_draws(bt2, None):
            return anns + [Msg.of("midi.ann_card_for_banca")], False
        return anns + [Msg.of("midi.ann_banca_stands", total=bt2)], True
    if n == 5 and p_drew:
        anns = [Msg.of("midi.ann_punto_total", total=total(ranks[0:4:2] + [ranks[4]]))]
        if cards_needed(ranks) == 6:
            return anns + [Msg.of("midi.ann_card_for_banca")], False
        return anns + [Msg.of("midi.ann_banca_stands", total=bt2)], True
    return [Msg.of("midi.ann_banca_total", total=total(deal_order(ranks)[1]))], True
