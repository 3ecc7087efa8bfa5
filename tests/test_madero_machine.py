"""Random command sequences against the Madero engine (hypothesis state machine).

Invariants: money is conserved (every chip bet is returned or collected, the books
balance, a round's settlement covers exactly the chips on its boxes); no card appears
twice in a round; a refused command leaves state and journal unchanged; replaying the
journal gives the same state; an action ``legal_actions()`` lists is accepted, one it does
not list is refused (one path from rule to key).
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
from decimal import Decimal
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from shared.cards import FULL_DECK
from shared.codec import encode
from shared.commands import can
from shared.errors import ConsoleError
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.settlement import Bet
from shared.madero.table import Action, MaderoTable, Phase
from shared.madero.table.events import CODEC
from tests.command_checks import assert_declared_as_accepted
from tests.engine_state import engine_state
from tests.madero_helpers import CRO, SUP, SUP2, live_table, restored, training_table
from tests.test_report_common import assert_one_round_closed

BOXES = st.integers(min_value=1, max_value=8)
AMOUNTS = st.sampled_from(["0", "1", "2", "5", "6", "10", "15", "20", "100", "101", "500", "501", "10.5"])
CARDS = st.sampled_from(FULL_DECK)
PROG = MaderoTableConfig.from_mapping(dict(table_id="MPB-09", minimum=10, maximum=500, jackpot_mode="progressive",
                         contribution_percent=10))
_counter = itertools.count()


class MaderoMachine(RuleBasedStateMachine):
    training = True
    config = DEFAULT_MADERO_TABLE

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="madero-sm-"))
        name = f"t{next(_counter)}.sqlite"
        if self.training:
            self.t = training_table(self.dir, self.config, seed=next(_counter), name=name)
        else:
            self.t = live_table(self.dir, self.config, name=name)

    def teardown(self) -> None:
        self.t.journal.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    # --- the check around every command -----------------------------------------------------

    def attempt(self, fn, *args) -> bool:
        t = self.t
        before_state, before_hash, before_seq = t.snapshot_state(), t.state_hash(), t.journal.last_seq
        expected_stake = None
        if fn == t.play.confirm_settlement or fn == t.supervisor.void_round:
            expected_stake = sum((b.staked(self.config.jackpot_credit_value) for b in t.boxes.values()), Decimal(0))
            books_before = dict(t.books)
        try:
            fn(*args)
        except ConsoleError:
            assert t.snapshot_state() == before_state and t.state_hash() == before_hash
            assert t.journal.last_seq == before_seq
            return False
        assert t.journal.last_seq > before_seq
        if expected_stake is not None:
            s = t.last_settlement
            assert s.staked == expected_stake == t.books["staked"] - books_before["staked"]
            assert s.returned + s.collected == s.staked
            assert t.books["paid"] - books_before["paid"] == s.paid
        return True

    # --- croupier commands ------------------------------------------------------------------------

    @rule(box=BOXES, bet=st.sampled_from(list(Bet)), amount=AMOUNTS)
    def place_bet(self, box, bet, amount):
        self.attempt(self.t.play.place_bet, box, bet, amount)

    @rule(box=st.integers(min_value=1, max_value=7), ante=st.sampled_from(["10", "20", "100"]),
          bonus=st.sampled_from(["0", "5", "100"]), credits=st.integers(min_value=0, max_value=5))
    def valid_bets(self, box, ante, bonus, credits):
        self.attempt(self.t.play.place_bet, box, Bet.ANTE, ante)
        if bonus != "0":
            self.attempt(self.t.play.place_bet, box, Bet.BONUS, bonus)
        if credits:
            self.attempt(self.t.play.place_bet, box, Bet.JACKPOT, credits)

    @rule(steps=st.integers(min_value=1, max_value=12), data=st.data())
    def advance(self, steps, data):
        """Play the expected next commands, so that rounds get to the end."""
        t = self.t
        for _ in range(steps):
            phase = t.phase
            if phase is Phase.BETS and can(t.play.verify_no_va_mas):
                ok = self.attempt(t.play.no_va_mas)
            elif t.to_act is not None:
                box = t.to_act
                if phase is Phase.FIRST:
                    fold = data.draw(st.integers(0, 3)) == 0
                    ok = self.attempt(t.play.fold, box) if fold else self.attempt(t.play.voy, box)
                else:
                    ok = self.attempt(t.play.bet if data.draw(st.booleans()) else t.play.check, box)
            elif phase is Phase.SETTLEMENT:
                ok = self.attempt(t.play.confirm_settlement)
            elif t.training and phase in (Phase.FLOP, Phase.TURN, Phase.RIVER):
                ok = self.attempt(t.play.deal)
            elif not t.training and t.expected_card() is not None:
                ok = self.attempt(t.play.key_card, data.draw(st.sampled_from(t.r.deck_pool().unseen())))
            else:
                return
            assert ok, phase

    @rule()
    def repeat_bets(self):
        self.attempt(self.t.play.repeat_bets)

    @rule(boxes=st.lists(BOXES, min_size=1, max_size=3), data=st.data())
    def group(self, boxes, data):
        self.attempt(self.t.play.group_boxes, boxes, data.draw(st.sampled_from(boxes)))

    @rule()
    def no_va_mas(self):
        self.attempt(self.t.play.no_va_mas)

    @rule(action=st.sampled_from(["fold", "voy", "check", "bet"]), other=st.none() | BOXES,
          amount=st.none() | AMOUNTS)
    def decide(self, action, other, amount):
        box = other if other is not None else (self.t.to_act or 1)
        fn = getattr(self.t.play, action)
        if action in ("voy", "bet"):
            self.attempt(fn, box, amount)
        else:
            self.attempt(fn, box)

    @precondition(lambda self: not self.training)
    @rule(card=CARDS, data=st.data())
    def key_card(self, card, data):
        # Mostly unseen cards, sometimes any card (a repeat must be refused).
        if self.t.r is not None and data.draw(st.booleans()):
            unseen = self.t.r.deck_pool().unseen()
            card = data.draw(st.sampled_from(unseen))
        self.attempt(self.t.play.key_card, card)

    @precondition(lambda self: self.training)
    @rule()
    def deal(self):
        self.attempt(self.t.play.deal)

    @rule()
    def confirm(self):
        self.attempt(self.t.play.confirm_settlement)

    @rule()
    def undo(self):
        self.attempt(self.t.undo)

    # --- supervisor commands ----------------------------------------------------------------------

    @rule(kind=st.sampled_from(["misdeal", "bank_card_exposed", "arbitration"]),
          second=st.sampled_from([None, SUP, SUP2]))
    def void_round(self, kind, second):
        began = self.t.betting_began()
        if self.attempt(self.t.supervisor.void_round, SUP, kind, "prueba", second):
            # §37/§70 only during the deal; after it, only two supervisors' arbitration (§38, §73)
            assert began == (kind == "arbitration")
            assert kind != "arbitration" or second is SUP2
            assert self.t.journal.last_event_of("round_voided").payload.get("arbitration", False) == began

    @rule(burns=st.integers(min_value=0, max_value=2))
    def fix_flop_order(self, burns):
        before = (self.t.board, encode(self.t.boxes))
        if self.attempt(self.t.supervisor.fix_flop_order, SUP, burns, "prueba"):
            assert (self.t.board, encode(self.t.boxes)) == before  # §39.2: no change

    @rule(box=BOXES, collusion=st.booleans())
    def box_out(self, box, collusion):
        self.attempt(self.t.supervisor.collusion if collusion else self.t.supervisor.dead_hand, SUP, box, "prueba")

    @rule(case=st.sampled_from(["39.1", "39.2", "39.3", "39.4"]), exposed=st.lists(CARDS, max_size=1))
    def community_error(self, case, exposed):
        self.attempt(self.t.supervisor.community_error, SUP, case, "prueba", exposed)

    @rule(old=CARDS, new=CARDS)
    def correct_card(self, old, new):
        self.attempt(self.t.supervisor.correct_card, SUP, old, new, "prueba")

    @rule(box=BOXES, amount=st.sampled_from(["5", "-5", "0"]))
    def adjust(self, box, amount):
        self.attempt(self.t.supervisor.adjust, SUP, box, amount, "prueba")

    # --- the key bar shows exactly what the engine accepts ------------------------------------------

    def probes(self) -> dict:
        """Each action with arguments that satisfy it whenever it is allowed at all: the box to
        act, an unseen card, the table minimum, a supervisor's signature."""
        t = self.t
        unseen = t.r.deck_pool().unseen() if t.r else list(FULL_DECK)
        known = [*t.board, *t.bank_cards, *(c for b in t.boxes.values() for c in b.cards)]
        in_play = [n for n, b in sorted(t.boxes.items()) if b.in_play and b.status.value == "active"]
        box = t.to_act or (in_play[0] if in_play else 1)

        def community_error():
            cases = [("39.1", []), ("39.2", []), ("39.2", unseen[:1]), ("39.3", []), ("39.4", unseen[:1])]
            for case, exposed in cases[:-1]:
                if can(t.supervisor.verify_community_error, SUP, case, "prueba", exposed):
                    return t.supervisor.community_error(SUP, case, "prueba", exposed)
            return t.supervisor.community_error(SUP, *cases[-1][:1], "prueba", cases[-1][1])

        return {
            Action.PLACE_BET: lambda: t.play.place_bet(1, Bet.ANTE, self.config.minimum),
            Action.REPEAT_BETS: t.play.repeat_bets,
            Action.GROUP_BOXES: lambda: t.play.group_boxes([1], 1),
            Action.NO_VA_MAS: t.play.no_va_mas,
            Action.FOLD: lambda: t.play.fold(box),
            Action.VOY: lambda: t.play.voy(box),
            Action.CHECK: lambda: t.play.check(box),
            Action.BET: lambda: t.play.bet(box),
            Action.KEY_CARD: lambda: t.play.key_card(unseen[0]),
            Action.DEAL: t.play.deal,
            Action.CONFIRM_SETTLEMENT: t.play.confirm_settlement,
            Action.UNDO: t.undo,
            Action.VOID_ROUND: lambda: t.supervisor.void_round(SUP, "misdeal", "prueba"),
            Action.ARBITRATE_VOID: lambda: t.supervisor.void_round(SUP, "arbitration", "prueba", SUP2),
            Action.DEAD_HAND: lambda: t.supervisor.dead_hand(SUP, box, "prueba", SUP2),
            Action.COLLUSION: lambda: t.supervisor.collusion(SUP, box, "prueba", SUP2),
            Action.COMMUNITY_ERROR: community_error,
            Action.FIX_FLOP_ORDER: lambda: t.supervisor.fix_flop_order(SUP, 0, "prueba"),
            Action.CORRECT_CARD: lambda: t.supervisor.correct_card(SUP, "prueba", known[0] if known else unseen[0], unseen[-1], SUP2),
            Action.ADJUST: lambda: t.supervisor.adjust(SUP, 1, "5", "prueba", SUP2),
        }

    @rule(action=st.sampled_from(list(Action)))
    def legal_actions_are_what_the_engine_accepts(self, action):
        """Listed: accepted. Not listed: refused, state and journal unchanged (attempt checks it)."""
        listed = action in self.t.legal_actions()
        assert self.attempt(self.probes()[action]) == listed, (action, self.t.phase, self.t.croupier)

    @precondition(lambda self: not self.training)
    @rule()
    def shift(self):
        """The croupier signs out (between rounds) and in again: with nobody on duty no croupier
        command is legal or accepted."""
        t = self.t
        if t.croupier is None:
            self.attempt(t.shift.open, CRO)
        else:
            self.attempt(t.shift.close, SUP)

    # --- invariants ---------------------------------------------------------------------------------

    @invariant()
    def legal_actions_are_the_command_table_s(self):
        """Every id in legal_actions() passes its probe; no command is accepted outside the phases declared."""
        assert_declared_as_accepted(self.t)

    @invariant()
    def no_card_twice(self):
        if self.t.r is not None:
            seen = self.t.r.seen()
            assert len(seen) == len(set(seen))
            assert len(self.t.board) <= 5 and len(self.t.bank_cards) <= 2

    @invariant()
    def one_round_closed_per_closed_round(self):
        assert_one_round_closed(self.t.journal, CODEC)

    @invariant()
    def books_balance(self):
        b = self.t.books
        assert b["staked"] == b["returned"] + b["collected"]

    @invariant()
    def settlement_is_ready_when_due(self):
        if self.t.phase is Phase.SETTLEMENT:
            s = self.t.carrusel.pending_settlement()
            assert s.returned + s.collected == s.staked

    @invariant()
    def prompt_and_actions_are_defined(self):
        p = self.t.prompt
        assert p.text("es") and p.text("en")
        assert self.t.legal_actions()

    @invariant()
    def replay_gives_the_same_state(self):
        t = self.t
        if t.training:
            again = MaderoTable(t.journal, config=self.config, training=True)
        else:
            again = restored(t.journal.path, self.config)
        assert again.snapshot_state() == t.snapshot_state()
        assert engine_state(again) == engine_state(t)  # nothing of the state left out of the snapshot
        assert again.phase == t.phase and again.to_act == t.to_act


SETTINGS = settings(max_examples=40, stateful_step_count=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


class TrainingMachine(MaderoMachine):
    training = True


class LiveMachine(MaderoMachine):
    training = False


class ProgressiveTrainingMachine(MaderoMachine):
    training = True
    config = PROG


TestTrainingMachine = TrainingMachine.TestCase
TestTrainingMachine.settings = SETTINGS
TestLiveMachine = LiveMachine.TestCase
TestLiveMachine.settings = settings(SETTINGS, max_examples=15)
TestProgressiveTrainingMachine = ProgressiveTrainingMachine.TestCase
TestProgressiveTrainingMachine.settings = settings(SETTINGS, max_examples=20)
