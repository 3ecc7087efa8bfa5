"""What the croupier does or announces now, in the regulation's words (Art. 7–9)."""

from __future__ import annotations

from dataclasses import dataclass

from shared.madero.table.events import (
    BetsClosed,
    CardKeyed,
    CommunityDealt,
    CommunityError,
    Decision,
)
from shared.madero.table.state import BETTING_ROUND, ROUND_ARTICLE, Phase
from shared.madero.table.supervisor import FLOP_ORDER, MaderoSupervision
from shared.money import fmt_money


@dataclass(frozen=True)
class Prompt:
    """What the croupier does or announces now, in the regulation's words."""

    es: str
    en: str
    box: int | None = None
    """The box whose turn it is, if any."""
    article: str = ""

    def text(self, lang: str = "es") -> str:
        return self.en if lang == "en" else self.es




class MaderoAnnouncements(MaderoSupervision):
    """What the croupier does or says now."""

    @property
    def prompt(self) -> Prompt:
        r = self.r
        if r is None or r.phase is Phase.BETS:
            if r is not None and any(b.ante > 0 for b in r.boxes.values()):
                return Prompt("Hagan sus apuestas… «No va más» para cerrarlas",
                              "Place your bets… «No va más» closes them", article="Art. 7 §23–24")
            return Prompt("Hagan sus apuestas", "Place your bets", article="Art. 7 §23")
        box = self.to_act
        if r.phase is Phase.FIRST:
            return Prompt(f"Casilla {box}: ¿Voy o me retiro?", f"Box {box}: play (voy) or fold?",
                          box, "Art. 8 §26")
        if r.phase in (Phase.SECOND, Phase.THIRD):
            name = "Turn" if r.phase is Phase.SECOND else "River"
            return Prompt(f"Casilla {box}: ¿Apuesta {name} o paso?", f"Box {box}: bet {name} or check (paso)?",
                          box, ROUND_ARTICLE[BETTING_ROUND[r.phase]])
        last = self.round_log[-1].body if self.round_log else None
        if r.phase is Phase.FLOP and isinstance(last, CommunityError) and last.reordered is not None:
            # §39.2 put right before the flop is turned: how to, until the flop is turned.
            return Prompt(*FLOP_ORDER[last.reordered], article="Art. 10 §39.2")
        if r.phase in (Phase.FLOP, Phase.TURN, Phase.RIVER):
            what_es = {"flop": "las tres cartas del flop", "turn": "la cuarta carta comunitaria",
                       "river": "la quinta carta comunitaria"}[r.phase.value]
            what_en = {"flop": "the three flop cards", "turn": "the fourth community card",
                       "river": "the fifth community card"}[r.phase.value]
            article = {"flop": "Art. 8 §27", "turn": "Art. 8 §28", "river": "Art. 8 §29"}[r.phase.value]
            if r.no_burn_next:
                return Prompt(f"Mezcle, corte y reparta de nuevo {what_es}, sin quemar",
                              f"Shuffle, cut and deal {what_en} again, without a burn", article="Art. 10 §39.5")
            return Prompt(f"Queme una carta y descubra {what_es}", f"Burn one card and turn {what_en}",
                          article=article)
        if r.phase is Phase.SHOWDOWN:
            expected = self.expected_card()
            assert expected is not None  # the showdown lasts while a card is expected (fold.advance)
            target, n = expected
            if target == "bank":
                return Prompt("Descubra las dos cartas de la banca", "Turn the bank's two cards", article="Art. 9 §30")
            return Prompt(f"Casilla {n}: descubra sus dos cartas", f"Box {n}: turn the two cards", n, "Art. 9 §30")
        s = self.pending_settlement()
        if s.bank is not None:
            return Prompt(s.bank_es, s.bank_en, article="Art. 9 §32")
        return Prompt("Retire las apuestas perdidas y confirme", "Collect the lost bets and confirm",
                      article="Art. 9 §36")

    @property
    def announcement(self) -> Prompt | None:
        """What the croupier says for the last entry of the round ("No va más", "Paso"…)."""
        r = self.r
        if r is None or not self.round_log:
            return None
        last = self.round_log[-1].body
        if isinstance(last, BetsClosed):
            return Prompt("No va más", "No more bets", article="Art. 7 §24")
        if isinstance(last, Decision):
            n = last.box
            amount = fmt_money(last.amount)
            name = {1: "Flop", 2: "Turn", 3: "River"}[last.round]
            es, en = {
                "fold": ("me retiro", "folds"),
                "voy": (f"voy — Flop {amount}", f"plays — Flop {amount}"),
                "check": ("paso", "checks (paso)"),
                "bet": (f"{name} {amount}", f"{name} {amount}"),
            }[last.action]
            return Prompt(f"Casilla {n}: {es}", f"Box {n}: {en}", n, ROUND_ARTICLE[last.round])
        if isinstance(last, (CardKeyed, CommunityDealt)) and r.board and r.phase not in (Phase.SHOWDOWN, Phase.SETTLEMENT):
            shown = " ".join(c.display for c in r.board)
            return Prompt(f"Mesa: {shown}", f"Board: {shown}", article="Art. 8 §27–29")
        return None
