"""The ids of the Madero table's commands (each declared where it is defined, ``@command``);
which are allowed now is the command table's answer."""

from __future__ import annotations

from enum import StrEnum


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

