"""The croupier's commands: bets (Art. 6–7, §42, §45, §61, §64), «No va más» and the deal (§24),
the decisions (§26–28), the cards (§27–30), the settlement (§33–36) and undo."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from shared.cards import FULL_DECK, Card
from shared.commands import Authority, cells, command
from shared.desk import Desk
from shared.errors import InputError, RuleViolation
from shared.madero.settlement import Bet, BoxStatus
from shared.madero.table.bets import verify_ante, verify_stake
from shared.madero.table.events import (
    BetPlaced,
    BetsClosed,
    BoxesGrouped,
    CardKeyed,
    CommunityDealt,
    Decision,
    MaderoEvent,
    RoundStarted,
)
from shared.madero.table.state import (
    BETTING_ROUND,
    ROUND_ARTICLE,
    BoxState,
    Phase,
    enum_value,
    need_box,
    need_phase,
)
from shared.messages import Msg
from shared.money import to_money

if TYPE_CHECKING:
    from shared.madero.table import MaderoTable  # noqa: F401 (the desk's table, named as a string)


class MaderoPlay(Desk["MaderoTable"]):
    """The croupier's commands, each ``verify_x`` / ``x``; ``x`` returns the events it recorded."""


    # --- bets (Art. 6–7, §42, §45, §61, §64) ------------------------------------------------------

    def verify_place_bet(self, box: int | None = None, bet: Bet | str | None = None,
                         amount: object = None) -> tuple[Bet, Decimal | int] | None:
        """Bets are open, the box is the table's, the amount fits its bet (Art. 6–7, 11, 13) and a
        croupier is on duty; returns the bet and its amount (a Jackpot's in credits). With all
        three left out: whether some bet can be placed now (None)."""
        need_phase(self.table, (Phase.IDLE, Phase.BETS), "Art. 7 §24",
                         Msg.of("madero.bets_closed"))
        self.table.tray.verify_bets_with_tray()
        if box is None and bet is None and amount is None:
            self.table.signers.croupier()
            return None
        if box is None or not 1 <= box <= self.table.config.boxes:
            raise RuleViolation("Art. 2 §8", Msg.of("madero.table_boxes", boxes=self.table.config.boxes))
        kind = enum_value(Bet, bet)
        current = self.table.r.boxes.get(box) if self.table.r else None
        value = to_money(amount)
        if not value and (current is None or not current.bets().stake(kind, self.table.config.jackpot_credit_value)):
            raise InputError(Msg.of("madero.no_bet_to_remove"))
        stake = verify_stake(self.table.config, kind, value, current)
        self.table.signers.croupier()
        return kind, stake


    def _start(self) -> list[RoundStarted]:
        """The round the first bet opens, with its deck (Art. 2 §7); none while one is open."""
        if self.table.r is not None:
            return []
        number = self.table.round_no + 1
        deck = ("A" if number % 2 else "B") if self.table.config.alternate_decks else "A"
        return [RoundStarted(number, deck)]

    @command("place_bet", cells(Authority.CROUPIER, Phase.IDLE, Phase.BETS), "Art. 7 §24", "mad_key_ante")
    def place_bet(self, box: int, bet: Bet | str, amount: object) -> list[MaderoEvent]:
        """Set (replace) one bet of a box; 0 removes it. Jackpot ``amount`` is in credits."""
        checked = self.verify_place_bet(box, bet, amount)
        assert checked is not None
        bet, value = checked
        return self.table.record_events(self.table.signers.croupier(), *self._start(), BetPlaced(box, bet, Decimal(value)))

    def _repeat_items(self) -> list[BetPlaced]:
        items = []
        for n, bets in sorted(self.table.last_bets.items()):
            if n > self.table.config.boxes:
                continue
            for bet in (Bet.ANTE, Bet.BONUS, Bet.JACKPOT):
                key = "jackpot_credits" if bet is Bet.JACKPOT else bet.value
                value = bets[key]
                if value and Decimal(value):
                    items.append(BetPlaced(n, bet, Decimal(value)))
        return items

    def last_stake(self, box: int, bet: Bet) -> Decimal | None:
        """The box's ``bet`` in the last settled round (Jackpot in credits), None if it had none:
        what the croupier repeats for that box with ``enter`` and nothing typed (``place_bet``
        checks it against today's limits like any amount)."""
        value = self.table.last_bets.get(box, {}).get("jackpot_credits" if bet is Bet.JACKPOT else bet.value)
        return Decimal(value) if value and Decimal(value) else None

    def verify_repeat_bets(self) -> None:
        need_phase(self.table, (Phase.IDLE, Phase.BETS), "Art. 7 §24",
                         Msg.of("madero.bets_closed"))
        self.table.tray.verify_bets_with_tray()
        if not self._repeat_items():
            raise InputError(Msg.of("madero.no_previous_bets_repeat"))
        if self.table.r is not None and any(b.in_play or b.bonus or b.jackpot_credits for b in self.table.r.boxes.values()
                                      if b.number in self.table.last_bets):
            raise InputError(Msg.of("madero.those_boxes_already_have_bets"))
        cfg = self.table.config
        for item in self._repeat_items():
            value = item.amount
            if item.bet is Bet.ANTE:
                verify_ante(self.table.config, value)
            if item.bet is Bet.BONUS and not (cfg.bonus_enabled and cfg.bonus_minimum <= value <= cfg.bonus_maximum):
                raise RuleViolation("Art. 13 §61", Msg.of("madero.previous_bonus_not_valid_now"))
        self.table.signers.croupier()


    @command("repeat_bets", cells(Authority.CROUPIER, Phase.IDLE, Phase.BETS), "Art. 7 §24", "repeat_bets")
    def repeat_bets(self) -> list[MaderoEvent]:
        """Place again the Ante, Bonus and Jackpot of every box of the last settled round."""
        self.verify_repeat_bets()
        return self.table.record_events(self.table.signers.croupier(), *self._start(), *self._repeat_items())

    def verify_group_boxes(self, boxes: list[int] | None = None, seeing: int | None = None) -> None:
        """Before the deal, boxes of the table, the one the player sees among them (§72); left
        out, any boxes."""
        need_phase(self.table, (Phase.IDLE, Phase.BETS), "Art. 14 §72",
                         Msg.of("madero.boxes_grouped_before_deal"))
        if boxes is not None and (seeing not in boxes or any(not 1 <= b <= self.table.config.boxes for b in boxes)
                                  or len(set(boxes)) != len(boxes)):
            raise InputError(Msg.of("madero.group_boxes_invalid"))
        self.table.signers.croupier()


    @command("group_boxes", cells(Authority.CROUPIER, Phase.IDLE, Phase.BETS), "Art. 14 §72", "mad_key_group")
    def group_boxes(self, boxes: list[int], seeing: int) -> list[MaderoEvent]:
        """One player plays ``boxes`` and may look only at ``seeing``'s cards; the rest are
        blind (§72). A single box ungroups it."""
        self.verify_group_boxes(boxes, seeing)
        return self.table.record_events(self.table.signers.croupier(), BoxesGrouped(tuple(sorted(boxes)), seeing))

    # --- no va más and the deal (§24) ----------------------------------------------------------------

    def verify_no_va_mas(self) -> None:
        need_phase(self.table, (Phase.BETS,), "Art. 7 §23", Msg.of("madero.no_bets_to_close"))
        assert self.table.r is not None
        if not any(b.ante > 0 for b in self.table.r.boxes.values()):
            raise RuleViolation("Art. 1 §2", Msg.of("madero.ante_needed_to_deal"))
        self.table.signers.croupier()


    @command("no_va_mas", cells(Authority.CROUPIER, Phase.BETS), "Art. 7 §23", "mad_key_no_va_mas")
    def no_va_mas(self) -> list[MaderoEvent]:
        """Close the bets; draw Carta Mágica and Jugador Afortunado on a progressive table
        (§55–57); in training, deal two cards to each box with an Ante, the bank last."""
        self.verify_no_va_mas()
        actor = self.table.signers.croupier()
        r = self.table.r
        assert r is not None
        draws: dict[str, Any] = {}
        if self.table.config.progressive:
            rng = self.table._draw_rng or self.table._deal_rng  # training: the session's generator
            draws = {"carta_magica": str(rng.choice(FULL_DECK)),
                     "jugador_afortunado": rng.randint(1, self.table.config.boxes)}
        if not self.table.training:
            return self.table.record_events(actor, BetsClosed(**draws))
        cards = r.deck_pool().shuffled_unseen(self.table._deal_rng)
        order = [n for n, b in sorted(r.boxes.items()) if b.in_play]
        # Two rounds of one card each, clockwise, the bank last (§24).
        hole: dict[str, list[str]] = {str(n): [] for n in order}
        bank: list[str] = []
        for _ in range(2):
            for n in order:
                hole[str(n)].append(str(cards.pop()))
            bank.append(str(cards.pop()))
        dealt = {n: tuple(c) for n, c in hole.items()}
        return self.table.record_events(actor, BetsClosed(**draws, hole_cards=dealt, bank=tuple(bank)))

    # --- decisions (§26–28) ---------------------------------------------------------------------------

    def _verify_turn(self, box: int | None, rounds: tuple[int, ...], what: Msg) -> BoxState:
        """Betting round ``rounds`` is on and it is ``box``'s turn (left out: the box to act)."""
        phase = self.table.phase
        if phase not in BETTING_ROUND or BETTING_ROUND[phase] not in rounds:
            article = ROUND_ARTICLE[rounds[0]]
            raise RuleViolation(article, Msg.of("madero.not_due_now", what=what))
        if box is None:
            box = self.table.to_act
            assert box is not None  # a betting round lasts while a box is to act (fold.advance)
        b = need_box(self.table, box)
        if b.status is not BoxStatus.ACTIVE:
            raise RuleViolation("Art. 8 §26.1", Msg.of("madero.box_out_of_the_round", box=box))
        if self.table.to_act != box:
            raise RuleViolation(ROUND_ARTICLE[BETTING_ROUND[phase]],
                                Msg.of("madero.not_your_turn", to_act=self.table.to_act))
        return b

    def verify_fold(self, box: int | None = None) -> None:
        self._verify_turn(box, (1,), Msg.of("madero.what_fold"))
        self.table.signers.croupier()


    @command("fold", cells(Authority.CROUPIER, Phase.FIRST), "Art. 8 §26.1", "mad_key_fold")
    def fold(self, box: int) -> list[MaderoEvent]:
        """«Me retiro»: the Ante goes to the bank, Jackpot and Bonus rights are lost (§26.1, §46, §65)."""
        self.verify_fold(box)
        return self.table.record_events(self.table.signers.croupier(), Decision(box, 1, "fold", Decimal(0)))

    def verify_voy(self, box: int | None = None, amount: object = None) -> Decimal:
        b = self._verify_turn(box, (1,), Msg.of("madero.what_voy"))
        need = 2 * b.ante
        if amount is not None and to_money(amount) != need:
            raise RuleViolation("Art. 8 §26.2", Msg.of("madero.flop_twice_ante", need=need))
        self.table.signers.croupier()
        return need


    @command("voy", cells(Authority.CROUPIER, Phase.FIRST), "Art. 8 §26.2", "mad_key_voy")
    def voy(self, box: int, amount: object = None) -> list[MaderoEvent]:
        """«Voy»: the Flop bet, exactly 2 × Ante (§26.2)."""
        need = self.verify_voy(box, amount)
        return self.table.record_events(self.table.signers.croupier(), Decision(box, 1, "voy", need))

    def verify_check(self, box: int | None = None) -> None:
        self._verify_turn(box, (2, 3), Msg.of("madero.what_check"))
        self.table.signers.croupier()


    @command("check", cells(Authority.CROUPIER, Phase.SECOND, Phase.THIRD), "Art. 8 §27.1, §28.1", "mad_key_check")
    def check(self, box: int) -> list[MaderoEvent]:
        """«Paso»: no Turn/River bet; the croupier puts a marker on the box (§27.1, §28.1)."""
        self.verify_check(box)
        return self.table.record_events(self.table.signers.croupier(), Decision(box, BETTING_ROUND[self.table.phase], "check", Decimal(0)))

    def verify_bet(self, box: int | None = None, amount: object = None) -> Decimal:
        b = self._verify_turn(box, (2, 3), Msg.of("madero.what_bet"))
        name = "Turn" if self.table.phase is Phase.SECOND else "River"
        article = "Art. 8 §27.2" if self.table.phase is Phase.SECOND else "Art. 8 §28.2"
        if amount is not None and to_money(amount) != b.ante:
            raise RuleViolation(article, Msg.of("madero.street_bet_equals_ante", name=name, ante=b.ante))
        self.table.signers.croupier()
        return b.ante


    @command("bet", cells(Authority.CROUPIER, Phase.SECOND, Phase.THIRD), "Art. 8 §27.2, §28.2", "mad_key_turn")
    def bet(self, box: int, amount: object = None) -> list[MaderoEvent]:
        """The Turn (second round) or River (third round) bet: exactly the Ante (§27.2, §28.2)."""
        need = self.verify_bet(box, amount)
        return self.table.record_events(self.table.signers.croupier(), Decision(box, BETTING_ROUND[self.table.phase], "bet", need))

    # --- cards ----------------------------------------------------------------------------------------

    def verify_key_card(self, card: Card | str | None = None) -> Card | None:
        """A live table, a card due (community, bank, box) and not yet seen this round; left
        out, any card."""
        if self.table.training:
            raise RuleViolation("Art. 7 §24", Msg.of("madero.training_console_deals"))
        card = Card.parse(card) if isinstance(card, str) else card
        target = self.table.expected_card()
        if target is None:
            article = {Phase.FIRST: "Art. 8 §27", Phase.SECOND: "Art. 8 §28", Phase.THIRD: "Art. 8 §29"}.get(
                self.table.phase, "Art. 7 §24")
            raise RuleViolation(article, Msg.of("madero.no_card_due"))
        assert self.table.r is not None
        if card is not None:
            self.table.r.deck_pool().verify_take(card)
        self.table.signers.croupier()
        return card


    @command("key_card", cells(Authority.CROUPIER, Phase.FLOP, Phase.TURN, Phase.RIVER, Phase.SHOWDOWN), "Art. 8 §27–30",
             "mad_key_card", training=False)
    def key_card(self, card: Card | str) -> list[MaderoEvent]:
        """A live card as it is turned: the next community card, or at the showdown the
        bank's two cards then each active box's two (§27–30)."""
        checked = self.verify_key_card(card)
        assert checked is not None
        expected = self.table.expected_card()
        assert expected is not None
        target, box = expected
        return self.table.record_events(self.table.signers.croupier(), CardKeyed(str(checked), target, box))

    def verify_deal(self) -> None:
        if not self.table.training:
            raise RuleViolation("Art. 7 §24", Msg.of("madero.live_cards_are_keyed"))
        need_phase(self.table, (Phase.FLOP, Phase.TURN, Phase.RIVER), "Art. 8 §27",
                         Msg.of("madero.no_community_card_due"))
        self.table.signers.croupier()


    @command("deal", cells(Authority.CROUPIER, Phase.FLOP, Phase.TURN, Phase.RIVER), "Art. 8 §27–29", "mad_key_deal",
             live=False)
    def deal(self) -> list[MaderoEvent]:
        """Training: burn one card (unless §39.5 says not to) and turn the street's cards."""
        self.verify_deal()
        r = self.table.r
        assert r is not None
        cards = r.deck_pool().shuffled_unseen(self.table._deal_rng)
        burn = () if r.no_burn_next else (str(cards.pop()),)
        n = 3 if r.phase is Phase.FLOP else 1
        dealt = tuple(str(cards.pop()) for _ in range(n))
        return self.table.record_events(self.table.signers.croupier(), CommunityDealt(r.phase.value, burn, dealt))

    # --- settlement (§33–36) ------------------------------------------------------------------------

    def verify_confirm_settlement(self) -> None:
        need_phase(self.table, (Phase.SETTLEMENT,), "Art. 9 §30",
                         Msg.of("madero.settlement_not_due"))
        self.table.signers.croupier()


    @command("confirm_settlement", cells(Authority.CROUPIER, Phase.SETTLEMENT), "Art. 9 §36", "mad_key_confirm")
    def confirm_settlement(self) -> list[MaderoEvent]:
        """The croupier has paid, collected and returned as shown: the round ends (§36).

        On a progressive table what the table owes the meter is delivered first (the outbox),
        then the settlement is journaled, with the meter reading it was computed from and its
        meter movement, then the movement is applied to the meter (once, by round) with the
        journal's head, all while the meter store is held: the meter only ever holds what the
        journal says (see ``shared.madero.meter``). A meter that cannot be written refuses the
        settlement (MeterUnavailable) unless the round is already journaled: then the round is
        settled and its movement stays owed, delivered at the next read of the meter (the
        header's), before the next settlement, or at the next start. A Carrusel server that
        cannot be reached before the journal entry settles the round on the fixed paytable of
        §48 instead, its contribution owed.

        A round that pays a meter prize (a royal, a straight flush) is settled on the store's
        answer to its claim (``claim_prize``, asked first if it was not: the screen shows the
        amounts only once it has the answer). Returns what it journaled (a prize's claim and
        answer, if asked now, and the settlement); the settlement itself is ``last_settlement``."""
        self.verify_confirm_settlement()
        return self.table.carrusel.settle(self.table.signers.croupier())
