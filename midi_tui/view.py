"""From the Midi engine's state to what each region shows: formatting only, no rule.

Every decision (the totals, who draws, who wins, what each bet pays, which box turns
PUNTO's cards) is the engine's; this module turns its answers into the view models the
widgets draw, in the interface language. A graded table's question hides what would
answer it (``masked``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal

from shared.baccarat import Winner, is_natural
from shared.midi.payouts import BetKind, Outcome, SettlementLine
from shared.midi.table import MidiTable, Phase
from shared.money import ZERO, fmt_money, fmt_signed
from shared.record import record
from tui_common.i18n import t

PHASE_KEYS = {
    Phase.NO_SHOE: "midi_phase_no_shoe",
    Phase.BURN: "midi_phase_burn",
    Phase.BETS: "midi_phase_bets",
    Phase.CARDS: "midi_phase_cards",
    Phase.RESULT: "midi_phase_result",
    Phase.SHOE_END: "midi_phase_shoe_end",
}
ROW_STYLE = {BetKind.PUNTO: "blue", BetKind.BANCA: "red", BetKind.TIE: "green"}
ROW_KEY = {BetKind.PUNTO: "midi_punto", BetKind.BANCA: "midi_banca", BetKind.TIE: "midi_tie_dept"}
HANDS = ("punto", "banca")


# --- header --------------------------------------------------------------------------------

@record
class ShoeLine:
    text: str
    """The shoe's number, decks and cards left."""
    cut_label: str
    cut: str
    cut_out: bool
    """Shown in reverse video: the cut card came out."""
    burn: str
    """The burn card and the cards it burns ("" when hidden or none)."""


@record
class HeaderView:
    table: str
    limits: str
    mode: str
    croupier: str
    clock: str
    coup: str
    phase: str
    sabot: str
    shoe: ShoeLine | None
    """None: no shoe yet (``no_shoe`` says so)."""
    no_shoe: str


def header_view(engine: MidiTable, lang: str, now: datetime | None = None, masked: bool = False) -> HeaderView:
    """``masked``: the cut card and the burn count hidden (a graded question waits)."""
    cfg = engine.config
    croupier = engine.croupier
    holder = engine.sabot_holder
    if engine.supervisor_dealing:
        sabot = t("midi_sabot_supervisor", lang)
    elif holder is None:
        sabot = t("midi_sabot_croupier", lang)
    else:
        sabot = t("midi_sabot_box", lang, box=engine.spot_label(holder))
    shoe = engine.shoe
    shoe_line = None
    if shoe is not None:
        burn = ""
        if shoe.burn_card is not None and not masked:
            burn = (t("midi_burn_todo", lang, card=shoe.burn_card.display, n=shoe.burn_card.rank.burn_count)
                    if shoe.burned is None else t("midi_burn", lang, card=shoe.burn_card.display, count=shoe.burned))
        shoe_line = ShoeLine(
            t("midi_shoe_line", lang, number=shoe.number, decks=shoe.decks, left=shoe.cards_left),
            t("midi_cut", lang),
            "?" if masked else t("yes", lang) if shoe.cut_card_out else t("no", lang),
            shoe.cut_card_out and not masked,
            burn,
        )
    return HeaderView(
        table=f"{t('midi_table', lang)} {cfg.table_id}  {cfg.currency}",
        limits=t("midi_limits", lang, minimum=cfg.minimum, maximum=cfg.maximum,
                 tie=cfg.tie_maximum),
        mode=t("midi_mode_half_six" if cfg.banca_mode == "half-six" else "midi_mode_commission", lang),
        croupier=f"{t('midi_croupier', lang)} {croupier.staff_id if croupier is not None else '—'}",
        clock=f"{now:%H:%M}" if now is not None else "",
        coup=f"{t('midi_coup', lang)} {engine.coup_no}",
        phase=t(PHASE_KEYS[engine.phase], lang).upper(),
        sabot=sabot,
        shoe=shoe_line,
        no_shoe=t("midi_no_shoe", lang),
    )


# --- hands ---------------------------------------------------------------------------------

@record
class HandView:
    cards: tuple[tuple[int, str], ...]
    """(number in dealing order, 1–6, the card as shown): the number is what a supervisor
    types to correct a card."""
    next_here: bool
    """The next card goes to this hand."""
    total: int | None
    """The engine's total of the cards keyed so far (None: no card, or hidden)."""
    note: str
    winner: bool


def hand_views(engine: MidiTable, lang: str, masked: bool = False, totals: bool = True) -> dict[str, HandView]:
    """PUNTO's and BANCA's hands. ``masked``: totals, notes and where the next card goes
    would answer the graded question; ``totals=False``: the totals alone are hidden (a
    graded coup's cards are being dealt, its totals are asked once it is decided)."""
    result = None if masked else engine.result
    called = None if masked else engine.card_called_for
    # The engine splits the coup's cards into hands; their dealing numbers are found by
    # identity in the coup's card list (no rule is worked out here).
    number = {id(card): i + 1 for i, card in enumerate(engine.cards)}
    hand_totals = dict(zip(HANDS, engine.totals, strict=True))
    views = {}
    for hand, hand_cards in zip(HANDS, (engine.punto_cards, engine.banca_cards), strict=True):
        note = ""
        winner = False
        if result is not None:
            hand_total = result.punto_total if hand == "punto" else result.banca_total
            drew = result.punto_drew if hand == "punto" else result.banca_drew
            winner = result.winner.value == hand
            # A natural coup (Art. 6 §2) is the one hand of 8 or 9 on two cards, or both.
            if result.natural and is_natural(hand_total):
                parts = [t("midi_natural", lang)]
            elif result.natural:
                # The other hand's natural ended the coup: this one did not stand, it could not draw.
                parts = [t("midi_no_draw_natural", lang)]
            else:
                parts = [t("midi_drew", lang) if drew else t("midi_stood", lang, n=hand_total)]
            if winner:
                parts.append(t("midi_wins", lang))
            elif result.winner is Winner.TIE:
                parts.append(t("midi_tie_word", lang))
            note = " · ".join(parts)
        views[hand] = HandView(
            tuple((number[id(card)], card.display) for card in hand_cards),
            called == hand,
            None if masked or not totals else hand_totals[hand],
            note,
            winner,
        )
    return views


# --- boxes ---------------------------------------------------------------------------------

@record
class Cell:
    text: str
    style: str


@record
class BoxRow:
    label: str
    style: str
    cells: tuple[Cell, ...]


@record
class BoxesView:
    title: str
    spots: tuple[Cell, ...]
    """Each column's head: marks and the box's label (the selected one in reverse video)."""
    rows: tuple[BoxRow, ...]
    totals: tuple[Cell, ...]
    """The line under the rows: what to pay, collect and return, or the total bet."""


def _outcome(line: SettlementLine, lang: str) -> Cell:
    if line.outcome is Outcome.WIN:
        return Cell(fmt_signed(line.paid, lang), "bold green")
    if line.outcome is Outcome.LOSE:
        return Cell(f"✗{fmt_money(line.stake, lang=lang)}", "red")
    return Cell(f"={fmt_money(line.stake, lang=lang)}", "yellow")


def _totals(settlement: list[SettlementLine], lang: str) -> tuple[Cell, ...]:
    pay = sum((line.paid for line in settlement), ZERO)
    collect = sum((line.collected for line in settlement), ZERO)
    returned = sum((line.stake for line in settlement if line.outcome in (Outcome.PUSH, Outcome.VOID)), ZERO)
    out = [Cell(t("midi_totals", lang, pay=pay, collect=collect, returned=returned),
                "bold")]
    commission = sum((line.commission for line in settlement), ZERO)
    if commission:
        out.append(Cell("   " + t("midi_commission_total", lang, amount=commission), "yellow"))
    return tuple(out)


def boxes_view(engine: MidiTable, selected: int, lang: str, masked: bool = False) -> BoxesView:
    """``masked``: a graded table's question waits (the stakes only, no ▲, no settlement)."""
    settlement = None if masked else engine.settlement
    rows = _bet_rows(engine, settlement, lang)
    commission = _commission_row(engine, settlement, lang)
    if commission is not None:
        rows.append(commission)
    if settlement is not None:
        rows.append(_net_row(engine.spots, settlement, lang))
        totals = _totals(settlement, lang)
    else:
        total_bet = sum((a for bets in engine.bets.values() for a in bets.values()), ZERO)
        totals = (Cell(t("midi_total_bet", lang, amount=total_bet), "dim"),) if total_bet else ()
    return BoxesView(t("midi_box", lang), _box_heads(engine, selected, masked), tuple(rows), totals)


def _box_heads(engine: MidiTable, selected: int, masked: bool) -> tuple[Cell, ...]:
    """Each box's label, marked ◆ for the sabot's holder and ▲ for the box turning PUNTO's cards."""
    reveal = engine.reveal_box if engine.phase in (Phase.CARDS, Phase.RESULT) and not masked else None
    heads = []
    for spot in engine.spots:
        mark = ("◆" if spot == engine.sabot_holder else "") + ("▲" if spot == reveal else "")
        # ▸ as well as reverse video: the selection must read on a monochrome terminal too.
        heads.append(Cell(f"{'▸' if spot == selected else ''}{mark}{engine.spot_label(spot)}",
                          "bold reverse" if spot == selected else "bold"))
    return tuple(heads)


def _bet_cell(stake: Decimal | None, line: SettlementLine | None, lang: str) -> Cell:
    """One bet of one box: its outcome once settled, else its stake."""
    if line is not None:
        return _outcome(line, lang)
    if stake:
        return Cell(fmt_money(stake, lang=lang), "bold")
    return Cell("·", "dim")


def _bet_rows(engine: MidiTable, settlement: list[SettlementLine] | None, lang: str) -> list[BoxRow]:
    """One row per kind of bet (PUNTO, BANCA, EMPATE), a cell per box."""
    by_bet = {(line.spot, line.kind): line for line in settlement or ()}
    return [
        BoxRow(t(ROW_KEY[kind], lang), f"bold {ROW_STYLE[kind]}", tuple(
            _bet_cell(engine.bets.get(spot, {}).get(kind), by_bet.get((spot, kind)), lang) for spot in engine.spots))
        for kind in BetKind
    ]


def _commission_row(engine: MidiTable, settlement: list[SettlementLine] | None, lang: str) -> BoxRow | None:
    """What each box owes in commission, on a table that tallies it (this coup's in yellow)."""
    config = engine.config
    if config.banca_mode != "commission" or config.commission_handling != "tally":
        return None
    cells = []
    for spot in engine.spots:
        pending = sum((line.commission for line in settlement or () if line.spot == spot), ZERO)
        owed = engine.commission_tally.get(spot, ZERO) + pending
        cells.append(Cell(fmt_money(owed, lang=lang), "bold yellow" if pending else "bold") if owed else Cell("·", "dim"))
    return BoxRow(t("midi_commission_row", lang), "bold red", tuple(cells))


def _net_row(spots: Sequence[int], settlement: list[SettlementLine], lang: str) -> BoxRow:
    """Each box's net result of the coup: green won, red lost."""
    cells = []
    for spot in spots:
        lines = [line for line in settlement if line.spot == spot]
        if not lines:
            cells.append(Cell("", ""))
            continue
        net = sum((line.net for line in lines), ZERO)
        style = "bold green" if net > 0 else "bold red" if net < 0 else "bold"
        cells.append(Cell(fmt_signed(net, lang), style))
    return BoxRow(t("midi_net", lang), "bold", tuple(cells))
