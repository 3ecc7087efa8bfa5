"""From the engine's state to what each region shows: formatting only, no rule.

Every decision (which bets pay, how much, who acts next, what to announce) is the
engine's; this module turns its answers into the strings of the main screen, in the
interface language.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from rich.text import Text

from shared.madero.paytables import JackpotPayKind
from shared.madero.settlement import Bet, BetResult, BoxSettlement, BoxStatus, Outcome, RoundSettlement
from shared.madero.table import BoxState, MaderoTable, Phase
from shared.messages import Msg
from shared.money import fmt_money, fmt_signed
from tui_common.i18n import t

from madero_tui.events_text import JACKPOT_LINE_KEYS, jackpot_lines_text
from madero_tui.widgets.box import BoxView
from madero_tui.widgets.cards import BACK, card_text, card_texts, cards_text
from madero_tui.widgets.header import HeaderView
from madero_tui.widgets.settlement import SettlementView

BET_COLUMNS = (Bet.ANTE, Bet.FLOP, Bet.TURN, Bet.RIVER, Bet.BONUS, Bet.JACKPOT)


def bet_cell(result: BetResult | None, lang: str) -> str:
    """One bet's line in the settlement: +paid, −collected, or «dev.» (returned).

    A winning Jackpot is paid while its credits stay collected (§42): the cell shows both,
    so the row's cells add up to its NETO."""
    if result is None:
        return "—"
    if result.outcome is Outcome.WIN:
        text = fmt_signed(result.paid, lang)
        if result.exact is not None:
            text += f" ({fmt_money(result.exact, lang=lang)})"
        if result.collected:
            text += " " + fmt_signed(-result.collected, lang)
        return text
    if result.outcome is Outcome.PUSH:
        return t("mad_returned_short", lang)
    return fmt_signed(-result.collected, lang)


_OUTCOME_KEYS = {Outcome.WIN: "mad_wins", Outcome.LOSE: "mad_loses", Outcome.PUSH: "mad_tie"}


_STATUS_KEYS = {BoxStatus.FOLDED: "mad_status_retired", BoxStatus.DEAD: "mad_status_dead",
                BoxStatus.VOIDED: "mad_status_void"}


def box_result_label(box: BoxSettlement, lang: str) -> str:
    if box.main is None:  # only an active box reaches the showdown and has a result
        return t(_STATUS_KEYS[box.status], lang)
    return f"{box.hand_text(lang)} — {t(_OUTCOME_KEYS[box.main], lang)}"


def _jackpot_won(settlement: RoundSettlement, lang: str) -> str:
    """Each box's Jackpot lines, named, so the croupier sees why it is paid what it is (§55:
    the special prizes on top of the hand)."""
    return "".join(
        "\n" + t("mad_jackpot_lines", lang, box=box.box,
                 lines=jackpot_lines_text(((x.line, x.paid) for x in jackpot.lines), lang))
        for box in settlement.boxes
        if (jackpot := box.result(Bet.JACKPOT)) is not None and jackpot.lines
    )


def box_net(box: BoxSettlement) -> Decimal:
    """What the box ends with: winnings paid minus stakes collected."""
    return box.paid - box.collected


def settlement_view(settlement: RoundSettlement, round_label: str, lang: str, currency: str,
                    adjustments: Sequence[Decimal] = ()) -> SettlementView:
    """``adjustments``: the supervisor's payments (+) and collections (−) of this round (§73)."""
    headers = (
        t("mad_col_box", lang),
        t("mad_col_hand", lang),
        *(t(f"mad_bet_{bet.value}", lang) for bet in BET_COLUMNS),
        t("mad_col_net", lang),
    )
    rows = tuple(
        (
            str(box.box),
            box_result_label(box, lang),
            *(bet_cell(box.result(bet), lang) for bet in BET_COLUMNS),
            fmt_signed(box_net(box), lang),
        )
        for box in settlement.boxes
    )
    if settlement.void:
        bank = t("mad_round_void", lang)
    else:
        bank = settlement.bank_text(lang)
    totals = t(
        "mad_totals",
        lang,
        currency=currency,
        paid=fmt_money(settlement.paid, lang=lang),
        collected=fmt_money(settlement.collected, lang=lang),
        returned=fmt_money(settlement.pushed, lang=lang),
    ) + _jackpot_won(settlement, lang)
    if adjustments:
        totals += t("mad_totals_adjusted", lang,
                    paid=fmt_money(sum((a for a in adjustments if a > 0), Decimal(0)), lang=lang),
                    collected=fmt_money(-sum((a for a in adjustments if a < 0), Decimal(0)), lang=lang))
    return SettlementView(f"{t('mad_settlement', lang)} — {round_label}   {bank}", headers, rows, totals)


# --- the live table ------------------------------------------------------------------------

STALE_S = 2.0
"""A meter reading this old (the server has not answered the last polls) shows its age."""

PHASE_KEYS = {
    Phase.IDLE: "mad_phase_idle",
    Phase.BETS: "mad_phase_bets",
    Phase.FIRST: "mad_phase_first",
    Phase.FLOP: "mad_phase_flop",
    Phase.SECOND: "mad_phase_second",
    Phase.TURN: "mad_phase_turn",
    Phase.THIRD: "mad_phase_third",
    Phase.RIVER: "mad_phase_river",
    Phase.SHOWDOWN: "mad_phase_showdown",
    Phase.SETTLEMENT: "mad_phase_settlement",
}

def header_view(engine: MaderoTable, lang: str, clock: str, now: float) -> HeaderView:
    """The header; ``now`` (``time.monotonic()``) dates the meter's last reading."""
    cfg = engine.config
    table = t(
        "mad_header_table",
        lang,
        table=cfg.table_id,
        currency=cfg.currency,
        minimum=fmt_money(cfg.minimum, lang=lang),
        maximum=fmt_money(cfg.maximum, lang=lang),
    )
    if cfg.bonus_enabled:
        table += " " + t("mad_header_bonus", lang, minimum=fmt_money(cfg.bonus_minimum, lang=lang), maximum=fmt_money(cfg.bonus_maximum, lang=lang))
    known = engine.carrusel.known_reading()
    if engine.carrusel.unavailable is not None:
        jackpot = Msg.of("carrusel.header_fallback").render(lang)
    elif known is not None:
        reading, read_at = known
        jackpot = t("mad_header_meter", lang, amount=fmt_money(reading.linked_total, cfg.currency, lang=lang))
        if now - read_at >= STALE_S:
            # A server slow to answer: the figure is the last one it gave, and the croupier sees how old.
            jackpot = Msg.of("meter_age.stale", meter=jackpot, seconds=int(now - read_at)).render(lang)
    else:
        jackpot = t("mad_header_fixed", lang)
    croupier = engine.croupier
    if croupier is not None:
        who = t("mad_header_croupier", lang, staff_id=croupier.staff_id)
    else:
        who = t("mad_header_trainee" if engine.training else "mad_header_no_croupier", lang)
    round_no = engine.round_id if engine.round_open else engine.round_id + 1
    draws = None
    if engine.carta_magica is not None or engine.jugador_afortunado is not None:
        draws = Text()
        if engine.carta_magica is not None:
            draws.append(t("mad_magic_card", lang) + " ")
            draws.append_text(card_text(engine.carta_magica))
            draws.append("   ")
        if engine.jugador_afortunado is not None:
            draws.append(t("mad_lucky_box", lang, box=engine.jugador_afortunado), style="bold")
    deck = t("mad_header_deck", lang, deck=engine.deck) if engine.deck else ""
    return HeaderView(
        table=table,
        jackpot=jackpot,
        croupier=who,
        clock=clock,
        round_label=t("mad_round", lang, number=round_no),
        phase=t(PHASE_KEYS[engine.phase], lang),
        deck=deck,
        draws=draws,
    )


def fallback_banner(engine: MaderoTable, lang: str) -> tuple[str, str] | None:
    """While §48 is in force: «PROGRESIVO NO DISPONIBLE — tabla fija, Art. 11 §48» and why."""
    reason = engine.carrusel.unavailable
    if reason is None:
        return None
    return Msg.of("carrusel.banner").render(lang), Msg.of("carrusel.banner_why", reason=reason).render(lang)


def paytable_rows(engine: MaderoTable, lang: str) -> list[tuple[str, str]]:
    """The Jackpot lines as «name amount» pairs (§47: the paytable in force is shown at the table)."""
    rows = []
    for pay in engine.carrusel.jackpot_paytable_in_force:
        name = t(JACKPOT_LINE_KEYS[pay.line], lang)
        if pay.kind is JackpotPayKind.METER_SHARE:
            amount = t("mad_pay_meter", lang, percent=fmt_money(pay.amount * 100, lang=lang))
        elif pay.kind is JackpotPayKind.FIXED:
            amount = fmt_money(pay.amount, lang=lang)
        else:
            amount = t("mad_pay_per_credit", lang, amount=fmt_money(pay.amount, lang=lang))
        rows.append((name, amount))
    return rows


def _decision_cell(box: BoxState, round_no: int, amount: Decimal, acting: bool, lang: str) -> str:
    decision = box.decisions[round_no - 1]
    if decision is None:
        return "▶ ?" if acting else "·"
    if decision == "check":
        return t("mad_check_short", lang)
    if decision == "fold":
        return "—"
    return fmt_money(amount, lang=lang)


def box_status(engine: MaderoTable, number: int, lang: str) -> tuple[str, str]:
    """(text, css kind) of a box's status line."""
    box = engine.boxes.get(number)
    if box is None or not box.in_play:
        return "", "free"
    if box.status is BoxStatus.FOLDED:
        return t("mad_status_retired", lang), "retired"
    if box.status is BoxStatus.DEAD:
        return t("mad_status_dead", lang), "dead"
    if box.status is BoxStatus.VOIDED:
        return t("mad_status_void", lang), "void"
    if engine.blind(number):
        return t("mad_status_blind", lang), "blind"
    # The last word the box said stays on it, as the «paso» marker does on the cloth (§27.1).
    said = next((d for d in reversed(box.decisions) if d is not None), None)
    if said == "check":
        return t("mad_status_checked", lang), "checked"
    return t("mad_status_active", lang), "active"


def box_view(engine: MaderoTable, number: int, lang: str, settlement: RoundSettlement | None) -> BoxView:
    box = engine.boxes.get(number)
    if box is None:
        return BoxView(number, status=t("mad_box_free", lang), status_kind="free")
    acting = engine.to_act == number
    status, kind = box_status(engine, number, lang)
    result = pay = ""
    settled = None if settlement is None else next((b for b in settlement.boxes if b.box == number), None)
    if settled is not None:
        pay = fmt_signed(box_net(settled), lang)
        if settled.main is not None:
            result = t(_OUTCOME_KEYS[settled.main], lang)
            kind = {Outcome.WIN: "won", Outcome.LOSE: "lost", Outcome.PUSH: "tie"}[settled.main]
    return BoxView(number, _box_bets(engine, box, acting, lang), _box_cards(engine, box), status, kind, result, pay,
                   t("mad_col_net", lang) if pay else "", acting)


def _box_bets(engine: MaderoTable, box: BoxState, acting: bool, lang: str) -> tuple[tuple[str, str], ...]:
    """The box's bets: the Ante, then (once the bets are closed) each betting round's
    decision (Art. 8), then the Bonus and the Jackpot credits."""
    bets = [(t("mad_bet_ante", lang), fmt_money(box.ante, lang=lang) if box.ante else "—")]
    if box.in_play and engine.phase not in (Phase.IDLE, Phase.BETS):
        bets += [
            (t("mad_bet_flop", lang), _decision_cell(box, 1, box.flop, acting and engine.phase is Phase.FIRST, lang)),
            (t("mad_bet_turn", lang), _decision_cell(box, 2, box.turn, acting and engine.phase is Phase.SECOND, lang)),
            (t("mad_bet_river", lang), _decision_cell(box, 3, box.river, acting and engine.phase is Phase.THIRD, lang)),
        ]
    bets += [
        (t("mad_bet_bonus", lang), fmt_money(box.bonus, lang=lang) if box.bonus else "—"),
        (t("mad_bet_jackpot", lang), t("mad_credits", lang, n=box.jackpot_credits) if box.jackpot_credits else "—"),
    ]
    return tuple(bets)


def _box_cards(engine: MaderoTable, box: BoxState) -> Text | None:
    """An active box's two cards, face down until keyed; otherwise whatever was keyed."""
    if box.in_play and engine.phase not in (Phase.IDLE, Phase.BETS) and box.status is BoxStatus.ACTIVE:
        return cards_text(box.cards) if box.cards else Text(f"{BACK}  {BACK}", style="dim")
    return cards_text(box.cards) if box.cards else None


def bank_cards(engine: MaderoTable) -> Text:
    if engine.phase in (Phase.IDLE, Phase.BETS):
        return Text("")
    # The bank's cards stay face down until the showdown (§30), even when a training deck knows them.
    cards = engine.bank_cards if engine.phase in (Phase.SHOWDOWN, Phase.SETTLEMENT) else []
    return cards_text([*cards, *([None] * (2 - len(cards)))])


def board_texts(engine: MaderoTable, lang: str) -> tuple[tuple[Text, ...], Text]:
    """The community cards (the panel spaces them to its width), and the burn cards when the
    engine knows them (a training deck burns virtual cards; at a live table the burns stay
    physical and unkeyed)."""
    community = card_texts(engine.board, slots=5) if engine.round_open else ()
    burns = engine.burns
    line = Text("")
    if burns:
        line = Text(t("mad_burns", lang) + ": ", style="dim")
        line.append_text(cards_text(burns))
    return community, line


def card_target_label(target: tuple[str, int | None] | None, lang: str) -> str:
    """Whose card the croupier keys next, as the engine says (``expected_card``)."""
    if target is None:
        return ""
    where, box = target
    if where == "box":
        return t("mad_card_for_box", lang, box=box)
    return t(f"mad_card_for_{where}", lang)
