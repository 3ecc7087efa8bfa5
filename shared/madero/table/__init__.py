"""The Madero Poker Bonus table: the whole regulated round as an event-sourced engine.

Round (Resolución 132/2015, Anexo I, Art. 7–9): bets (Ante, Jackpot credits, Bonus) →
"No va más" → deal → first round (voy / me retiro) → flop → second round (Turn or paso)
→ turn card → third round (River or paso) → river card → showdown → settlement →
next round. Each command has ``verify_X`` (raises, changes nothing), ``can_X`` and
``X`` (verifies, journals one event — or a fixed few in one transaction — and applies
it with the same ``apply`` used on replay).

The round's state is rebuilt from its own entries (``round_log``): that is how "undo
the last entry" works without ever editing the journal — the undo is an entry too.

Live tables learn the cards as the croupier keys them in (community cards as turned,
the bank's and the active boxes' cards at showdown); a training table deals from its
own shuffled deck, burning where the regulation burns.

One module per part, so a rule is found by its article in one hop:
``state`` (the round, its boxes, the fold of the journal and what the screens read),
``commands`` (the croupier's), ``supervisor`` (irregularities, Art. 10 and 14),
``announcements`` (what the croupier does or says now), ``legality`` (what is allowed now).
"""

from shared.madero.table.legality import SUPERVISOR_ACTIONS, Action, MaderoLegality
from shared.madero.table.state import BoxState, Phase, RoundState, default_meter_path
from shared.madero.table.supervisor import CommunityCase, VoidKind


class MaderoTable(MaderoLegality):
    """A Madero Poker Bonus table: its state, the croupier's and the supervisor's commands,
    its announcements and what is allowed now (one class per part, in that order)."""


__all__ = ["SUPERVISOR_ACTIONS", "Action", "BoxState", "CommunityCase", "MaderoTable", "Phase", "RoundState",
           "VoidKind", "default_meter_path"]
