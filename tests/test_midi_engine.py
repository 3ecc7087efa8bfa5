"""The Midi table engine on rigged and keyed shoes: every phase, prompt, limit and payout."""

import random
from decimal import Decimal

import pytest

from shared.baccarat import Winner
from shared.cards import Rank
from shared.errors import AuthError, InputError, RuleViolation
from shared.journal import Journal
from shared.midi.payouts import BetKind, Outcome
from shared.midi.table import Action, MidiTable, Phase
from shared.midi.table.events import MIDI_CODEC, CommissionCollected, recall
from tests.midi_helpers import (
    CROUPIER,
    OPENING,
    SUPERVISOR,
    SUPERVISOR2,
    advance_to,
    coup_of_size,
    live_table,
    open_live_shoe,
    play_coup,
    table_config,
    training_table,
)
from shared.commands import can


def unchanged(table, fn, *args, error=RuleViolation, article=None):
    """The command is refused and neither the state nor the journal change."""
    before, seq = table.state_hash(), table.journal.last_seq
    with pytest.raises(error) as err:
        fn(*args)
    assert table.state_hash() == before and table.journal.last_seq == seq
    if article is not None:
        assert err.value.article == article
    return err.value


# --------------------------------------------------------------------------- coup flow


def test_a_live_coup_step_by_step_with_its_announcements():
    t = live_table()
    assert t.phase is Phase.NO_SHOE and t.legal_actions() >= {Action.NEW_SHOE}
    t.play.new_shoe()
    assert t.prompt.card_for == "burn" and "Quema" in t.prompt.text("es")
    t.play.key_card("Q")  # burns 10 (Art. 8 §2)
    assert t.prompt.text("es").startswith("Quemar 10 cartas") and t.legal_actions() >= {Action.BURN}
    t.play.confirm_burn()
    assert t.shoe.dealt == 11 and t.shoe.burned == 10 and t.shoe.left[Rank.QUEEN] == 31
    assert t.phase is Phase.BETS and t.prompt.text("es").startswith("Hagan sus apuestas")
    t.play.place_bet(4, "punto", 200)
    t.play.place_bet(2, "punto", 200)
    t.play.place_bet(7, "banca", 300)
    t.play.no_va_mas()
    assert t.prompt.text("es") == "Cartas · Cartas del PUNTO al casillero 2 · carta 1: PUNTO"
    assert t.prompt.text("en").startswith("Cards · PUNTO's cards to box 2")
    assert t.card_called_for == "punto"
    steps = [
        ("K", "banca", "carta 2: BANCA"),
        ("3", "punto", "carta 3: PUNTO"),
        ("K", "banca", "carta 4: BANCA"),
        ("3", "punto", "PUNTO 0 · BANCA 6 · Carta para el PUNTO"),
        ("5", None, "PUNTO 5 · La BANCA se planta con 6 · Gana la BANCA con 6: se paga el 50 %"),
    ]
    for card, called, text in steps:
        t.play.key_card(card)
        assert (t.card_called_for, t.prompt.text("es")) == (called, text)
    assert t.phase is Phase.RESULT
    assert t.prompt.text("en").endswith("BANCA wins with 6: pays 50 %")
    assert t.legal_actions() >= {Action.SETTLE}
    assert Action.CARD not in t.legal_actions()
    unchanged(t, t.play.key_card, "5", article="Art. 6, tercera carta §2")  # BANCA's table ended it, not a natural
    lines = {(l.spot, l.kind): l for l in t.settlement}
    assert lines[(7, BetKind.BANCA)].paid == Decimal(150) and lines[(7, BetKind.BANCA)].outcome is Outcome.WIN
    assert lines[(2, BetKind.PUNTO)].outcome is Outcome.LOSE
    t.play.settle()
    assert t.phase is Phase.BETS and t.coup_no == 2 and t.history[-1].result.banca_six
    assert [e.type for e in t.journal.round_events(1)][-2:] == ["coup_settled", "round_closed"]


def test_natural_and_punto_draws_announcements():
    t = live_table()
    open_live_shoe(t)
    t.play.no_va_mas()
    for c in ["4", "2", "5", "3"]:
        t.play.key_card(c)
    assert t.phase is Phase.RESULT
    assert t.prompt.text("es") == "PUNTO 9 · BANCA 5 · Natural (PUNTO) · Gana el PUNTO con 9"
    assert t.prompt.announcements[-1].render("en") == "PUNTO wins with 9"
    t.play.settle()
    t.play.no_va_mas()
    for c in ["A", "7", "2", "K"]:
        t.play.key_card(c)
    assert t.prompt.text("es") == "PUNTO 3 · BANCA 7 · Carta para el PUNTO" and t.card_called_for == "punto"
    t.play.key_card("4")
    assert t.prompt.text("es") == "PUNTO 7 · La BANCA se planta con 7 · Empate con 7: TIE paga 8 a 1, PUNTO y BANCA se devuelven"
    assert t.result.winner is Winner.TIE
    t.play.settle()
    t.play.no_va_mas()
    for c in ["2", "3", "2", "K", "6"]:
        t.play.key_card(c)
    assert t.prompt.text("es") == "PUNTO 0 · Carta para la BANCA"  # BANCA 3, PUNTO's third is 6 → draws
    t.play.key_card("9")
    assert t.prompt.text("es") == "BANCA 2 · Gana la BANCA con 2"
    t.play.settle()
    t.play.no_va_mas()
    for c in ["6", "K", "K", "4"]:
        t.play.key_card(c)
    assert t.prompt.text("es") == "PUNTO 6 · BANCA 4 · El PUNTO se planta con 6 · Carta para la BANCA"
    t.play.key_card("2")
    assert t.prompt.text("es") == "BANCA 6 · Empate con 6: TIE paga 8 a 1, PUNTO y BANCA se devuelven"
    t.play.settle()
    t.play.no_va_mas()
    for c in ["7", "K", "K", "6"]:
        t.play.key_card(c)
    assert t.prompt.text("es") == ("PUNTO 7 · BANCA 6 · El PUNTO se planta con 7 · La BANCA se planta con 6 · "
                           "Gana el PUNTO con 7")


def test_bets_cannot_be_placed_or_changed_after_no_va_mas():
    t = live_table()
    open_live_shoe(t)
    t.play.place_bet(1, "banca", 50)
    t.play.no_va_mas()
    unchanged(t, t.play.place_bet, 2, "punto", 50, article="Art. 9 §1")
    unchanged(t, t.play.remove_bet, 1, "banca", article="Art. 9 §1")
    unchanged(t, t.undo, article="Art. 9 §1")
    unchanged(t, t.play.no_va_mas, article="Art. 8 §3")
    assert Action.BET not in t.legal_actions()


def test_cards_before_no_va_mas_and_settle_before_result_are_refused():
    t = live_table()
    unchanged(t, t.play.key_card, "5", article="Art. 8 §1")
    open_live_shoe(t)
    unchanged(t, t.play.key_card, "5", article="Art. 8 §3")
    unchanged(t, t.play.settle, article="Art. 8 §6")
    unchanged(t, t.play.key_card, "X", error=InputError)
    unchanged(t, t.play.deal, error=InputError)  # live cards are keyed, never dealt by the console


# --------------------------------------------------------------------------- limits


@pytest.mark.parametrize(
    "spot, kind, amount, article",
    [
        (1, "punto", 5, "Art. 7 §1"),
        (1, "banca", 1001, "Art. 7 §1"),
        (1, "tie", 101, "Art. 5 §5"),
        (10, "punto", 50, "Art. 2 §5"),
        (0, "punto", 50, "Art. 2 §5"),
    ],
)
def test_limits(spot, kind, amount, article):
    t = live_table()
    open_live_shoe(t)
    unchanged(t, t.play.place_bet, spot, kind, amount, article=article)
    assert not can(t.play.verify_place_bet, spot, kind, amount)


def test_limits_at_the_edges_and_malformed_amounts():
    t = live_table()
    open_live_shoe(t)
    t.play.place_bet(1, "punto", 10)
    t.play.place_bet(2, "banca", 1000)
    t.play.place_bet(3, "tie", 100)
    unchanged(t, t.play.place_bet, 4, "punto", "12.5", error=InputError)  # not a multiple of the 1 chip
    unchanged(t, t.play.place_bet, 4, "punto", 0, error=InputError)
    unchanged(t, t.play.place_bet, 4, "punto", 12.0, error=InputError)  # floats are refused
    unchanged(t, t.play.place_bet, 4, "empate", 10, error=InputError)


def test_punto_and_banca_together_must_differ_by_the_minimum():
    t = live_table()
    open_live_shoe(t)
    t.play.place_bet(5, "punto", 100)
    unchanged(t, t.play.place_bet, 5, "banca", 96, article="Art. 9 §7")
    unchanged(t, t.play.place_bet, 5, "banca", 100, article="Art. 9 §7")
    t.play.place_bet(5, "banca", 90)
    unchanged(t, t.play.place_bet, 5, "punto", 99, article="Art. 9 §7")
    t.play.place_bet(5, "tie", 100)  # TIE is not PUNTO or BANCA


def test_multiples_of_the_minimum_when_the_table_requires_it():
    t = live_table(table_config(multiples_of_minimum=True, minimum=Decimal(20), maximum=Decimal(1000)))
    open_live_shoe(t)
    unchanged(t, t.play.place_bet, 1, "punto", 30, article="Art. 5 §4")
    t.play.place_bet(1, "punto", 40)


def test_standing_bettors_bet_but_never_turn_punto_cards():
    t = live_table(table_config(standing_bettors=2))
    open_live_shoe(t)
    assert t.spots == list(range(1, 12)) and t.spot_label(10) == "S1"
    t.play.place_bet(10, "punto", 500)
    assert t.reveal_box is None  # Art. 9 §2: only seated players turn PUNTO's cards
    t.play.place_bet(6, "punto", 100)
    t.play.place_bet(3, "punto", 100)
    assert t.reveal_box == 3  # ties → lowest box (decision)
    t.play.place_bet(8, "punto", 150)
    assert t.reveal_box == 8
    unchanged(t, t.play.place_bet, 12, "punto", 50, article="Art. 4 §1")


def test_no_punto_bet_the_croupier_turns_the_cards():
    t = live_table()
    open_live_shoe(t)
    t.play.place_bet(1, "banca", 50)
    t.play.no_va_mas()
    assert "las cartas del PUNTO las descubre el croupier" in t.prompt.text("es")


# --------------------------------------------------------------------------- payouts


def test_half_six_pays_exactly_half_and_refuses_an_odd_banca_when_placed():
    t = live_table()
    open_live_shoe(t)
    # PUNTO 7 and BANCA 6 both stand: PUNTO wins.
    lines = play_coup(t, ["7", "6", "K", "K"], [(1, "banca", 16), (2, "punto", 15), (3, "tie", 15)])
    by = {(l.spot, l.kind): l for l in lines}
    assert by[(2, BetKind.PUNTO)].paid == 15 and by[(1, BetKind.BANCA)].outcome is Outcome.LOSE
    lines = play_coup(t, ["6", "6", "K", "K"], [(1, "banca", 16)])  # PUNTO 6 BANCA 6 → tie
    assert lines[0].outcome is Outcome.PUSH and lines[0].returned == 16 and lines[0].net == 0
    # Art. 5 §2 "se pagará el 50 %": the half of 15 is 7.5, which the 1 chip cannot pay; the
    # bet is refused when placed, never paid 8 (or 7).
    err = unchanged(t, t.play.place_bet, 1, "banca", 15, article="Art. 5 §2")
    assert "número par de fichas" in err.message("es") and "even number of chips" in err.message("en")
    lines = play_coup(t, ["5", "6", "K", "K", "K"], [(1, "banca", 16), (1, "tie", 10)])
    by = {(l.spot, l.kind): l for l in lines}
    banca = by[(1, BetKind.BANCA)]
    assert (banca.exact, banca.paid) == (8, 8) and "Art. 5 §2" in banca.reason.render("es")
    assert by[(1, BetKind.TIE)].collected == 10


def test_commission_deducted_at_payment_takes_banca_in_multiples_of_twenty_chips_and_pays_it_exactly():
    t = live_table(table_config(banca_mode="commission", commission_handling="deduct"))
    open_live_shoe(t)
    # 95 % of 10 is 9.5: paying 10 takes no commission at all (the player's edge), paying 9
    # takes 10 %; either changes the game, so the bet is refused.
    for bad in (10, 15, 30):
        err = unchanged(t, t.play.place_bet, 1, "banca", bad, article="Art. 5 §3")
        assert "múltiplo de 20 fichas" in err.message("es")
    lines = play_coup(t, ["5", "6", "K", "K", "K"], [(1, "banca", 40)])  # BANCA wins with 6
    assert (lines[0].exact, lines[0].paid, lines[0].net, lines[0].commission) == (38, 38, 38, 0)
    assert "Art. 5 §3" in lines[0].reason.render("es")
    assert t.last_settlement == lines and not t.commission_tally


def test_commission_tally_pays_one_to_one_and_keeps_the_exact_five_percent():
    t = live_table(table_config(banca_mode="commission"))  # the shipped handling: the tally
    assert t.config.commission_handling == "tally"
    open_live_shoe(t)
    unchanged(t, t.play.collect_commission, error=InputError)  # nothing owed yet
    lines = play_coup(t, ["5", "6", "K", "K", "K"], [(1, "banca", 15), (2, "banca", 40), (3, "punto", 50)])
    by = {l.spot: l for l in lines}
    assert (by[1].paid, by[1].net, by[1].exact, by[1].commission) == (15, 15, Decimal("14.25"), Decimal("0.75"))
    assert "0,75" in by[1].reason.render("es") and "Art. 5 §3" in by[1].reason.render("es")
    assert t.commission_tally == {1: Decimal("0.75"), 2: Decimal(2)}
    play_coup(t, ["5", "6", "K", "K", "K"], [(1, "banca", 15)])
    assert t.commission_tally[1] == Decimal("1.5")
    # The player of box 1 leaves: one command collects the tally, rounded down to the chip.
    seq = t.journal.last_seq
    assert t.play.collect_commission(1) == [CommissionCollected({"1": {"tally": "1.50", "collected": "1"}})]
    assert t.commission_tally == {2: Decimal(2)} and t.journal.last_seq == seq + 1
    unchanged(t, t.play.collect_commission, 1, error=InputError)
    # The shoe cannot be replaced while a tally is owed (Art. 5 §3, Art. 3 §2).
    t.supervisor.end_shoe(SUPERVISOR, "fin de prueba")
    assert "Cobrar las comisiones (Art. 5 §3) — casillero 2: 2" in t.prompt.text("es")
    err = unchanged(t, t.play.new_shoe, article="Art. 5 §3")
    assert "casilleros 2" in err.message("es")
    t.play.collect_commission()
    assert not t.commission_tally and Action.COLLECT_COMMISSION not in t.legal_actions()
    t.play.new_shoe()
    replayed = MidiTable(t.journal, t.staff, config=t.config)
    assert replayed.state_hash() == t.state_hash()


@pytest.mark.parametrize("chip, mode, good, bad, unit, article", [
    (Decimal(5), "half-six", 30, 15, 10, "Art. 5 §2"), (Decimal(1), "commission", 40, 30, 20, "Art. 5 §3")])
def test_a_table_takes_only_banca_bets_that_pay_exactly(chip, mode, good, bad, unit, article):
    t = live_table(table_config(chip=chip, banca_mode=mode, commission_handling="deduct"))
    open_live_shoe(t)
    err = unchanged(t, t.play.place_bet, 1, "banca", bad, article=article)
    assert f"de {unit} en {unit}" in err.message("es") and f"steps of {unit}" in err.message("en")
    t.play.place_bet(1, "punto", 15)  # PUNTO and TIE always pay whole chips
    t.play.place_bet(1, "tie", 15)
    t.play.place_bet(2, "banca", good)
    t.play.no_va_mas()
    for c in ["5", "6", "K", "K", "K"]:
        t.play.key_card(c)
    banca = [l for l in t.settlement if l.kind is BetKind.BANCA][0]
    assert banca.paid == banca.exact and banca.paid % chip == 0


def test_tie_pays_eight_to_one_and_returns_punto_and_banca():
    t = live_table()
    open_live_shoe(t)
    lines = play_coup(t, ["9", "9", "K", "K"], [(1, "tie", 25), (1, "punto", 100), (2, "banca", 40)])
    by = {(l.spot, l.kind): l for l in lines}
    assert by[(1, BetKind.TIE)].paid == 200 and by[(1, BetKind.TIE)].returned == 25
    assert by[(1, BetKind.PUNTO)].outcome is Outcome.PUSH and by[(2, BetKind.BANCA)].outcome is Outcome.PUSH


def test_a_finer_chip_pays_the_exact_half():
    t = live_table(table_config(chip=Decimal("0.5")))
    open_live_shoe(t)
    lines = play_coup(t, ["5", "6", "K", "K", "K"], [(1, "banca", 15)])
    assert (lines[0].exact, lines[0].paid) == (Decimal("7.5"), Decimal("7.5"))


def test_settlement_lines_money_for_each_outcome_and_their_journal_form():
    from shared.baccarat import resolve_coup
    from shared.codec import decode, encode
    from shared.midi.payouts import SettlementLine, settle_bets, spot_summaries, upcast_line, void_bet

    config = table_config(banca_mode="commission")
    banca_wins = resolve_coup([5, 6, 0, 0, 0])  # PUNTO 5 draws 0, BANCA 6 stands: BANCA 6
    tie = resolve_coup([6, 6, 0, 0])
    lose, win, push, void = (settle_bets({1: {BetKind.PUNTO: Decimal(40)}}, banca_wins, config)[0],
                             settle_bets({1: {BetKind.BANCA: Decimal(40)}}, banca_wins, config)[0],
                             settle_bets({1: {BetKind.BANCA: Decimal(40)}}, tie, config)[0],
                             void_bet(1, BetKind.TIE, Decimal(40)))
    assert (lose.returned, lose.collected, lose.net, lose.paid, lose.exact) == (0, 40, -40, 0, 0)
    assert (win.returned, win.collected, win.net, win.paid, win.exact, win.commission) == (40, 0, 40, 40, 38, 2)
    for line, outcome in ((push, Outcome.PUSH), (void, Outcome.VOID)):
        assert (line.outcome, line.returned, line.collected, line.net, line.paid, line.commission) == (outcome, 40, 0, 0, 0, 0)
    for line in (lose, win, push, void):
        assert decode(SettlementLine, encode(line)) == line
    assert encode(win)["commission"] == "2.00"
    assert win.reason.render("es") != win.reason.render("en")
    assert (void.spot, void.kind, void.stake, void.exact) == (1, BetKind.TIE, 40, 0) and "Art. 9 §3" in void.reason.render("en")
    # A line journaled before the commission tally existed (its reason in words) reads with none.
    old = {k: v for k, v in encode(win).items() if k not in ("commission", "reason")} | {
        "why_es": win.reason.render("es"), "why_en": win.reason.render("en")}
    assert decode(SettlementLine, upcast_line(old)).commission == 0
    summary = spot_summaries([lose, win])[1]
    assert (summary.spot, summary.staked, summary.paid, summary.returned, summary.collected, summary.commission,
            summary.hand_over) == (1, 80, 40, 40, 40, 2, 80)


# --------------------------------------------------------------------------- shoe


def test_training_shoe_deals_its_virtual_order_and_burns_by_value():
    order = ["3s", "Kd", "Qh", "Jc", "4h", "5d", "2c", "7s", "8h", "Ah"] + ["9c"] * 8 + ["Tc"] * 8
    t = training_table(order)
    assert t.shoe.virtual and t.shoe.size == 26
    unchanged(t, t.play.key_card, "3", error=InputError)  # the console deals in training
    t.play.deal()
    assert t.shoe.burn_card.display == "3♠"
    t.play.confirm_burn()  # burns K Q J
    assert t.shoe.dealt == 4 and t.shoe.left[Rank.KING] == 31
    t.play.place_bet(1, "punto", 10)
    t.play.no_va_mas()
    while t.card_called_for:
        t.play.deal()
    # PUNTO 4h 2c = 6 stands; BANCA 5d 7s = 2 draws 8h → 0: PUNTO wins.
    assert [c.display for c in t.punto_cards] == ["4♥", "2♣"]
    assert [c.display for c in t.banca_cards] == ["5♦", "7♠", "8♥"]
    assert t.result.winner is Winner.PUNTO
    t.play.settle()
    # Art. 8 §2: a face card or a 10 burns ten cards, whatever its own rank.
    for face in ("Jd", "Qc", "Kh", "Ts"):
        u = training_table([face] + ["9c", "9d", "9h", "9s"] * 4 + ["2c", "2d", "2h", "2s"] * 2)
        u.play.deal()
        u.play.confirm_burn()
        assert (u.shoe.burned, u.shoe.dealt) == (10, 11), face


def test_training_shuffle_is_repeatable_with_a_seed():
    a, b = training_table(seed=11), training_table(seed=11)
    a.play.deal(), b.play.deal()
    assert a.shoe.burn_card == b.shoe.burn_card and a.shoe.size == 416


def test_a_rigged_order_cannot_exceed_the_composition():
    t = training_table(["As"] + ["Kd"] * 8 + ["Qd"] * 8)
    t.play.deal()
    t.play.confirm_burn()
    t.supervisor.end_shoe(None, "fin de prueba")
    unchanged(t, t.play.new_shoe, ["As"] * 9 + ["Kd"] * 10, article="Art. 2 §1")


def test_the_shoe_refuses_a_rank_it_no_longer_holds():
    t = live_table(table_config(decks=6))
    open_live_shoe(t)
    for _ in range(4):  # six aces a coup: PUNTO A A A = 3, BANCA A A A = 3
        play_coup(t, ["A"] * 6)
    assert t.shoe.left[Rank.ACE] == 0
    t.play.no_va_mas()
    unchanged(t, t.play.key_card, "A", article="Art. 2 §1")
    t.play.key_card("K")


def test_the_cut_card_coup_is_the_last_and_the_next_shoe_opens():
    order = ["As", "Kd"] + ["Kc", "Kh", "9s", "9h"] * 2 + ["2c"] * 8  # size 18, cut after 11 dealt
    t = training_table(order)
    t.play.deal(), t.play.confirm_burn()
    t.play.no_va_mas()
    for _ in range(4):
        t.play.deal()  # coup 1: PUNTO K 9, BANCA K 9 → tie; 6 dealt
    assert not t.shoe.cut_card_out
    t.play.settle()
    t.play.no_va_mas()
    for _ in range(4):
        t.play.deal()  # coup 2: 10 dealt
    t.play.settle()
    assert not t.shoe.cut_card_out and t.phase is Phase.BETS
    t.play.no_va_mas()
    t.play.deal()  # the 11th card: the last above the cut card
    assert not t.shoe.cut_card_out
    t.play.deal()  # the 12th: the cut card came out before it, 7 cards below it
    assert t.shoe.cut_card_out and t.shoe.cards_left == 6
    while t.card_called_for:
        t.play.deal()
    t.play.settle()
    assert t.phase is Phase.SHOE_END and "carta de corte" in t.prompt.text("es")
    assert t.legal_actions() >= {Action.NEW_SHOE} and Action.BET not in t.legal_actions()
    assert t.roads.counts.coups == 3
    t.play.new_shoe()
    assert t.phase is Phase.BURN and t.shoe.number == 2 and t.roads.counts.coups == 0


def test_last_coup_is_announced_while_bets_are_open():
    order = ["As", "Kd"] + ["9c", "Kh", "Ks", "Ks"] + ["2c"] * 7  # size 13: the cut card after 6
    t = training_table(order)
    t.play.deal(), t.play.confirm_burn()
    assert "Última" not in t.prompt.text("es")
    t.play.no_va_mas()
    for _ in range(4):
        t.play.deal()
    t.play.settle()
    assert t.prompt.text("es").startswith("Hagan sus apuestas · Último pase del sabot")
    t.play.no_va_mas()
    t.play.deal()
    assert t.shoe.cut_card_out


def test_a_coup_the_shoe_cannot_finish_is_nulo_with_every_bet_returned():
    t = live_table()
    open_live_shoe(t)
    advance_to(t, t.shoe.cut_position, random.Random(3))
    assert not t.shoe.cut_card_out and "Último pase" in t.prompt.text("es")
    t.play.place_bet(4, "banca", 100)
    t.play.no_va_mas()
    unchanged(t, t.play.shoe_exhausted, article="Art. 8 §1")  # the cut card is still in the sabot
    for c in coup_of_size(t, 6)[:4]:  # the cut card comes out with the first card
        t.play.key_card(c)
        assert t.shoe.cut_card_out
    assert t.card_called_for == "punto" and t.shoe.cards_left == 3
    # Live: the croupier finds the sabot empty during the cut-card coup (a miscounted shoe),
    # but the count shows 3 cards: only a supervisor declares it, with a reason (Art. 9 §3).
    assert Action.SHOE_EXHAUSTED not in t.legal_actions() and Action.DECLARE_EXHAUSTED in t.legal_actions()
    err = unchanged(t, t.play.shoe_exhausted, article="Art. 9 §3")
    assert "3 cartas" in err.message("es") and "supervisor" in err.message("es")
    unchanged(t, t.play.shoe_exhausted, CROUPIER, "vacío", error=AuthError)
    unchanged(t, t.play.shoe_exhausted, SUPERVISOR, " ", error=InputError)
    coup, seq = t.coup_no, t.journal.last_seq
    t.play.shoe_exhausted(SUPERVISOR, "el sabot está vacío: zapato mal contado")
    events = list(t.journal.events(after=seq))
    assert [e.type for e in events] == ["coup_voided", "round_closed", "shoe_ended"]
    assert events[0].staff_id == "sup1" and events[0].payload["reason"] == "el sabot está vacío: zapato mal contado"
    assert t.history[-1].coup == coup and t.history[-1].result is None
    assert t.last_settlement[0].outcome is Outcome.VOID and t.last_settlement[0].returned == 100
    assert t.phase is Phase.SHOE_END and t.shoe.dealt == t.shoe.cut_position + 4


def test_a_virtual_shoe_is_never_called_empty_while_it_holds_cards():
    order = ["As", "Kd"] + ["9c", "Kh", "Ks", "Ks"] + ["Qc", "Qh", "Qd", "Qs"] * 2  # size 14
    t = training_table(order)
    t.play.deal(), t.play.confirm_burn()
    t.play.no_va_mas()
    for _ in range(4):
        t.play.deal()
    t.play.settle()
    t.play.no_va_mas()
    for _ in range(4):
        t.play.deal()
    assert t.shoe.cut_card_out and t.card_called_for == "punto"
    unchanged(t, t.play.shoe_exhausted, article="Art. 9 §3")


def test_nulo_returns_every_bet():
    t = live_table()
    open_live_shoe(t)
    t.play.place_bet(1, "punto", 100)
    t.play.place_bet(1, "tie", 10)
    t.play.no_va_mas()
    t.play.key_card("5")
    # The regulation's only NULO is the empty sabot (Art. 9 §3): any other takes two supervisors.
    unchanged(t, t.supervisor.void_coup, SUPERVISOR, "carta expuesta", error=AuthError)
    unchanged(t, t.supervisor.void_coup, SUPERVISOR, "carta expuesta", SUPERVISOR, error=AuthError)
    t.supervisor.void_coup(SUPERVISOR, "carta expuesta", SUPERVISOR2)
    assert t.journal.last_event_of("coup_voided").payload["second_supervisor"] == SUPERVISOR2.staff_id
    lines = t.last_settlement
    assert {l.outcome for l in lines} == {Outcome.VOID}
    assert sum(l.returned for l in lines) == 110 and sum(l.paid for l in lines) == 0
    assert t.phase is Phase.BETS and t.history[-1].result is None
    assert t.roads.counts.coups == 0


# --------------------------------------------------------------------------- sabot


def test_a_box_that_passed_the_sabot_waits_for_every_other_box():
    t = live_table(table_config(boxes=4))
    open_live_shoe(t)
    t.play.assign_sabot(2)
    t.play.pass_sabot(release=True)  # box 2 gives it up; nobody takes it
    err = unchanged(t, t.play.assign_sabot, 2, article="Art. 9 §4")  # not straight back to box 2
    assert "1, 3, 4" in err.message("es")
    t.play.assign_sabot(4)
    t.play.pass_sabot()  # box 4 declines: box 1, then 3 (box 2 has had it in this round)
    assert t.sabot_holder == 1
    t.play.pass_sabot()
    assert t.sabot_holder == 3
    t.play.pass_sabot()  # every box has had it: a new round starts on the right
    assert t.sabot_holder == 4
    t.play.pass_sabot()
    assert t.sabot_holder == 1


@pytest.mark.parametrize("how", ["supervisor", "nulo"])
def test_a_shoe_ended_without_a_banca_win_passes_the_sabot_right(how):
    t = live_table()
    open_live_shoe(t)
    t.play.assign_sabot(3)
    play_coup(t, ["7", "8", "K", "K"])  # BANCA natural: box 3 keeps the sabot
    t.play.place_bet(1, "punto", 10)
    t.play.no_va_mas()
    t.play.key_card("5")
    if how == "supervisor":
        t.supervisor.end_shoe(SUPERVISOR, "mazo dañado", SUPERVISOR2)
    else:
        unchanged(t, t.play.shoe_exhausted, SUPERVISOR, "sabot vacío", article="Art. 8 §1")  # the cut card is inside
        t.play.cut_card_seen()
        t.play.shoe_exhausted(SUPERVISOR, "sabot vacío")
    assert t.phase is Phase.SHOE_END and t.sabot_holder == 4  # Art. 9 §6
    t2 = live_table()
    open_live_shoe(t2)
    t2.play.assign_sabot(3)
    play_coup(t2, ["7", "8", "K", "K"])
    t2.supervisor.end_shoe(SUPERVISOR, "fin del turno")  # between coups, the last coup a BANCA win
    assert t2.sabot_holder == 3
    t3 = live_table()
    open_live_shoe(t3)
    t3.play.assign_sabot(3)
    play_coup(t3, ["9", "7", "K", "K"])  # PUNTO: the sabot already went right
    t3.supervisor.end_shoe(SUPERVISOR, "fin del turno")
    assert t3.sabot_holder == 4


def test_sabot_customary_rotation():
    t = live_table()
    open_live_shoe(t)
    t.play.assign_sabot(8)
    unchanged(t, t.play.assign_sabot, 2, article="Art. 9 §4")
    play_coup(t, ["7", "8", "K", "K"])  # BANCA 8 natural
    assert t.sabot_holder == 8
    play_coup(t, ["9", "9", "K", "K"])  # tie
    assert t.sabot_holder == 8
    play_coup(t, ["9", "7", "K", "K"])  # PUNTO
    assert t.sabot_holder == 9
    play_coup(t, ["9", "7", "K", "K"])
    assert t.sabot_holder == 1  # wraps round the table
    t.play.pass_sabot()  # box 1 declines
    assert t.sabot_holder == 2
    t.play.pass_sabot(release=True)
    assert t.sabot_holder is None and "reparte el croupier" in t.prompt.text("es")


def test_sabot_each_coup_rotation_and_only_seated_boxes():
    t = live_table(table_config(sabot_rotation="each-coup", standing_bettors=1))
    open_live_shoe(t)
    unchanged(t, t.play.assign_sabot, 10, article="Art. 9 §2")
    t.play.assign_sabot(3)
    play_coup(t, ["7", "8", "K", "K"])
    assert t.sabot_holder == 4
    t.play.no_va_mas()
    unchanged(t, t.play.pass_sabot, article="Art. 9 §4")


def test_supervisor_takes_over_and_the_sabot_goes_right():
    t = live_table()
    open_live_shoe(t)
    t.play.assign_sabot(5)
    t.play.no_va_mas()
    unchanged(t, t.supervisor.supervisor_deals, CROUPIER, "mareo", error=AuthError)
    unchanged(t, t.supervisor.supervisor_deals, SUPERVISOR, "  ", error=InputError)
    t.supervisor.supervisor_deals(SUPERVISOR, "el jugador se retiró")
    unchanged(t, t.play.pass_sabot, article="Art. 9 §4")  # between coups only
    ev = list(t.journal.events())[-1]
    assert (ev.staff_id, ev.role, ev.type) == ("sup1", "supervisor", "supervisor_deals")
    for c in ["7", "8", "K", "K"]:  # BANCA wins: the holder would keep it, but §5 passes it
        t.play.key_card(c)
    t.play.settle()
    assert t.sabot_holder == 6 and not t.supervisor_dealing


@pytest.mark.parametrize("last, holder_after", [(Winner.BANCA, 2), (Winner.PUNTO, 3), (Winner.TIE, 3)])
def test_new_shoe_starts_with_the_same_box_only_after_banca(last, holder_after):
    t = live_table()
    open_live_shoe(t)
    t.play.assign_sabot(2)
    advance_to(t, t.shoe.cut_position, random.Random(5))
    while t.sabot_holder != 2:
        t.play.pass_sabot()
    t.play.no_va_mas()
    for c in coup_of_size(t, 4, lambda r: r.winner is last):
        t.play.key_card(c)
    t.play.settle()
    assert t.phase is Phase.SHOE_END and t.sabot_holder == holder_after  # Art. 9 §6
    t.play.new_shoe()
    assert t.sabot_holder == holder_after


# --------------------------------------------------------------------------- supervisor, undo


def test_supervisor_commands_need_a_verified_supervisor_and_a_reason():
    t = live_table()
    open_live_shoe(t)
    t.play.place_bet(1, "punto", 100)
    t.play.no_va_mas()
    t.play.key_card("5")
    unchanged(t, t.supervisor.void_coup, None, "x", error=AuthError)
    unchanged(t, t.supervisor.void_coup, CROUPIER, "x", error=AuthError)
    unchanged(t, t.supervisor.end_shoe, SUPERVISOR, "", error=InputError)
    unchanged(t, t.supervisor.correct_card, CROUPIER, "x", 0, "6", error=AuthError)


def test_correct_a_mis_keyed_card_before_settlement():
    t = live_table()
    open_live_shoe(t)
    t.play.place_bet(1, "punto", 100)
    t.play.no_va_mas()
    for c in ["5", "6", "K", "K", "K"]:
        t.play.key_card(c)
    assert t.result.winner is Winner.BANCA
    # The first card was a 9 (natural 9): then no third card would have been called for.
    unchanged(t, t.supervisor.correct_card, SUPERVISOR, "tecleo", 0, "9", SUPERVISOR2, article="Art. 6 §2")
    # The result is known: what a box is paid changes only with two supervisors.
    unchanged(t, t.supervisor.correct_card, SUPERVISOR, "era un 4", 4, "4", error=AuthError)
    t.supervisor.correct_card(SUPERVISOR, "era un 4", 4, "4", SUPERVISOR2)  # PUNTO 5 + 4 = 9
    assert t.result.winner is Winner.PUNTO and t.shoe.left[Rank.FOUR] == 31 and t.shoe.left[Rank.KING] == 30
    ev = list(t.journal.events())[-1]
    assert ev.type == "card_corrected" and ev.payload["old"] == "K" and ev.staff_id == "sup1"
    # A correction that now calls for a card: BANCA 3 + K = 3 draws on PUNTO's third card 4.
    t.supervisor.correct_card(SUPERVISOR, "era un 3", 1, "3", SUPERVISOR2)
    assert t.phase is Phase.CARDS and t.card_called_for == "banca"
    assert t.prompt.text("es") == "PUNTO 9 · Carta para la BANCA"
    t.play.key_card("K")
    assert t.result.winner is Winner.PUNTO
    t.play.settle()
    unchanged(t, t.supervisor.correct_card, SUPERVISOR, "tarde", 0, "3", article="Art. 8 §6")


def test_end_shoe_voids_the_coup_in_progress():
    t = live_table()
    open_live_shoe(t)
    t.play.place_bet(2, "banca", 100)
    t.play.no_va_mas()
    unchanged(t, t.supervisor.end_shoe, SUPERVISOR, "naipes dañados", error=AuthError)  # a NULO: two supervisors
    t.supervisor.end_shoe(SUPERVISOR, "naipes dañados", SUPERVISOR2)
    assert t.phase is Phase.SHOE_END and t.last_settlement[0].outcome is Outcome.VOID
    unchanged(t, t.supervisor.end_shoe, SUPERVISOR, "otra vez", error=InputError)


def test_undo_bets_and_cards_as_their_own_events():
    t = live_table()
    open_live_shoe(t)
    t.play.place_bet(1, "punto", 100)
    t.play.place_bet(1, "punto", 300)
    t.undo()
    assert t.bets[1][BetKind.PUNTO] == 100
    t.play.remove_bet(1, "punto")
    t.undo()
    assert t.bets[1][BetKind.PUNTO] == 100
    t.undo()
    assert t.bets == {} and Action.UNDO not in t.legal_actions()
    unchanged(t, t.undo, error=InputError)
    t.play.place_bet(1, "punto", 100)
    t.play.no_va_mas()
    for c in ["5", "6", "K", "K", "K"]:
        t.play.key_card(c)
    assert t.phase is Phase.RESULT and t.undo_entry_type == "card"
    t.undo()
    assert t.phase is Phase.CARDS and t.card_called_for == "punto" and t.shoe.left[Rank.KING] == 30
    t.play.key_card("4")
    types = [e.type for e in t.journal.round_events(t.coup_no)]
    assert types.count("entry_undone") == 4
    undone = [e for e in t.journal.round_events(t.coup_no) if e.type == "entry_undone"]
    assert undone[-1].payload["type"] == "card"


def test_undo_the_burn_card():
    t = live_table()
    t.play.new_shoe()
    t.play.key_card("9")
    assert t.prompt.text("es").startswith("Quemar 9 cartas")
    t.undo()
    assert t.shoe.burn_card is None and t.shoe.dealt == 0 and t.prompt.card_for == "burn"
    t.play.key_card("J")  # keyed again: a face card burns 10 (Art. 8 §2)
    assert t.prompt.text("es").startswith("Quemar 10 cartas")
    t.play.confirm_burn()
    assert (t.shoe.burned, t.shoe.dealt) == (10, 11)


def test_repeat_last_bets():
    t = live_table()
    open_live_shoe(t)
    unchanged(t, t.play.repeat_last_bets, error=InputError)
    play_coup(t, ["9", "7", "K", "K"], [(1, "punto", 100), (3, "banca", 50), (3, "tie", 10)])
    t.play.place_bet(3, "punto", 20)
    t.play.repeat_last_bets()  # box 3 already has a bet: only box 1 is repeated
    assert t.bets == {1: {BetKind.PUNTO: Decimal(100)}, 3: {BetKind.PUNTO: Decimal(20)}}
    t.undo()
    t.play.remove_bet(3, "punto")
    t.play.repeat_last_bets(3)
    assert t.bets == {3: {BetKind.BANCA: Decimal(50), BetKind.TIE: Decimal(10)}}


# --------------------------------------------------------------------------- journal


def test_restart_mid_coup_restores_the_exact_state(tmp_path):
    path = tmp_path / "midi.db"
    t = live_table(path=path)
    open_live_shoe(t)
    play_coup(t, ["9", "7", "K", "K"], [(1, "punto", 100)])
    t.play.place_bet(2, "banca", 200)
    t.play.no_va_mas()
    t.play.key_card("3")
    t.play.key_card("4")
    state = t.state_hash()
    t.journal.close()
    from shared.journal import Journal

    again = MidiTable(Journal(path, "MPB-02", "midi"))
    assert again.state_hash() == state and again.recovered
    assert again.card_called_for == "punto" and again.bets == {2: {BetKind.BANCA: Decimal(200)}}
    again.play.key_card("5")
    again.play.key_card("5")


def test_box_summaries_totals_and_enter_card():
    from shared.midi.payouts import spot_summaries

    t = live_table()
    t.play.new_shoe()
    t.play.enter_card("3")
    t.play.confirm_burn()
    t.play.place_bet(1, "banca", 16)
    t.play.place_bet(1, "tie", 10)
    t.play.place_bet(2, "punto", 40)
    t.play.no_va_mas()
    assert t.totals == (None, None)
    for c in ["5", "6", "K"]:
        t.play.enter_card(c)
    assert t.totals == (5, 6)
    t.play.enter_card("K")
    t.play.enter_card("K")
    summary = spot_summaries(t.settlement)
    assert (summary[1].paid, summary[1].returned, summary[1].collected, summary[1].hand_over) == (8, 16, 10, 24)
    assert (summary[2].staked, summary[2].collected, summary[2].hand_over) == (40, 40, 0)
    tr = training_table()
    tr.play.enter_card()
    assert tr.shoe.burn_card is not None


def test_suits_are_optional_and_carry_no_value():
    t = live_table()
    open_live_shoe(t)
    t.play.no_va_mas()
    for c in ["9h", "Ks", "Kd", "9c"]:
        t.play.key_card(c)
    assert [c.display for c in t.punto_cards] == ["9♥", "K♦"]
    assert t.result.winner is Winner.TIE  # 9 of hearts and 9 of clubs are equal (Art. 2 §2)


def test_the_croupier_signals_a_cut_card_that_comes_out_early():
    t = live_table()
    open_live_shoe(t)
    unchanged(t, t.play.cut_card_seen, article="Art. 8 §1")  # only during a coup
    t.play.place_bet(1, "punto", 50)
    t.play.no_va_mas()
    for c in ["K", "K", "K", "K"]:
        t.play.key_card(c)
    t.play.cut_card_seen()
    assert t.shoe.cut_card_out and Action.CUT_CARD not in t.legal_actions()
    t.undo()  # the last card, not the signal
    assert t.shoe.cut_card_out
    t.play.key_card("K")
    # The sabot is empty although the count says otherwise: the supervisor declares the coup NULO (Art. 9 §3).
    unchanged(t, t.play.shoe_exhausted, article="Art. 9 §3")
    t.play.shoe_exhausted(SUPERVISOR, "carta de corte adelantada, sabot vacío")
    assert t.phase is Phase.SHOE_END and t.last_settlement[0].outcome is Outcome.VOID
    tr = training_table()
    unchanged(tr, tr.play.cut_card_seen, error=InputError)


def test_the_sabot_cannot_be_passed_while_the_supervisor_deals():
    t = live_table()
    open_live_shoe(t)
    t.play.assign_sabot(9)
    t.supervisor.supervisor_deals(SUPERVISOR, "mareo")
    assert "reparte el supervisor" in t.prompt.text("es")
    unchanged(t, t.play.pass_sabot, article="Art. 9 §5")
    play_coup(t, ["9", "7", "K", "K"])
    assert t.sabot_holder == 1


# --------------------------------------------------------------------------- the croupier on duty

SUPERVISOR_ACTIONS = {Action.VOID_COUP, Action.CORRECT_CARD, Action.END_SHOE, Action.SUPERVISOR_DEALS,
                      Action.DECLARE_EXHAUSTED}


def off_duty(t, fn, *args):
    """With the shift closed the croupier command is refused before anything is written,
    its ``can_`` says no and no croupier action is offered."""
    err = unchanged(t, fn, *args, error=AuthError)
    assert err.message("en") == "no croupier on duty: open the shift"
    assert t.legal_actions() & set(Action) <= SUPERVISOR_ACTIONS  # the base's (tray, shift, day) aside


def test_a_live_table_without_a_croupier_on_duty_refuses_croupier_commands():
    t = live_table(shift=False)
    assert t.croupier is None
    off_duty(t, t.play.new_shoe)
    assert not can(t.play.verify_new_shoe)
    t.shift.open(CROUPIER)
    open_live_shoe(t)
    t.tray.open(OPENING, CROUPIER, SUPERVISOR)
    t.play.place_bet(1, "punto", 100)
    # A shift closes between coups only: the coup on the table is finished first.
    unchanged(t, t.shift.close, SUPERVISOR, error=InputError)
    t.play.no_va_mas()
    for card in ["9", "K", "K", "K"]:
        t.play.key_card(card)
    t.play.settle()
    t.shift.close(SUPERVISOR)
    off_duty(t, t.play.place_bet, 1, "punto", 100)
    assert not can(t.play.verify_place_bet, 1, "punto", 100) and t.bets == {}
    off_duty(t, t.play.no_va_mas)
    off_duty(t, t.play.key_card, "9")
    off_duty(t, t.play.enter_card, "9")
    assert not can(t.play.verify_no_va_mas) and not can(t.play.verify_enter_card) and not t.can("undo")
    t.shift.open(CROUPIER)
    t.play.place_bet(1, "punto", 100)
    assert t.journal.event(t.journal.last_seq).staff_id == CROUPIER.staff_id


def test_supervisor_commands_do_not_need_a_shift():
    t = live_table()
    open_live_shoe(t)
    t.shift.close(SUPERVISOR)
    assert t.croupier is None
    t.shift.open(CROUPIER)
    t.play.place_bet(1, "banca", 50)
    assert Action.VOID_COUP in t.legal_actions()
    t.supervisor.void_coup(SUPERVISOR, "mesa revuelta", SUPERVISOR2)
    assert t.journal.event(t.journal.last_seq).staff_id == SUPERVISOR.staff_id


def test_a_training_table_needs_no_shift_and_journals_the_trainee():
    t = training_table()
    assert t.croupier is None
    t.play.deal()
    event = t.journal.event(t.journal.last_seq)
    assert (event.staff_id, event.role) == ("trainee", "trainee")


def test_amounts_announced_and_recalled_are_written_as_each_language_writes_them():
    t = live_table(table_config(banca_mode="commission", minimum=Decimal(100), maximum=Decimal(5000),
                                tie_maximum=Decimal(500)))
    open_live_shoe(t)
    play_coup(t, ["5", "6", "K", "K", "K"], [(1, "banca", 3150), (2, "punto", 1500)])  # BANCA wins: 5 % is 157.5
    no_va_mas = [e for e in t.journal.events() if e.type == "no_va_mas"][-1]
    said = recall(MIDI_CODEC.decode(no_va_mas.type, no_va_mas.payload), t.config)
    assert "1:BANCA 3.150, 2:PUNTO 1.500" in said.render("es") and "1:BANCA 3,150, 2:PUNTO 1,500" in said.render("en")
    t.supervisor.end_shoe(SUPERVISOR, "fin de prueba")
    assert "casillero 1: 157,5" in t.prompt.text("es") and "box 1: 157.5" in t.prompt.text("en")


def test_the_last_coup_is_announced_when_the_cut_card_will_come_out_in_its_first_four_cards():
    """With eight cards left one lies above the cut card: the coup brings it out, so it is
    the last (Art. 8 §1) — the prompt said so only once the cut card was the next card."""
    order = ["As", "Kd"] + ["9c", "Kh", "Ks", "Ks"] + ["2c"] * 8  # size 14: 5 above the cut after the burn
    t = training_table(order)
    t.play.deal(), t.play.confirm_burn()
    assert t.shoe.cards_left == 12 and "Último pase" not in t.prompt.text("es")
    t.play.no_va_mas()
    for _ in range(4):
        t.play.deal()
    t.play.settle()
    assert t.shoe.cards_left == 8 and t.prompt.text("es").startswith("Hagan sus apuestas · Último pase del sabot")


@pytest.mark.parametrize("seed", range(4))
def test_a_training_shoe_is_never_declared_exhausted_while_cards_are_left(seed):
    """``declare_exhausted`` is declared live only: a training table's console deals its shoe
    and counts it. The engine accepted it at a training table all the same (a rigged 21-card
    shoe, the cut card out, the count showing cards left), though its legal actions did not
    list it (found by test_midi_machine's training machine)."""
    config = table_config(decks=6)
    table = MidiTable(Journal(":memory:", config.table_id, "midi", training=True), config=config, training=True, seed=1)
    deck = [r + s for r in "23456789TJQKA" for s in "shdc"] * 6
    random.Random(seed).shuffle(deck)
    table.play.new_shoe(deck[:21])
    for _ in range(60):
        if table.card_called_for is not None and table._cut_out and table._size - table._dealt > 0:
            break
        if table.card_called_for is not None:
            table.play.deal()
        elif table.phase is Phase.BURN:
            table.play.confirm_burn()
        elif table.phase is Phase.BETS:
            table.play.place_bet(1, "punto", Decimal(10)) if not table.bets else table.play.no_va_mas()
        else:
            table.play.settle()
    assert table.phase is Phase.CARDS and table._cut_out and table._size - table._dealt > 0
    assert Action.DECLARE_EXHAUSTED not in table.legal_actions()
    seq = table.journal.last_seq
    with pytest.raises(InputError) as refused:
        table.play.declare_exhausted(SUPERVISOR, "motivo")
    assert "en entrenamiento la consola reparte y cuenta el sabot" in refused.value.message("es")
    assert table.journal.last_seq == seq
    table.play.deal()  # the coup goes on: the shoe has its cards
