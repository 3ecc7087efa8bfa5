"""The Madero console's keys, each by the engine command it runs (``tui_common.keys``).

The order is the key bar's. The same pattern as the Midi console (screens.md: a croupier who
knows one knows the other): a digit or an arrow selects the box, a letter opens that bet's
amount, digits and enter place it. A key bound twice (``a``: the Ante or a card's rank) does
what the key the phase allows does.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

from shared.madero.config import MAX_BOXES
from shared.madero.table import MaderoTable, Phase
from tui_common.keys import Key, KeyTable, alias


def _box_exists(number: int) -> Callable[[Any], bool]:
    """A digit past the table's last box selects nothing (it is answered as no such box)."""
    return lambda app: number <= app.engine.config.boxes


def _in(phase: Phase) -> Callable[[Any], bool]:
    """Turn and River are one engine command (``bet``); the phase says which one it is."""
    return lambda app: app.engine.phase is phase


# The card entry's keys: every letter and digit reaches it (a wrong one is refused by name:
# «x» is no rank), backspace erases, esc clears what is typed.
_CARD_KEYS = [*(string.ascii_lowercase + string.digits)[1:], "backspace", "escape"]

MADERO_KEYS = KeyTable([
    Key("1", "place_bet", "select_box(1)", "mad_key_select", display=f"1–{MAX_BOXES} ← →", when=_box_exists(1)),
    *(alias(str(n), "place_bet", f"select_box({n})", when=_box_exists(n)) for n in range(2, MAX_BOXES + 1)),
    alias("left", "place_bet", "move_box(-1)", id="box_left"),
    alias("right", "place_bet", "move_box(1)", id="box_right"),
    Key("a", "place_bet", "open_bet('ante')"),
    Key("b", "place_bet", "open_bet('bonus')", "mad_key_bonus", when=lambda app: app.engine.config.bonus_enabled),
    Key("j", "place_bet", "open_bet('jackpot')", "mad_key_jackpot"),
    Key("g", "group_boxes", "group_boxes"),
    Key("n", "no_va_mas", "no_va_mas"),
    Key("v", "voy", "decide('voy')"),
    Key("r", "fold", "decide('fold')"),
    Key("t", "bet", "street_bet('second')", when=_in(Phase.SECOND)),
    Key("t", "bet", "street_bet('third')", "mad_key_river", when=_in(Phase.THIRD)),
    Key("p", "check", "decide('check')"),
    Key("a", "key_card", "card_key('a')", display="As 10h"),
    *(alias(key, "key_card", f"card_key('{key}')") for key in _CARD_KEYS),
    Key("d", "deal", training_only=True),
    Key("enter", "confirm_settlement", "confirm_settlement"),
    Key("ctrl+r", "repeat_bets"),
    Key("ctrl+z", "undo", "undo"),
], MaderoTable.command_table())
