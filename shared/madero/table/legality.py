"""Which commands the table allows now: the key bar shows exactly these."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import partial

from shared.madero.table.announcements import MaderoAnnouncements
from shared.madero.table.supervisor import VoidKind


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
        """The commands allowed now: those whose ``can_x`` holds with their arguments left
        out (some box, card or amount will do; a supervisor signs when giving the command)."""
        return frozenset(action for action, allowed in self._can_by_action().items() if allowed())

    def _can_by_action(self) -> dict[Action, Callable[[], bool]]:
        return {
            Action.PLACE_BET: self.can_place_bet,
            Action.REPEAT_BETS: self.can_repeat_bets,
            Action.GROUP_BOXES: self.can_group_boxes,
            Action.NO_VA_MAS: self.can_no_va_mas,
            Action.FOLD: self.can_fold,
            Action.VOY: self.can_voy,
            Action.CHECK: self.can_check,
            Action.BET: self.can_bet,
            Action.KEY_CARD: self.can_key_card,
            Action.DEAL: self.can_deal,
            Action.CONFIRM_SETTLEMENT: self.can_confirm_settlement,
            Action.UNDO: self.can_undo,
            Action.VOID_ROUND: partial(self.can_void_round, kind=VoidKind.MISDEAL),
            Action.ARBITRATE_VOID: partial(self.can_void_round, kind=VoidKind.ARBITRATION),
            Action.DEAD_HAND: self.can_dead_hand,
            Action.COLLUSION: self.can_collusion,
            Action.COMMUNITY_ERROR: self.can_community_error,
            Action.FIX_FLOP_ORDER: self.can_fix_flop_order,
            Action.CORRECT_CARD: self.can_correct_card,
            Action.ADJUST: self.can_adjust,
        }

    def can(self, action: Action) -> bool:
        return action in self.legal_actions()
