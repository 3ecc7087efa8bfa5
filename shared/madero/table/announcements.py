"""What the croupier does or announces now, in the regulation's words (Art. 7–9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shared.engine import Prompt, can
from shared.madero.table.events import (
    BetsClosed,
    CardKeyed,
    CommunityDealt,
    CommunityError,
    Decision,
)
from shared.madero.table.state import BETTING_ROUND, ROUND_ARTICLE, Phase
from shared.messages import Msg

if TYPE_CHECKING:
    from shared.madero.table import MaderoTable


def prompt(table: MaderoTable) -> Prompt:
    """What the croupier does or says now."""
    r = table.r
    if r is None or r.phase is Phase.BETS:
        if not can(table.tray.verify_bets_with_tray):
            return Prompt(Msg.of("tray.open_before_bets"))  # no «hagan sus apuestas» a bet key refuses
        if r is not None and any(b.ante > 0 for b in r.boxes.values()):
            return Prompt(Msg.of("madero.place_bets_then_close"), "Art. 7 §23–24")
        return Prompt(Msg.of("madero.place_bets"), "Art. 7 §23")
    box = table.to_act
    if r.phase is Phase.FIRST:
        return Prompt(Msg.of("madero.voy_or_fold", box=box), "Art. 8 §26", box)
    if r.phase in (Phase.SECOND, Phase.THIRD):
        name = "Turn" if r.phase is Phase.SECOND else "River"
        return Prompt(Msg.of("madero.bet_or_check", box=box, name=name), ROUND_ARTICLE[BETTING_ROUND[r.phase]], box)
    last = table.round_log[-1].body if table.round_log else None
    if r.phase is Phase.FLOP and isinstance(last, CommunityError) and last.reordered is not None:
        # §39.2 put right before the flop is turned: how to, until the flop is turned.
        return Prompt(Msg.of(f"madero.flop_order_{last.reordered}"), "Art. 10 §39.2")
    if r.phase in (Phase.FLOP, Phase.TURN, Phase.RIVER):
        what = Msg.of(f"madero.street_cards_{r.phase.value}")
        if r.no_burn_next:
            redeal = Msg.of("madero.redeal_without_burn", what=what)
            # The bets made since the faulty street go back to their players first (§39.3).
            if isinstance(last, CommunityError) and (returned := last.returned_bets()) is not None:
                redeal = Msg.of("madero.return_then_redeal", returned=returned, article=last.article,
                                redeal=redeal)
            return Prompt(redeal, "Art. 10 §39.5")
        return Prompt(Msg.of("madero.burn_and_turn", what=what), STREET_ARTICLE[r.phase])
    if r.phase is Phase.SHOWDOWN:
        expected = table.expected_card()
        assert expected is not None  # the showdown lasts while a card is expected (fold.advance)
        target, n = expected
        if target == "bank":
            return Prompt(Msg.of("madero.turn_bank_cards"), "Art. 9 §30")
        return Prompt(Msg.of("madero.turn_box_cards", box=n), "Art. 9 §30", n)
    if table.carrusel.prize_claim_due:
        return Prompt(Msg.of("carrusel.claim_prize_first"), "Art. 11 §52–§53")
    s = table.carrusel.pending_settlement()
    if (words := s.bank_words) is not None:
        return Prompt(words, "Art. 9 §32")
    return Prompt(Msg.of("madero.collect_and_confirm"), "Art. 9 §36")


def announcement(table: MaderoTable) -> Prompt | None:
    """What the croupier says for the last entry of the round ("No va más", "Paso"…)."""
    r = table.r
    if r is None or not table.round_log:
        return None
    last = table.round_log[-1].body
    if isinstance(last, BetsClosed):
        return Prompt(Msg.of("madero.say_no_va_mas"), "Art. 7 §24")
    if isinstance(last, Decision):
        said = Msg.of(f"madero.say_{last.action}", amount=last.amount, name=STREET_NAME[last.round])
        return Prompt(Msg.of("madero.say_box", box=last.box, said=said), ROUND_ARTICLE[last.round], last.box)
    if isinstance(last, (CardKeyed, CommunityDealt)) and r.board and r.phase not in (Phase.SHOWDOWN, Phase.SETTLEMENT):
        return Prompt(Msg.of("madero.say_board", cards=" ".join(c.display for c in r.board)), "Art. 8 §27–29")
    return None


STREET_ARTICLE = {Phase.FLOP: "Art. 8 §27", Phase.TURN: "Art. 8 §28", Phase.RIVER: "Art. 8 §29"}
STREET_NAME = {1: "Flop", 2: "Turn", 3: "River"}
