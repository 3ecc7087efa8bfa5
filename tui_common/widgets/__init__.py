"""Widgets both table apps compose into their main screens."""

from tui_common.widgets.amount_entry import AmountEntry, AmountKey
from tui_common.widgets.card_entry import BACCARAT_CARD_KEYS, CardEntry, CardKey, baccarat_rank_for_key
from tui_common.widgets.key_bar import KeyBar, KeyLine, key_lines
from tui_common.widgets.message_line import MessageLine
from tui_common.widgets.quiet_static import QuietStatic
from tui_common.widgets.training_banner import TrainingBanner

__all__ = [
    "AmountEntry",
    "AmountKey",
    "BACCARAT_CARD_KEYS",
    "CardEntry",
    "CardKey",
    "KeyBar",
    "KeyLine",
    "MessageLine",
    "QuietStatic",
    "TrainingBanner",
    "baccarat_rank_for_key",
    "key_lines",
]
