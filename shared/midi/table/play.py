"""The croupier's desk (``table.play``): the shoe and its burn, the cards, the bets, «No va
más», the settlement, the sabot's hand and the commission tally; each ``verify_x`` says whether
it is allowed now (every argument left out: whatever the arguments), ``x`` records it and
returns the events it recorded."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from shared.cards import FULL_DECK, Card
from shared.commands import Authority, Offer, cells, command
from shared.desk import Desk
from shared.errors import InputError, RuleViolation
from shared.messages import Msg
from shared.midi.payouts import BET_LABEL, BetKind, settle_bets
from shared.midi.table.bets import check_bet
from shared.midi.table.base import MidiBase, sabot_next, verify_shoe_holds, voided_coup
from shared.midi.table.events import (
    BetPlaced,
    BetRemoved,
    BetsRepeated,
    BurnCard,
    Burned,
    CardDealt,
    CommissionCollected,
    CoupSettled,
    CutCardSeen,
    MidiEvent,
    NoVaMas,
    SabotAssigned,
    SabotPassed,
    ShoeEnded,
    ShoeOpened,
)
from shared.midi.table.state import CARDS_BELOW_CUT, KeyedCard, Phase, bets_to_json, order_cards
from shared.money import ZERO, round_down_to_chip, to_money
from shared.actor import Actor
from shared.staff import Credentials


SABOT_FREE = (Phase.NO_SHOE, Phase.BURN, Phase.BETS, Phase.SHOE_END)
"""The phases in which the sabot may change hands (Art. 9 §4)."""


class MidiPlay(Desk[MidiBase]):
    """The croupier's round: what the croupier keys and calls, and the sabot's hand; the
    supervisor's empty sabot too (``declare_exhausted``), as it is the croupier's command signed."""

    def verify_new_shoe(self, order: list[str] | None = None) -> list[str] | None:
        self.table.signers.croupier()
        if self.table.phase not in (Phase.NO_SHOE, Phase.SHOE_END):
            raise RuleViolation("Art. 8 §1", Msg.of("midi.err_shoe_not_finished"))
        if self.table.commission_tally:
            boxes = ", ".join(self.table.spot_label(box) for box in sorted(self.table.commission_tally))
            raise RuleViolation("Art. 5 §3", Msg.of("midi.err_commissions_owed", boxes=boxes))
        if order is None:
            return None
        if not self.table.training:
            raise InputError(Msg.of("midi.err_card_order_exists_training"))
        cards = [Card.parse(t).__str__() for t in order]
        counts = Counter(cards)
        too_many = [c for c, n in counts.items() if n > self.table.config.decks]
        if too_many:
            raise RuleViolation("Art. 2 §1", Msg.of("midi.err_more_cards_than_decks", card=too_many[0],
                                                    decks=self.table.config.decks))
        if len(cards) <= CARDS_BELOW_CUT:
            raise InputError(Msg.of("midi.err_shoe_needs_more_than"))
        return cards

    @command("new_shoe", cells(Authority.CROUPIER, Phase.NO_SHOE, Phase.SHOE_END), "Art. 8 §1", "midi_key_new_shoe")
    def new_shoe(self, order: list[str] | None = None) -> list[MidiEvent]:
        """Art. 8 §1: a new shoe of the table's decks. Training: shuffled by the console (or
        ``order``: a rigged sequence of card texts for drills); live: composition only."""
        cards = self.verify_new_shoe(order)
        if self.table.training and cards is None:
            deck = [str(c) for c in FULL_DECK] * self.table.config.decks
            self.table.rng.shuffle(deck)
            cards = deck
        size = len(cards) if cards is not None else 52 * self.table.config.decks
        text = None if cards is None else "".join(cards)
        opened = ShoeOpened(self.table.shoe_no + 1, self.table.config.decks, size, text)
        return self.table.record_events(self.table.signers.croupier(), opened)

    def verify_key_card(self, token: str) -> KeyedCard:
        """A live card keyed by the croupier: called for by the rules and held by the shoe."""
        if self.table.training:
            raise InputError(Msg.of("midi.err_training_console_deals_deal"))
        self.table.signers.croupier()
        card = KeyedCard.parse(token)
        self._verify_card_called_for()
        verify_shoe_holds(self.table, card.rank)
        return card

    def verify_enter_card(self, token: str | None = None) -> None:
        """A card is called for now; ``token`` (live) is one the shoe holds."""
        if token is not None and not self.table.training:
            self.verify_key_card(token)
            return
        self.table.signers.croupier()
        self._verify_card_called_for()

    def key_card(self, token: str) -> list[MidiEvent]:
        """Live: the croupier keys the card the prompt calls for (rank alone, suit optional)."""
        card = self.verify_key_card(token)
        return self._record_card(card, "keyed")

    def verify_deal(self) -> None:
        if not self.table.training:
            raise InputError(Msg.of("midi.err_live_table_card_keyed"))
        self._verify_card_called_for()

    def deal(self) -> list[MidiEvent]:
        """Training: the console deals the next card of its shuffled shoe."""
        self.verify_deal()
        assert self.table._order is not None
        return self._record_card(KeyedCard.parse(order_cards(self.table._order, self.table._dealt)[0]), "dealt")

    def _record_card(self, card: KeyedCard, source: str) -> list[MidiEvent]:
        called = self.table.card_called_for
        assert called is not None
        kind = BurnCard if called == "burn" else CardDealt
        body = kind(called, card.rank.char, card.suit.value if card.suit else None, source)
        return self.table.record_events(self.table.signers.croupier(), body)

    @command("card", cells(Authority.CROUPIER, Phase.BURN, Phase.CARDS), "Art. 8 §2–5", "midi_key_card")
    def enter_card(self, token: str | None = None) -> list[MidiEvent]:
        """The card the prompt calls for: keyed (live) or dealt by the console (training)."""
        return self.deal() if self.table.training else self.key_card(token if token is not None else "")

    def verify_confirm_burn(self) -> None:
        self.table.signers.croupier()
        if self.table.phase is not Phase.BURN or self.table._burn_card is None:
            raise RuleViolation("Art. 8 §2", Msg.of("midi.err_burn_card_exposed_first"))
        if self.table._dealt + self.table._burn_card.rank.burn_count > self.table._size:
            raise RuleViolation("Art. 9 §3", Msg.of("midi.err_shoe_has_not_enough"))

    @command("burn", cells(Authority.CROUPIER, Phase.BURN), "Art. 8 §2", "midi_key_confirm_burn")
    def confirm_burn(self) -> list[MidiEvent]:
        """Art. 8 §2: the cards the burn card is worth go to the discard (unseen when live)."""
        self.verify_confirm_burn()
        assert self.table._burn_card is not None
        n = self.table._burn_card.rank.burn_count
        burned = None if self.table._order is None else order_cards(self.table._order, self.table._dealt, n)
        return self.table.record_events(self.table.signers.croupier(), Burned(n, None if burned is None else tuple(burned)))

    def _verify_bets_allowed(self) -> None:
        """Bets may be placed or removed now (Art. 9 §1): a croupier on duty, bets open (and
        at a live table the tray open)."""
        self.table.signers.croupier()
        self._verify_bets_open()
        self.table.tray.verify_bets_with_tray()

    def _verify_bets_open(self) -> None:
        if self.table.phase in (Phase.CARDS, Phase.RESULT):
            raise RuleViolation("Art. 9 §1", Msg.of("midi.err_bets_closed"))
        if self.table.phase is not Phase.BETS:
            raise RuleViolation("Art. 8 §2", Msg.of("midi.err_bets_open_after_burn"))

    def verify_place_bet(self, spot: int | None = None, kind: BetKind | str | None = None,
                         amount: object = None) -> tuple[BetKind, Decimal] | None:
        """The bet fits the table; with every argument left out, whether some bet may be placed
        or removed now."""
        self._verify_bets_allowed()
        if spot is None and kind is None and amount is None:
            return None
        self._spot_ok(spot)  # type: ignore[arg-type]  # an absent spot is refused as no spot
        assert spot is not None  # _spot_ok refused it otherwise
        kind = _kind("" if kind is None else kind)
        value = to_money(amount)
        if value == 0:
            raise InputError(Msg.of("midi.err_zero_amount_remove_bet"))
        check_bet(self.table.config, kind, value, self.table.bets.get(spot, {}))
        return kind, value

    @command("bet", cells(Authority.CROUPIER, Phase.BETS), "Art. 9 §1", "midi_key_bet")
    def place_bet(self, spot: int, kind: BetKind | str, amount: object) -> list[MidiEvent]:
        """Set the bet of ``spot`` on ``kind`` to ``amount`` (replacing what was there)."""
        checked = self.verify_place_bet(spot, kind, amount)
        assert checked is not None
        kind, value = checked
        previous = self.table.bets.get(spot, {}).get(kind, ZERO)
        return self.table.record_events(self.table.signers.croupier(), BetPlaced(spot, kind, value, previous))

    def verify_remove_bet(self, spot: int, kind: BetKind | str) -> BetKind:
        self._verify_bets_allowed()
        self._spot_ok(spot)
        kind = _kind(kind)
        if self.table.bets.get(spot, {}).get(kind, ZERO) == 0:
            raise InputError(Msg.of("midi.err_no_bet_to_remove", bet=BET_LABEL[kind], box=self.table.spot_label(spot)))
        return kind

    def remove_bet(self, spot: int, kind: BetKind | str) -> list[MidiEvent]:
        kind = self.verify_remove_bet(spot, kind)
        return self.table.record_events(self.table.signers.croupier(), BetRemoved(spot, kind, self.table.bets[spot][kind]))

    def verify_repeat_last_bets(self, spot: int | None = None) -> dict[int, dict[BetKind, Decimal]]:
        """The previous coup's bets (of one spot, or all) placed again, where nothing is bet yet."""
        self._verify_bets_allowed()
        if spot is not None:
            self._spot_ok(spot)
        source = {s: b for s, b in self.table.last_bets.items() if spot is None or s == spot}
        repeat = {s: dict(b) for s, b in source.items() if not self.table.bets.get(s)}
        if not repeat:
            raise InputError(Msg.of("midi.err_previous_bets_repeat_empty"))
        for bets in repeat.values():
            for kind, amount in bets.items():
                check_bet(self.table.config, kind, amount, {k: v for k, v in bets.items() if k is not kind})
        return repeat

    @command("repeat_bets", cells(Authority.CROUPIER, Phase.BETS), "Art. 9 §1", "repeat_bets")
    def repeat_last_bets(self, spot: int | None = None) -> list[MidiEvent]:
        repeat = self.verify_repeat_last_bets(spot)
        return self.table.record_events(self.table.signers.croupier(), BetsRepeated(bets_to_json(repeat)))

    def verify_no_va_mas(self) -> None:
        self.table.signers.croupier()
        if self.table.phase is not Phase.BETS:
            raise RuleViolation("Art. 8 §3", Msg.of("midi.err_no_va_mas_while_bets_open"))

    @command("no_va_mas", cells(Authority.CROUPIER, Phase.BETS), "Art. 8 §3", "midi_key_no_va_mas")
    def no_va_mas(self) -> list[MidiEvent]:
        """Art. 8 §3, Art. 9 §1: bets close; then «Cartas»."""
        self.verify_no_va_mas()
        t = self.table
        return t.record_events(t.signers.croupier(), NoVaMas(bets_to_json(t.bets), t.sabot_holder, t.reveal_box))

    def verify_settle(self) -> None:
        self.table.signers.croupier()
        if self.table.phase is not Phase.RESULT:
            raise RuleViolation("Art. 8 §6", Msg.of("midi.err_coup_not_finished"))

    @command("settle", cells(Authority.CROUPIER, Phase.RESULT), "Art. 8 §6", "midi_key_settle")
    def settle(self) -> list[MidiEvent]:
        """Art. 8 §6: the croupier pays and collects as ``settlement`` says; ends the shoe after
        the coup during which the cut card appeared (Art. 8 §1)."""
        self.verify_settle()
        result = self.table.result
        assert result is not None
        lines = settle_bets(self.table.bets, result, self.table.config)
        items: list[MidiEvent] = [CoupSettled(result, tuple(c.text for c in self.table.cards), tuple(lines))]
        if self.table._cut_out:
            items.append(ShoeEnded("cut"))
        return self.table.record_events(self.table.signers.croupier(), *items)

    def _verify_coup_needs_card(self) -> None:
        if self.table.phase is not Phase.CARDS or self.table.card_called_for is None:
            raise RuleViolation("Art. 9 §3", Msg.of("midi.err_coup_needs_no_card"))

    def verify_declare_exhausted(self, creds: Credentials | None = None, reason: str | None = None) -> Actor | None:
        """The supervisor declares the shoe exhausted while the count shows cards left (the cut
        card came out early); with no reason, whether they may now."""
        self._verify_coup_needs_card()
        if self.table._size - self.table._dealt <= 0:
            raise InputError(Msg.of("midi.err_count_at_zero"))
        if not self.table._cut_out:
            raise RuleViolation("Art. 8 §1", Msg.of("midi.err_cut_card_has_not"))
        if reason is None:
            return None
        if self.table.training:  # declared live only: the console deals a training shoe, and counts it
            raise InputError(Msg.of("midi.err_training_shoe_counted"))
        return self.table.signers.supervisor(creds, reason)

    @command("declare_exhausted", cells(Authority.SUPERVISOR, Phase.CARDS), "Art. 9 §3", "midi_sup_exhausted",
             offers=(Offer("declare_exhausted", "midi_sup_exhausted"),), training=False)
    def declare_exhausted(self, creds: Credentials | None, reason: str) -> list[MidiEvent]:
        """The supervisor's empty sabot while the count shows cards left (``shoe_exhausted``)."""
        return self.shoe_exhausted(creds, reason)

    def verify_shoe_exhausted(self, creds: Credentials | None = None, reason: str = "") -> Actor:
        """The croupier declares it when the count is at zero; while the count shows cards
        left, only a supervisor may, with a reason (a correctly cut shoe cannot run out)."""
        self._verify_coup_needs_card()
        left = self.table._size - self.table._dealt
        if left <= 0:
            return self.table.signers.croupier()
        if creds is None:
            self.verify_declare_exhausted()  # its refusals first: the cut card has not come out
            raise RuleViolation("Art. 9 §3", Msg.of("midi.err_supervisor_declares_exhausted", left=left))
        actor = self.verify_declare_exhausted(creds, reason)
        assert actor is not None  # a reason given: the supervisor's signature
        return actor

    @command("shoe_exhausted", cells(Authority.CROUPIER, Phase.CARDS), "Art. 9 §3", "midi_key_exhausted")
    def shoe_exhausted(self, creds: Credentials | None = None, reason: str = "") -> list[MidiEvent]:
        """Art. 9 §3: the sabot ran out before the coup was finished: NULO, every bet returned,
        and the shoe ends. ``creds`` and ``reason``: the supervisor's, needed while the count
        shows cards left."""
        actor = self.verify_shoe_exhausted(creds, reason)
        note = reason.strip() if creds is not None else "sabot vacío / shoe empty"
        return self.table.record_events(actor, voided_coup(self.table, note, "shoe_exhausted"), ShoeEnded("exhausted"))

    def verify_cut_card_seen(self) -> None:
        if self.table.training:
            raise InputError(Msg.of("midi.err_training_console_knows_where"))
        self.table.signers.croupier()
        if self.table.phase is not Phase.CARDS or self.table._cut_out:
            raise RuleViolation("Art. 8 §1", Msg.of("midi.err_cut_card_signalled_when"))

    @command("cut_card", cells(Authority.CROUPIER, Phase.CARDS), "Art. 8 §1", "midi_key_cut_card", training=False)
    def cut_card_seen(self) -> list[MidiEvent]:
        """Live: the cut card came out of the sabot during this coup although the count had not
        reached it (a miscounted shoe): this coup is the last (Art. 8 §1)."""
        self.verify_cut_card_seen()
        return self.table.record_events(self.table.signers.croupier(), CutCardSeen(self.table._dealt, self.table._size))

    def verify_assign_sabot(self, box: int | None = None) -> None:
        """Nobody holds the sabot and it may change hands now; ``box`` (left out: any) may take it."""
        self.table.signers.croupier()
        if self.table.phase not in SABOT_FREE:
            raise RuleViolation("Art. 9 §4", Msg.of("midi.err_sabot_changes_hands_between"))
        if self.table.sabot_holder is not None:
            raise RuleViolation("Art. 9 §4", Msg.of("midi.err_sabot_already_has_holder"))
        if box is None:
            return
        if not isinstance(box, int) or isinstance(box, bool) or not 1 <= box <= self.table.config.boxes:
            raise RuleViolation("Art. 9 §2", Msg.of("midi.err_sabot_seated_only", boxes=self.table.config.boxes))
        passed = self.table._sabot_passed
        if box in passed:
            waiting = ", ".join(str(b) for b in range(1, self.table.config.boxes + 1) if b not in passed)
            raise RuleViolation("Art. 9 §4", Msg.of("midi.err_box_already_dealt", box=box, waiting=waiting))

    @command("assign_sabot", cells(Authority.CROUPIER, *SABOT_FREE), "Art. 9 §4", "midi_key_sabot")
    def assign_sabot(self, box: int) -> list[MidiEvent]:
        """Give the sabot to a seated box when nobody holds it (the croupier was dealing)."""
        self.verify_assign_sabot(box)
        return self.table.record_events(self.table.signers.croupier(), SabotAssigned(box))

    def verify_pass_sabot(self) -> int:
        self.table.signers.croupier()
        if self.table.phase not in SABOT_FREE:
            raise RuleViolation("Art. 9 §4", Msg.of("midi.err_sabot_changes_hands_between"))
        if self.table.sabot_holder is None:
            raise InputError(Msg.of("midi.err_nobody_holds_sabot"))
        if self.table.supervisor_dealing:
            raise RuleViolation("Art. 9 §5", Msg.of("midi.err_supervisor_deals_sabot_passes"))
        return sabot_next(self.table, self.table.sabot_holder)

    @command("pass_sabot", cells(Authority.CROUPIER, *SABOT_FREE), "Art. 9 §4", "midi_key_sabot")
    def pass_sabot(self, *, release: bool = False) -> list[MidiEvent]:
        """The holder declines or leaves: the sabot goes to the next box on the right that has
        not had it in this round (Art. 9 §4); ``release=True``: no seated player takes it, the
        croupier deals."""
        to = self.verify_pass_sabot()
        passed = SabotPassed(self.table.sabot_holder, None if release else to)
        return self.table.record_events(self.table.signers.croupier(), passed)

    def verify_collect_commission(self, box: int | None = None) -> dict[int, Decimal]:
        """The tallies to collect: one box's (the player leaves) or every box's (end of shoe)."""
        self.table.signers.croupier()
        if box is not None:
            self._spot_ok(box)
        owed = {b: v for b, v in self.table.commission_tally.items() if box is None or b == box}
        if not owed:
            if box is None:
                raise InputError(Msg.of("midi.err_no_commission_owed"))
            raise InputError(Msg.of("midi.err_no_commission_owed_box", box=self.table.spot_label(box)))
        return owed

    @command("collect_commission", cells(Authority.CROUPIER, *Phase), "Art. 3 §2, Art. 5 §3", "midi_key_collect")
    def collect_commission(self, box: int | None = None) -> list[MidiEvent]:
        """Art. 3 §2, Art. 5 §3: the croupier collects the commission tally of ``box`` (or of
        every box), rounded down to the chip: the only rounding of the 5 %, in the player's favour."""
        owed = self.verify_collect_commission(box)
        boxes = {str(b): {"tally": str(v), "collected": str(round_down_to_chip(v, self.table.config.chip))}
                 for b, v in sorted(owed.items())}
        return self.table.record_events(self.table.signers.croupier(), CommissionCollected(boxes))

    def _verify_card_called_for(self) -> None:
        if self.table.card_called_for is not None:
            if self.table._dealt >= self.table._size:
                raise RuleViolation("Art. 9 §3", Msg.of("midi.err_shoe_empty_nulo"))
            return
        if self.table.phase is Phase.BETS:
            raise RuleViolation("Art. 8 §3", Msg.of("midi.err_cards_dealt_after_va"))
        if self.table.phase in (Phase.CARDS, Phase.RESULT):
            # A natural ends the coup (Art. 6 §2); otherwise BANCA's third-card table did.
            result = self.table.result
            article = "Art. 6 §2" if result is not None and result.natural else "Art. 6, tercera carta §2"
            raise RuleViolation(article, Msg.of("midi.err_further_card_called_for"))
        if self.table.phase is Phase.BURN:
            raise RuleViolation("Art. 8 §2", Msg.of("midi.err_burn_card_already_exposed"))
        raise RuleViolation("Art. 8 §1", Msg.of("midi.err_no_shoe_in_play"))

    def _spot_ok(self, spot: int) -> None:
        if not isinstance(spot, int) or isinstance(spot, bool) or spot not in self.table.spots:
            config = self.table.config
            if config.standing_bettors:
                raise RuleViolation("Art. 4 §1", Msg.of("midi.err_no_such_spot", spot=spot, boxes=config.boxes,
                                                        standing=config.standing_bettors))
            raise RuleViolation("Art. 2 §5", Msg.of("midi.err_no_such_box", spot=spot, boxes=config.boxes))


def _kind(kind: BetKind | str) -> BetKind:
    try:
        return BetKind(kind)
    except ValueError:
        raise InputError(Msg.of("midi.err_unknown_bet", kind=repr(kind))) from None
