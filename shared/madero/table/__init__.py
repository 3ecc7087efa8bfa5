"""The Madero Poker Bonus table: the whole regulated round as an event-sourced engine.

Round (Resolución 132/2015, Anexo I, Art. 7–9): bets (Ante, Jackpot credits, Bonus) →
"No va más" → deal → first round (voy / me retiro) → flop → second round (Turn or paso)
→ turn card → third round (River or paso) → river card → showdown → settlement →
next round. Each command has ``verify_X`` (raises, changes nothing) and ``X`` (verifies,
journals one event — or a fixed few in one transaction — and applies it with the same
``apply`` used on replay); ``table.can("X")`` asks whether it is allowed now.

The round's state is rebuilt from its own entries (``round_log``): that is how "undo
the last entry" works without ever editing the journal — the undo is an entry too.

Live tables learn the cards as the croupier keys them in (community cards as turned,
the bank's and the active boxes' cards at showdown); a training table deals from its
own shuffled deck, burning where the regulation burns.

One module per part, so a rule is found by its article in one hop: the table is
``state`` (the round, its boxes and what the screens read) and ``fold`` (the fold of the
journal, the table itself); its commands are on its desks: ``commands`` (the croupier's,
``table.play``), ``supervisor`` (irregularities, Art. 10 and 14, ``table.supervisor``) and
``carrusel`` (the meter store's calls, ``table.carrusel``); ``announcements`` says what the
croupier does or says now, ``legality`` names the commands.
"""

from shared.madero.table.carrusel import default_meter_path
from shared.madero.table.fold import MaderoTable
from shared.madero.table.legality import SUPERVISOR_ACTIONS, Action
from shared.madero.table.state import BoxState, Phase, RoundState
from shared.madero.table.supervisor import CommunityCase, VoidKind

__all__ = ["SUPERVISOR_ACTIONS", "Action", "BoxState", "CommunityCase", "MaderoTable", "Phase", "RoundState",
           "VoidKind", "default_meter_path"]
