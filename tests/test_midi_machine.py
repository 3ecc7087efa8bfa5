"""Hypothesis state machines over the Midi engine: whatever the croupier and supervisor do,
money is conserved, the shoe's composition is never exceeded, a refused command changes
neither the state nor the journal, and replaying the journal gives the same state."""

import random
from decimal import Decimal

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from shared.cards import Rank
from shared.errors import ConsoleError
from shared.journal import Journal
from shared.midi.payouts import Outcome
from shared.midi.table import Action, MidiTable, Phase
from shared.staff import Credentials
from tests.command_checks import assert_declared_as_accepted
from shared.midi.table.events import MIDI_CODEC
from tests.engine_state import engine_state
from tests.midi_helpers import CROUPIER, SUPERVISOR, SUPERVISOR2, live_table, table_config
from tests.test_report_common import assert_one_round_closed

RANKS = [r.char for r in Rank]
AMOUNTS = [Decimal(x) for x in ("5", "10", "15", "20", "25", "40", "99", "100", "101", "250", "1000", "1001", "12.5")]
KINDS = ["punto", "banca", "tie"]
SPOTS = st.integers(min_value=0, max_value=11)
# A wrong PIN for an unknown ID: a wrong PIN for sup1 would lock the account for the rest of the run.
CREDS = st.sampled_from([SUPERVISOR, SUPERVISOR, SUPERVISOR, CROUPIER, Credentials("nobody", "0000"), None])


class FullReplay(MidiTable):
    # A snapshot version no snapshot has: the base then folds the whole journal from seq 1.
    snapshot_version = -1


class MidiMachine(RuleBasedStateMachine):
    training = False

    def make_table(self, data):
        config = table_config(banca_mode=data.draw(st.sampled_from(["half-six", "commission"])),
                              commission_handling=data.draw(st.sampled_from(["tally", "deduct"])),
                              standing_bettors=data.draw(st.integers(0, 2)),
                              multiples_of_minimum=data.draw(st.booleans()))
        return live_table(config, staff=True)

    @initialize(data=st.data())
    def start(self, data):
        self.table = self.make_table(data)
        self.steps = 0
        self.tally: dict[int, Decimal] = {}  # the commission each box owes, kept apart from the engine

    def attempt(self, fn, *args, action=None, exact=False, **kwargs):
        """Run a command; a refusal must leave state untouched and journal nothing but a failed
        PIN attempt (shared.staff journals those). ``action``: the command's Action — one that
        ``legal_actions()`` does not list is refused; ``exact``: one it lists is not refused
        either (the command takes no argument that could be wrong by itself)."""
        t = self.table
        before, seq = t.state_hash(), t.journal.last_seq
        bets_before = {s: dict(b) for s, b in t.bets.items()}
        settled_before = len(t.history)
        legal = action is None or action in t.legal_actions()
        try:
            fn(*args, **kwargs)
        except ConsoleError as refusal:
            assert t.state_hash() == before
            assert {e.type for e in t.journal.events(after=seq)} <= {"pin_failed", "account_locked"}
            assert not (exact and legal), f"{action} is legal but refused: {refusal}"
            return False
        assert legal, f"{action} is not legal but was accepted"
        assert t.journal.last_seq > seq
        if len(t.history) > settled_before:
            self.check_money(bets_before, t.last_settlement, t.history[-1].result)
        for event in t.journal.events(after=seq):
            if event.type == "commission_collected":
                for box, owed in event.payload["boxes"].items():
                    tally, collected = Decimal(owed["tally"]), Decimal(owed["collected"])
                    # Collected exactly what was owed, rounded down by less than a chip (the player's favour).
                    assert tally == self.tally.pop(int(box)) and 0 <= tally - collected < t.config.chip
        return True

    def check_money(self, bets, lines, result):
        # Every chip on the layout is returned or collected, exactly once.
        staked = {(s, k): v for s, b in bets.items() for k, v in b.items()}
        assert {(l.spot, l.kind): l.stake for l in lines} == staked
        chip = self.table.config.chip
        for line in lines:
            assert line.returned + line.collected == line.stake
            # Exactly the regulation (Art. 5 §2–3), in whole chips.
            assert line.paid - line.commission == line.exact and line.paid % chip == 0
            if line.commission:
                self.tally[line.spot] = self.tally.get(line.spot, Decimal(0)) + line.commission
                assert line.paid == line.stake and line.commission == line.stake * Decimal("0.05")
            if result is None:
                assert line.outcome is Outcome.VOID
            elif line.outcome is Outcome.WIN:
                assert line.kind.value == result.winner.value

    # ---- croupier
    @rule()
    def new_shoe(self):
        self.attempt(self.table.play.new_shoe, action=Action.NEW_SHOE, exact=True)

    @rule(rank=st.sampled_from(RANKS))
    def card(self, rank):
        if self.training:
            self.attempt(self.table.play.deal, action=Action.CARD, exact=True)
        else:
            self.attempt(self.table.play.key_card, rank, action=Action.CARD)

    @rule()
    def burn(self):
        self.attempt(self.table.play.confirm_burn, action=Action.BURN, exact=True)

    @rule(spot=SPOTS, kind=st.sampled_from(KINDS), amount=st.sampled_from(AMOUNTS))
    def bet(self, spot, kind, amount):
        self.attempt(self.table.play.place_bet, spot, kind, amount, action=Action.BET)

    @rule(spot=SPOTS, kind=st.sampled_from(KINDS))
    def remove(self, spot, kind):
        self.attempt(self.table.play.remove_bet, spot, kind, action=Action.BET)

    @rule(spot=st.none() | SPOTS)
    def repeat(self, spot):
        self.attempt(self.table.play.repeat_last_bets, spot, action=Action.REPEAT_BETS, exact=spot is None)

    @rule()
    def no_va_mas(self):
        self.attempt(self.table.play.no_va_mas, action=Action.NO_VA_MAS, exact=True)

    @rule()
    def settle(self):
        self.attempt(self.table.play.settle, action=Action.SETTLE, exact=True)

    @rule()
    def undo(self):
        self.attempt(self.table.undo, action=Action.UNDO, exact=True)

    @rule()
    def exhausted(self):
        self.attempt(self.table.play.shoe_exhausted, action=Action.SHOE_EXHAUSTED, exact=True)

    @rule(box=st.none() | SPOTS)
    def collect_commission(self, box):
        self.attempt(self.table.play.collect_commission, box, action=Action.COLLECT_COMMISSION, exact=box is None)

    @rule()
    def cut_card_seen(self):
        self.attempt(self.table.play.cut_card_seen, action=Action.CUT_CARD, exact=True)

    @rule(box=SPOTS)
    def assign_sabot(self, box):
        self.attempt(self.table.play.assign_sabot, box, action=Action.ASSIGN_SABOT)

    @rule(release=st.booleans())
    def pass_sabot(self, release):
        self.attempt(self.table.play.pass_sabot, release=release, action=Action.PASS_SABOT, exact=True)

    @rule(n=st.integers(min_value=1, max_value=12), data=st.data())
    def advance(self, n, data):
        self.flow(n, data)

    def flow(self, n, data):
        """What a croupier does next, ``n`` times: the step the prompt names, with a few bets."""
        t = self.table
        for _ in range(n):
            phase, called = t.phase, t.card_called_for
            if called is not None:
                if self.training:
                    self.attempt(t.play.deal, action=Action.CARD, exact=True)
                else:
                    ranks = [r.char for r in Rank for _ in range(t.shoe.left[r])]
                    if not ranks or t.shoe.cards_left == 0:
                        return
                    self.attempt(t.play.key_card, data.draw(st.sampled_from(ranks)))
            elif phase is Phase.BURN:
                self.attempt(t.play.confirm_burn, action=Action.BURN, exact=True)
            elif phase is Phase.BETS:
                for _ in range(data.draw(st.integers(0, 3))):
                    spot = data.draw(st.sampled_from(t.spots))
                    amount = data.draw(st.sampled_from([Decimal(10), Decimal(15), Decimal(40), Decimal(100)]))
                    self.attempt(t.play.place_bet, spot, data.draw(st.sampled_from(KINDS)), amount)
                self.attempt(t.play.no_va_mas, action=Action.NO_VA_MAS, exact=True)
            elif phase is Phase.RESULT:
                self.attempt(t.play.settle, action=Action.SETTLE, exact=True)
            else:
                if t.commission_tally:
                    self.attempt(t.play.collect_commission, action=Action.COLLECT_COMMISSION, exact=True)
                self.attempt(t.play.new_shoe, action=Action.NEW_SHOE, exact=True)

    # The croupier's natural flow is most of what happens at a table: weigh it up.
    @rule(n=st.integers(min_value=4, max_value=30), data=st.data())
    def advance_more(self, n, data):
        self.flow(n, data)

    @rule(n=st.integers(min_value=4, max_value=30), data=st.data())
    def advance_again(self, n, data):
        self.flow(n, data)

    # ---- supervisor (rarer: each PIN check is a slow scrypt)
    @rule(creds=CREDS, data=st.data())
    def supervisor(self, creds, data):
        t = self.table
        command = data.draw(st.sampled_from(["void", "correct", "end", "deals", "exhausted"]))
        reason = data.draw(st.sampled_from(["motivo", "motivo", ""]))
        if command == "void":
            self.attempt(t.supervisor.void_coup, creds, reason, action=Action.VOID_COUP)
        elif command == "correct":
            self.attempt(t.supervisor.correct_card, creds, reason, data.draw(st.integers(0, 6)), data.draw(st.sampled_from(RANKS)),
                         action=Action.CORRECT_CARD)
        elif command == "end":
            self.attempt(t.supervisor.end_shoe, creds, reason, action=Action.END_SHOE)
        elif command == "exhausted" and creds is None:
            self.attempt(t.play.shoe_exhausted, creds, reason, action=Action.SHOE_EXHAUSTED)
        elif command == "exhausted":
            # With credentials: the supervisor's declaration, or the croupier's when the count is at zero.
            either = Action.DECLARE_EXHAUSTED if t.shoe and t.shoe.cards_left else Action.SHOE_EXHAUSTED
            self.attempt(t.play.shoe_exhausted, creds, reason, action=either)
        else:
            self.attempt(t.supervisor.supervisor_deals, creds, reason, action=Action.SUPERVISOR_DEALS)

    @rule(data=st.data())
    def supervisor_when_legal(self, data):
        """A supervisor command ``legal_actions()`` lists goes through with a supervisor's PIN and a reason."""
        t = self.table
        commands = {Action.VOID_COUP: lambda c, r: t.supervisor.void_coup(c, r, SUPERVISOR2),
                    Action.END_SHOE: lambda c, r: t.supervisor.end_shoe(c, r, SUPERVISOR2),
                    Action.SUPERVISOR_DEALS: t.supervisor.supervisor_deals, Action.DECLARE_EXHAUSTED: t.play.shoe_exhausted}
        legal = sorted(a for a in commands if a in t.legal_actions())
        if legal:
            action = data.draw(st.sampled_from(legal))
            self.attempt(commands[action], SUPERVISOR, "motivo", action=action, exact=True)

    @rule(index=st.integers(0, 5), rank=st.sampled_from(RANKS))
    def correct_card(self, index, rank):
        self.attempt(self.table.supervisor.correct_card, SUPERVISOR, "tecleo", index, rank, SUPERVISOR2,
                     action=Action.CORRECT_CARD)

    # ---- the key bar shows exactly what the engine accepts
    def probes(self) -> dict:
        """Each action with arguments that satisfy it whenever it is allowed at all: a rank the
        shoe still holds, the table minimum on PUNTO, the first box that has not had the sabot
        this round (Art. 9 §4), the last card keyed again as it is, a supervisor's signature
        and a reason."""
        t = self.table
        held = [r.char for r in Rank if t.shoe is not None and t.shoe.left[r] > 0] or ["A"]
        last = (len(t.cards) - 1, t.cards[-1].text) if t.cards else (0, "A")
        waiting = next(box for box in range(1, t.config.boxes + 1) if box not in t.sabot_passed)
        return {
            Action.NEW_SHOE: t.play.new_shoe,
            Action.CARD: t.play.deal if self.training else lambda: t.play.key_card(held[0]),
            Action.BURN: t.play.confirm_burn,
            Action.BET: lambda: t.play.place_bet(1, "punto", t.config.minimum),
            Action.REPEAT_BETS: t.play.repeat_last_bets,
            Action.NO_VA_MAS: t.play.no_va_mas,
            Action.SETTLE: t.play.settle,
            Action.UNDO: t.undo,
            Action.SHOE_EXHAUSTED: t.play.shoe_exhausted,
            Action.CUT_CARD: t.play.cut_card_seen,
            Action.ASSIGN_SABOT: lambda: t.play.assign_sabot(waiting),
            Action.PASS_SABOT: t.play.pass_sabot,
            Action.COLLECT_COMMISSION: t.play.collect_commission,
            Action.VOID_COUP: lambda: t.supervisor.void_coup(SUPERVISOR, "motivo", SUPERVISOR2),
            Action.CORRECT_CARD: lambda: t.supervisor.correct_card(SUPERVISOR, "tecleo", *last, SUPERVISOR2),
            Action.END_SHOE: lambda: t.supervisor.end_shoe(SUPERVISOR, "motivo", SUPERVISOR2),
            Action.SUPERVISOR_DEALS: lambda: t.supervisor.supervisor_deals(SUPERVISOR, "motivo"),
            Action.DECLARE_EXHAUSTED: lambda: t.play.shoe_exhausted(SUPERVISOR, "motivo"),
        }

    @rule(action=st.sampled_from(list(Action)))
    def legal_actions_are_what_the_engine_accepts(self, action):
        """Listed: accepted. Not listed: refused, state and journal unchanged (attempt checks it)."""
        listed = action in self.table.legal_actions()
        assert self.attempt(self.probes()[action]) == listed, (action, self.table.phase)

    # ---- invariants
    @invariant()
    def legal_actions_are_the_command_table_s(self):
        """Every id in legal_actions() passes its probe; no command is accepted outside the phases declared."""
        assert_declared_as_accepted(self.table)

    @invariant()
    def one_round_closed_per_closed_round(self):
        assert_one_round_closed(self.table.journal, MIDI_CODEC)

    @invariant()
    def composition_never_exceeded(self):
        t = self.table
        shoe = t.shoe
        if shoe is None:
            return
        per_rank = 4 * shoe.decks
        assert all(0 <= n <= per_rank for n in shoe.left.values())
        taken = sum(per_rank - n for n in shoe.left.values())
        unseen_burn = shoe.burned if (shoe.burned and not shoe.virtual) else 0
        assert taken + unseen_burn == shoe.dealt <= shoe.size

    @invariant()
    def legal_actions_agree_with_the_phase(self):
        t = self.table
        legal = t.legal_actions()
        prompt = t.prompt
        assert prompt.card_for == t.card_called_for and prompt.text("es") and prompt.text("en")
        assert (Action.CARD in legal) == (t.card_called_for is not None and t.shoe.cards_left > 0)
        assert (Action.SETTLE in legal) == (t.phase is Phase.RESULT) == (t.settlement is not None)
        assert (Action.BET in legal) == (t.phase is Phase.BETS)
        assert (Action.NEW_SHOE in legal) == (t.phase in (Phase.NO_SHOE, Phase.SHOE_END) and not t.commission_tally)
        assert (Action.COLLECT_COMMISSION in legal) == bool(t.commission_tally)
        assert (Action.SHOE_EXHAUSTED in legal) == (t.card_called_for is not None and t.shoe.cards_left == 0)

    @invariant()
    def commission_tally_is_what_the_settlements_sent_less_what_was_collected(self):
        assert self.table.commission_tally == {box: v for box, v in self.tally.items() if v}

    @invariant()
    def the_sabot_never_returns_to_a_box_before_its_round_is_over(self):
        t = self.table
        assert t.sabot_holder is None or t.sabot_holder not in t.sabot_passed  # Art. 9 §4
        assert len(t.sabot_passed) < t.config.boxes

    @invariant()
    def replay_gives_the_same_state(self):
        self.steps += 1
        if self.steps % 8:
            return
        t = self.table
        again = MidiTable(t.journal, t.staff, config=t.config, training=t.training)
        assert again.state_hash() == t.state_hash()
        assert engine_state(again) == engine_state(t)  # nothing of the state left out of the snapshot

    def teardown(self):
        t = getattr(self, "table", None)
        if t is not None:
            again = MidiTable(t.journal, t.staff, config=t.config, training=t.training)
            assert again.state_hash() == t.state_hash()
            # And from the very first event, ignoring every snapshot.
            scratch = FullReplay(t.journal, t.staff, config=t.config, training=t.training)
            assert scratch.snapshot_state() == t.snapshot_state() and scratch.croupier == t.croupier
            assert t.journal.verify().ok


class TrainingMidiMachine(MidiMachine):
    """Short rigged shoes, so the cut card, the shoe's end and new shoes come up often."""

    training = True

    def make_table(self, data):
        config = table_config(decks=6, banca_mode=data.draw(st.sampled_from(["half-six", "commission"])),
                              commission_handling=data.draw(st.sampled_from(["tally", "deduct"])))
        journal = Journal(":memory:", config.table_id, "midi", training=True)
        table = MidiTable(journal, config=config, training=True, seed=1)
        self.rng = random.Random(data.draw(st.integers(0, 10**6)))
        return table

    @rule(size=st.integers(min_value=9, max_value=60))
    def rigged_shoe(self, size):
        deck = [r + s for r in "23456789TJQKA" for s in "shdc"] * 6
        self.rng.shuffle(deck)
        self.attempt(self.table.play.new_shoe, deck[:size], action=Action.NEW_SHOE)


SETTINGS = settings(max_examples=40, stateful_step_count=50, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TestMidiMachine = MidiMachine.TestCase
TestMidiMachine.settings = SETTINGS
TestTrainingMidiMachine = TrainingMidiMachine.TestCase
TestTrainingMidiMachine.settings = SETTINGS
