"""Journal entries in the croupier's words: the table's recent-events line and the recall screen."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal

from shared.cards import Card
from shared.engine import TABLE_CONFIG
from shared.journal import Event
from shared.money import fmt_money, to_money
from tui_common.i18n import staff_event_text, t, table_config_text

JACKPOT_LINE_KEYS = {
    "escalera_real": "mad_jp_royal",
    "escalera_de_color": "mad_jp_straight_flush",
    "poker": "mad_jp_poker",
    "full": "mad_jp_full",
    "color": "mad_jp_color",
    "escalera": "mad_jp_straight",
    "carta_magica": "mad_jp_magic",
    "jugador_afortunado": "mad_jp_lucky",
}
"""The short name of each Jackpot line (``JackpotLine`` values), as the paytable shows it."""
def jackpot_lines_text(lines: Iterable[tuple[str, Decimal]], lang: str) -> str:
    """«Full 200 + Carta Mágica 60»: each Jackpot line a box was paid (§55), for the croupier."""
    return " + ".join(f"{t(JACKPOT_LINE_KEYS[line], lang)} {fmt_money(paid, lang=lang)}" for line, paid in lines)


_DECISIONS = {"voy": "mad_ev_voy", "fold": "mad_ev_fold", "check": "mad_ev_check", "bet": "mad_ev_bet"}
_STREET_BET = {1: "mad_bet_flop", 2: "mad_bet_turn", 3: "mad_bet_river"}


def _cards(texts: list[str]) -> str:
    return " ".join(Card.parse(c).display for c in texts)


def _who(event: Event) -> str:
    if not event.staff_id:
        return ""
    return f" · {event.staff_id}" + (f" ({event.role})" if event.role and event.role != event.staff_id else "")


def describe(event: Event, lang: str = "es", *, with_actor: bool | None = True, numbered: bool = True) -> str:
    """One line for one entry; types this module does not know are shown raw (never hidden).

    ``with_actor``: True signs every entry with who made it; None only the entries not made
    by the croupier or trainee (the table's log line, where the croupier made most of them);
    False none.
    """
    p = event.payload
    kind = event.type
    if kind == "round_started":
        text = t("mad_ev_round_started", lang, number=p["round"], deck=p["deck"])
    elif kind == "bet_placed":
        if p["bet"] == "jackpot":
            amount = t("mad_credits", lang, n=p["amount"])
        else:
            amount = fmt_money(to_money(p["amount"]), lang=lang)
        text = t("mad_ev_bet_placed", lang, box=p["box"], bet=t(f"mad_bet_{p['bet']}", lang), amount=amount)
    elif kind == "bets_closed":
        text = t("mad_ev_bets_closed", lang)
        if p.get("carta_magica"):
            text += f" · {t('mad_magic_card', lang)} {Card.parse(p['carta_magica']).display}"
        if p.get("jugador_afortunado") is not None:
            text += f" · {t('mad_lucky_box', lang, box=p['jugador_afortunado'])}"
    elif kind == "decision":
        what = t(_DECISIONS[p["action"]], lang, bet=t(_STREET_BET[p["round"]], lang))
        amount = to_money(p["amount"])
        text = t("mad_ev_decision", lang, box=p["box"], what=what) + (f" ({fmt_money(amount, lang=lang)})" if amount else "")
    elif kind == "card_keyed":
        where = t("mad_ev_to_box", lang, box=p["box"]) if p["target"] == "box" else t(f"mad_ev_to_{p['target']}", lang)
        text = t("mad_ev_card", lang, card=Card.parse(p["card"]).display, where=where)
    elif kind == "community_dealt":
        text = t("mad_ev_dealt", lang, cards=_cards(p["cards"]), burns=_cards(p["burn"]) or "—")
    elif kind == "entry_undone":
        text = t("mad_ev_undone", lang, seq=p["seq"])
    elif kind == "round_settled":
        totals = p["settlement"]["totals"]
        # «devolvió»: the stakes of tied bets, as on the settlement screen (the journal's
        # "returned" also counts the stakes winning bets keep).
        pushed = sum((to_money(r["stake"]) for b in p["settlement"]["boxes"] for r in b["bets"]
                      if r["outcome"] == "push"), to_money(0))
        text = t("mad_ev_settled", lang, paid=fmt_money(to_money(totals["paid"]), lang=lang),
                 collected=fmt_money(to_money(totals["collected"]), lang=lang), returned=fmt_money(pushed, lang=lang))
    elif kind == "round_voided" and p.get("arbitration"):
        text = t("mad_ev_arbitrated", lang, article=p["article"], second=p["second_supervisor"], reason=p["reason"])
    elif kind == "round_voided":
        text = t("mad_ev_voided", lang, article=p["article"], reason=p["reason"])
    elif kind == "dead_hand":
        text = t("mad_ev_dead_hand", lang, box=p["box"], article=p["article"], reason=p["reason"])
    elif kind == "collusion":
        text = t("mad_ev_collusion", lang, box=p["box"], article=p["article"], reason=p["reason"])
    elif kind == "community_error" and "reordered" in p:
        text = t(f"mad_ev_flop_reordered_{p['reordered']}", lang, article=p["article"], reason=p["reason"])
    elif kind == "community_error":
        text = t("mad_ev_community", lang, article=p["article"], cards=_cards(p["removed"] + p["exposed"]) or "—",
                 reason=p["reason"])
    elif kind == "card_corrected":
        text = t("mad_ev_corrected", lang, old=Card.parse(p["old"]).display, new=Card.parse(p["new"]).display,
                 reason=p["reason"])
    elif kind == "adjustment":
        amount = to_money(p["amount"])
        text = t("mad_ev_adjustment_paid" if amount > 0 else "mad_ev_adjustment_collected", lang, box=p["box"],
                 amount=fmt_money(abs(amount), lang=lang), article=p["article"], reason=p["reason"])
    elif kind == "boxes_grouped":
        text = t("mad_ev_grouped", lang, boxes=", ".join(map(str, p["boxes"])), seeing=p["seeing"])
    elif (staff := staff_event_text(kind, p, lang)) is not None:
        text = staff
    elif kind == TABLE_CONFIG:
        text = table_config_text(p, lang)
    else:
        text = f"{kind} {p}"
    signed = with_actor or (with_actor is None and event.role not in ("croupier", "trainee", None))
    return f"{f'#{event.seq} ' if numbered else ''}{text}{_who(event) if signed else ''}"


def _bet_result(bet: dict, lang: str) -> str:
    name = t(f"mad_bet_{bet['bet']}", lang)
    if bet["outcome"] == "win":
        # A Jackpot names each line it paid: the hand and the special prizes (§55).
        lines = jackpot_lines_text(((x["line"], to_money(x["paid"])) for x in bet.get("lines", ())), lang)
        return f"{name} +{fmt_money(to_money(bet['paid']), lang=lang)}" + (f" ({lines})" if lines else "")
    if bet["outcome"] == "push":
        return f"{name} {t('mad_returned_short', lang)}"
    return f"{name} −{fmt_money(to_money(bet['collected']), lang=lang)}"


def settlement_lines(settlement: dict, lang: str = "es") -> list[str]:
    """Each box of a journaled settlement: its hand, result and every bet's outcome."""
    outcome = {"win": "mad_wins", "lose": "mad_loses", "push": "mad_tie"}
    status = {"folded": "mad_status_retired", "dead": "mad_status_dead", "voided": "mad_status_void"}
    lines = []
    for box in settlement["boxes"]:
        if box["main"]:
            hand = box["hand_en" if lang == "en" else "hand_es"]
            what = f"{hand} — {t(outcome[box['main']], lang)}"
        else:
            what = t(status.get(box["status"], "mad_status_active"), lang)
        bets = ", ".join(_bet_result(b, lang) for b in box["bets"])
        lines.append(f"{t('mad_amount_for_box', lang, box=box['box'])}: {what}: {bets}")
    return lines


def describe_with_time(event: Event, lang: str = "es") -> str:
    """The recall form: local time first (a dispute is about when as much as what), and a
    settlement with every box's bets and payouts under it."""
    when = datetime.fromisoformat(event.ts).astimezone().strftime("%H:%M:%S")
    text = f"{when}  {describe(event, lang)}"
    if event.type == "round_settled":
        text += "".join(f"\n{' ' * 12}{line}" for line in settlement_lines(event.payload["settlement"], lang))
    return text
