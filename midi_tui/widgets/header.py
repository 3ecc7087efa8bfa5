"""The three header lines: the table and its limits; who deals, the coup and the phase; the shoe."""

from __future__ import annotations

from datetime import datetime

from rich.text import Text
from tui_common.widgets.quiet_static import QuietStatic

from shared.midi.table import MidiTable, Phase
from shared.money import fmt_money
from tui_common.i18n import t

PHASE_KEYS = {
    Phase.NO_SHOE: "midi_phase_no_shoe",
    Phase.BURN: "midi_phase_burn",
    Phase.BETS: "midi_phase_bets",
    Phase.CARDS: "midi_phase_cards",
    Phase.RESULT: "midi_phase_result",
    Phase.SHOE_END: "midi_phase_shoe_end",
}


class TableHeader(QuietStatic):
    """Table, limits, payout mode (line 1); croupier on duty, clock, coup, phase, sabot holder
    (line 2); the shoe: cards left, cut card, burn (line 3). Three short lines, not two long
    ones: a long line wraps at 120 columns and pushes the next out of the header."""

    DEFAULT_CSS = "TableHeader { height: 3; padding: 0 1; background: $boost; }"

    def show(self, engine: MidiTable, lang: str, now: datetime | None = None, masked: bool = False) -> None:
        """``masked``: a graded table's question is waiting (the cut card and the burn count hidden)."""
        cfg = engine.config
        cur = cfg.currency
        line = Text()
        line.append("MIDI PUNTO Y BANCA", style="bold")
        line.append(f"  {t('midi_table', lang)} {cfg.table_id}  {cur}  ")
        line.append(t("midi_limits", lang, minimum=fmt_money(cfg.minimum, lang=lang), maximum=fmt_money(cfg.maximum, lang=lang),
                      tie=fmt_money(cfg.tie_maximum, lang=lang)))
        mode = "midi_mode_half_six" if cfg.banca_mode == "half-six" else "midi_mode_commission"
        line.append("   " + t(mode, lang), style="bold")
        line.append("\n")
        croupier = engine.croupier
        who = croupier.staff_id if croupier is not None else "—"
        line.append(f"{t('midi_croupier', lang)} {who}")
        if now is not None:
            line.append(f"   {now:%H:%M}")
        line.append(f"   {t('midi_coup', lang)} {engine.coup_no}   ")
        line.append(t(PHASE_KEYS[engine.phase], lang).upper(), style="bold")
        holder = engine.sabot_holder
        sabot = t("midi_sabot_croupier", lang) if holder is None else t("midi_sabot_box", lang, box=engine.spot_label(holder))
        if engine.supervisor_dealing:
            sabot = t("midi_sabot_supervisor", lang)
        line.append(f"   {sabot}\n")
        shoe = engine.shoe
        if shoe is None:
            line.append(t("midi_no_shoe", lang))
        else:
            line.append(t("midi_shoe_line", lang, number=shoe.number, decks=shoe.decks, left=shoe.cards_left))
            cut = "?" if masked else t("yes", lang) if shoe.cut_card_out else t("no", lang)
            line.append(f" · {t('midi_cut', lang)}: ")
            line.append(cut, style="bold reverse" if shoe.cut_card_out and not masked else "")
            if shoe.burn_card is not None and not masked:
                if shoe.burned is None:
                    text = t("midi_burn_todo", lang, card=shoe.burn_card.display, n=shoe.burn_card.rank.burn_count)
                else:
                    text = t("midi_burn", lang, card=shoe.burn_card.display, burned=shoe.burned)
                line.append(" · " + text)
        self.show_text(line)
