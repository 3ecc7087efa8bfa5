"""Which commands the table allows now: the key bar shows exactly these."""

from __future__ import annotations

from enum import StrEnum

from shared.madero.table.announcements import MaderoAnnouncements
from shared.madero.table.state import BETTING_ROUND, Phase


class Action(StrEnum):
    PLACE_BET = "place_bet"
    REPEAT_BETS = "repeat_bets"
    GROUP_BOXES = "group_boxes"
    NO_VA_MAS = "no_va_mas"
    FOLD = "fold"
    VOY = "voy"
    CHECK = "check"
    BET = "bet"
    KEY_CARD = "key_card"
    DEAL = "deal"
    CONFIRM_SETTLEMENT = "confirm_settlement"
    UNDO = "undo"
    # supervisor
    VOID_ROUND = "void_round"
    ARBITRATE_VOID = "arbitrate_void"
    DEAD_HAND = "dead_hand"
    COLLUSION = "collusion"
    COMMUNITY_ERROR = "community_error"
    FIX_FLOP_ORDER = "fix_flop_order"
    CORRECT_CARD = "correct_card"
    ADJUST = "adjust"


SUPERVISOR_ACTIONS = frozenset({Action.VOID_ROUND, Action.ARBITRATE_VOID, Action.DEAD_HAND, Action.COLLUSION,
                                Action.COMMUNITY_ERROR, Action.FIX_FLOP_ORDER, Action.CORRECT_CARD,
                                Action.ADJUST})



class MaderoLegality(MaderoAnnouncements):
    """Which commands are allowed now."""

    def legal_actions(self) -> frozenset[Action]:
        """The commands allowed now (supervisor ones included when their phase allows)."""
        acts = set()
        phase = self.phase
        if phase in (Phase.IDLE, Phase.BETS):
            acts |= {Action.PLACE_BET, Action.GROUP_BOXES}
            if self.can_repeat_bets():
                acts.add(Action.REPEAT_BETS)
            if self.can_no_va_mas():
                acts.add(Action.NO_VA_MAS)
        if phase is Phase.FIRST:
            acts |= {Action.FOLD, Action.VOY}
        if phase in (Phase.SECOND, Phase.THIRD):
            acts |= {Action.CHECK, Action.BET}
        if phase in (Phase.FLOP, Phase.TURN, Phase.RIVER, Phase.SHOWDOWN):
            acts.add(Action.DEAL if self.training else Action.KEY_CARD)
        if phase is Phase.SETTLEMENT:
            acts.add(Action.CONFIRM_SETTLEMENT)
        if self.can_undo():
            acts.add(Action.UNDO)
        if phase not in (Phase.IDLE, Phase.BETS):
            acts |= {Action.ARBITRATE_VOID if self.betting_began() else Action.VOID_ROUND,
                     Action.DEAD_HAND, Action.COLLUSION, Action.CORRECT_CARD}
            if self._community_street() is not None or phase in BETTING_ROUND or phase is Phase.FLOP:
                acts.add(Action.COMMUNITY_ERROR)
            if phase is Phase.FLOP and not self.board:
                acts.add(Action.FIX_FLOP_ORDER)
        acts.add(Action.ADJUST)
        return frozenset(acts)

    def can(self, action: Action) -> bool:
        return action in self.legal_actions()
