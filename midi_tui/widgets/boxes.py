"""The 9 boxes (PUNTO and BANCA bets) and the TIE departments 1–9, with what to pay once decided."""

from __future__ import annotations

from rich.text import Text
from tui_common.widgets.quiet_static import QuietStatic

from shared.midi.payouts import BetKind, Outcome, SettlementLine
from shared.midi.table import MidiTable
from shared.money import ZERO, fmt_money
from tui_common.i18n import t

CELL = 11
"""Widest column of a box; narrower when 9 columns of 11 do not fit (100 columns: 9)."""
LABEL = 12
ROW_STYLE = {BetKind.PUNTO: "blue", BetKind.BANCA: "red", BetKind.TIE: "green"}
ROW_KEY = {BetKind.PUNTO: "midi_punto", BetKind.BANCA: "midi_banca", BetKind.TIE: "midi_tie_dept"}


def _fit(text: str, width: int) -> str:
    # Never cut an amount: one that is wider than its column pushes the row right instead.
    return " " + text if len(text) >= width else text.rjust(width)


class BoxesTable(QuietStatic):
    """One column per spot; rows PUNTO, BANCA, TIE (department = box number), the
    commission tally at a commission-tally table (Art. 5 §3: what each box owes, this
    coup's share included once decided), then the net per box once the coup is decided.
    Marks: ◆ sabot, ▲ turns PUNTO's cards, ▸ and reverse video the box selected for the next bet."""

    DEFAULT_CSS = "BoxesTable { border: round $primary; height: 9; padding: 0 1; }"

    _shown_for: tuple | None = None

    def on_resize(self) -> None:
        # The columns' width follows the terminal's: draw again at the new size.
        if self._shown_for is not None:
            self.show(*self._shown_for)

    def show(self, engine: MidiTable, selected: int, lang: str, hide_settlement: bool = False) -> None:
        """``hide_settlement``: a graded table's question is waiting (the stakes only, no ▲)."""
        self._shown_for = (engine, selected, lang, hide_settlement)
        width = self.content_size.width
        spots = engine.spots
        cell = max(8, min(CELL, (width - LABEL) // len(spots))) if width else CELL

        settlement = None if hide_settlement else engine.settlement
        by_bet: dict[tuple[int, BetKind], SettlementLine] = {}
        for line in settlement or ():
            by_bet[(line.spot, line.kind)] = line
        out = Text()
        out.append(t("midi_box", lang).ljust(LABEL), style="bold")
        reveal = engine.reveal_box if engine.phase.value in ("cards", "result") and not hide_settlement else None
        for spot in spots:
            mark = ("◆" if spot == engine.sabot_holder else "") + ("▲" if spot == reveal else "")
            # ▸ as well as reverse video: the selection must read on a monochrome terminal too.
            label = f"{'▸' if spot == selected else ''}{mark}{engine.spot_label(spot)}"
            out.append(" " * (cell - len(label)))
            out.append(label, style="bold reverse" if spot == selected else "bold")
        out.append("\n")
        for kind in BetKind:
            out.append(t(ROW_KEY[kind], lang).ljust(LABEL), style=f"bold {ROW_STYLE[kind]}")
            for spot in spots:
                stake = engine.bets.get(spot, {}).get(kind)
                line = by_bet.get((spot, kind))
                if line is not None:
                    text, style = _outcome(line, lang)
                    out.append(_fit(text, cell), style=style)
                elif stake:
                    out.append(_fit(fmt_money(stake, lang=lang), cell), style="bold")
                else:
                    out.append(_fit("·", cell), style="dim")
            out.append("\n")
        config = engine.config
        if config.banca_mode == "commission" and config.commission_handling == "tally":
            out.append(t("midi_commission_row", lang).ljust(LABEL), style="bold red")
            for spot in spots:
                pending = sum((line.commission for line in settlement or () if line.spot == spot), ZERO)
                owed = engine.commission_tally.get(spot, ZERO) + pending
                if owed:
                    out.append(_fit(fmt_money(owed, lang=lang), cell), style="bold yellow" if pending else "bold")
                else:
                    out.append(_fit("·", cell), style="dim")
            out.append("\n")
        if settlement is not None:
            out.append(t("midi_net", lang).ljust(LABEL), style="bold")
            for spot in spots:
                lines = [line for line in settlement if line.spot == spot]
                if not lines:
                    out.append(_fit("", cell))
                    continue
                net = sum((line.net for line in lines), ZERO)
                style = "bold green" if net > 0 else "bold red" if net < 0 else "bold"
                out.append(_fit(("+" if net > 0 else "") + fmt_money(net, lang=lang), cell), style=style)
            out.append("\n")
            out.append_text(_totals(settlement, lang))
        else:
            total_bet = sum((a for bets in engine.bets.values() for a in bets.values()), ZERO)
            if total_bet:
                out.append(t("midi_total_bet", lang, amount=fmt_money(total_bet, lang=lang)), style="dim")
        self.show_text(out)


def _outcome(line: SettlementLine, lang: str) -> tuple[str, str]:
    if line.outcome is Outcome.WIN:
        mark = "*" if line.rounded else ""
        return f"+{fmt_money(line.paid, lang=lang)}{mark}", "bold green"
    if line.outcome is Outcome.LOSE:
        return f"✗{fmt_money(line.stake, lang=lang)}", "red"
    return f"={fmt_money(line.stake, lang=lang)}", "yellow"


def _totals(settlement: list[SettlementLine], lang: str) -> Text:
    pay = sum((line.paid for line in settlement), ZERO)
    collect = sum((line.collected for line in settlement), ZERO)
    returned = sum((line.stake for line in settlement if line.outcome in (Outcome.PUSH, Outcome.VOID)), ZERO)
    out = Text(t("midi_totals", lang, pay=fmt_money(pay, lang=lang), collect=fmt_money(collect, lang=lang), returned=fmt_money(returned, lang=lang)),
               style="bold")
    commission = sum((line.commission for line in settlement), ZERO)
    if commission:
        out.append("   " + t("midi_commission_total", lang, amount=fmt_money(commission, lang=lang)), style="yellow")
    for line in settlement:
        if line.rounded:
            out.append("   *" + t("midi_rounded", lang, box=line.spot, exact=fmt_money(line.exact, lang=lang),
                                     paid=fmt_money(line.paid, lang=lang)), style="yellow")
    return out

