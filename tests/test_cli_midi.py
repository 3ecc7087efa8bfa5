"""End-to-end runs of the ``midi-tui`` supervisor subcommands, as a separate process."""

import json
import subprocess
import sys

import pytest


def midi(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "midi_tui.cli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def settle(coup: dict, *args: str) -> dict:
    out = midi("settle", "--json", *args, stdin=json.dumps(coup))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


BOXES = [{"box": 1, "punto": 100}, {"box": 2, "banca": 30}, {"box": 3, "tie": 10}]


def test_settle_punto_natural():
    data = settle({"punto": ["9", "K"], "banca": ["7", "K"], "boxes": BOXES})
    assert (data["winner"], data["punto_total"], data["banca_total"]) == ("punto", 9, 7)
    assert [b["net"] for b in data["boxes"]] == [
        {"punto": 100, "banca": 0, "tie": 0}, {"punto": 0, "banca": -30, "tie": 0}, {"punto": 0, "banca": 0, "tie": -10},
    ]


BANCA_SIX = {"punto": ["2", "3", "K"], "banca": ["3", "3"]}


def test_settle_pays_the_half_on_six_and_the_commission_exactly():
    half = settle({**BANCA_SIX, "boxes": BOXES})
    assert half["winner"] == "banca" and half["banca_total"] == 6 and half["banca_six"]
    assert half["boxes"][1]["net"]["banca"] == 15  # 50 % of 30, exactly
    assert "exact" not in half["boxes"][1] and "commission" not in half["boxes"][1]
    # Commission mode, the shipped handling: paid 1 a 1, the exact 5 % goes to the tally.
    tally = settle({**BANCA_SIX, "boxes": BOXES}, "--mode", "commission")
    assert tally["boxes"][1]["net"]["banca"] == 30
    assert tally["boxes"][1]["exact"] == {"banca": "28.50"} and tally["boxes"][1]["commission"] == "1.50"
    assert tally["boxes"][0]["commission"] == "0" and "exact" not in tally["boxes"][0]
    deduct = settle({**BANCA_SIX, "boxes": [{"box": 2, "banca": 40}]}, "--mode", "commission", "--commission", "deduct")
    assert deduct["boxes"][0]["net"]["banca"] == 38 and deduct["boxes"][0]["commission"] == "0"
    assert "exact" not in deduct["boxes"][0]


@pytest.mark.parametrize("args, banca, article, words", [
    ((), 25, "Art. 5 §2", "número par de fichas"),  # the half of 25 is 12.5
    (("--chip", "10"), 10, "Art. 5 §2", "de 20 en 20"),  # the half of 10 is 5: no chip of 10 pays it
    (("--mode", "commission", "--commission", "deduct"), 30, "Art. 5 §3", "múltiplo de 20 fichas"),  # 95 % of 30
    (("--mode", "commission", "--commission", "deduct", "--chip", "5"), 20, "Art. 5 §3", "de 100 en 100"),
])
def test_settle_refuses_a_coup_it_cannot_pay_exactly(args, banca, article, words):
    out = midi("settle", *args, stdin=json.dumps({**BANCA_SIX, "boxes": [{"box": 2, "banca": banca}]}))
    assert out.returncode == 2 and out.stdout == ""
    assert article in out.stderr and words in out.stderr


def test_settle_text_shows_the_exact_amount_beside_the_paid_one():
    out = midi("settle", "--mode", "commission", stdin=json.dumps({**BANCA_SIX, "boxes": BOXES})).stdout
    assert "+ARS 30 (exacto 28,5)" in out and "(1,5) va a la cuenta del casillero" in out


def test_settle_tie_pays_eight_and_returns_punto_and_banca():
    data = settle({"punto": ["9", "K"], "banca": ["4", "5"],
                   "boxes": [{"box": 1, "punto": 100, "tie": 10}, {"box": 2, "banca": 50}]})
    assert data["winner"] == "tie"
    assert data["boxes"][0]["net"] == {"punto": 0, "banca": 0, "tie": 80}
    assert data["boxes"][1]["net"] == {"punto": 0, "banca": 0, "tie": 0}


@pytest.mark.parametrize(
    "coup, fragment",
    [
        ({"punto": ["9", "K"], "banca": ["7", "K", "2"], "boxes": BOXES}, "tercera carta"),  # no draw after a natural
        ({"punto": ["4", "K"], "banca": ["7", "K"], "boxes": BOXES}, "no está completo"),  # PUNTO on 4 must draw
        ({"punto": ["9", "K"], "banca": ["7", "K"], "boxes": [{"box": 1, "punto": 100, "banca": 96}]}, "Art. 9 §7"),
        ({"punto": ["9", "K"], "banca": ["7", "K"], "boxes": [{"box": 1, "tie": 500}]}, "Art. 5 §5"),
        ({"punto": ["9", "K"], "banca": ["7", "K"], "boxes": [{"box": 1, "punto": 5}]}, "Art. 7 §1"),
        ({"punto": ["9", "X"], "banca": ["7", "K"], "boxes": BOXES}, "«X»"),
    ],
)
def test_settle_refuses_impossible_coups(coup, fragment):
    out = midi("settle", stdin=json.dumps(coup))
    assert out.returncode == 2
    assert fragment in out.stderr


def test_settle_text_output():
    out = midi("settle", stdin=json.dumps({"punto": ["2", "3", "K"], "banca": ["3", "3"], "boxes": BOXES}))
    assert out.returncode == 0
    assert "gana BANCA" in out.stdout and "se paga el 50 %" in out.stdout and "exacto" not in out.stdout


# Published exact figures (Wizard of Odds' baccarat tables, computed by combinatorial analysis
# independently of this code base) for 8 and 6 decks.
PUBLISHED = {
    8: {"p_banca": 0.458597, "p_punto": 0.446247, "p_tie": 0.095156, "tie_edge": 0.143596,
        "commission_edge": 0.010579, "punto_edge": 0.012351},
    6: {"p_banca": 0.458653, "p_punto": 0.446279, "p_tie": 0.095069, "tie_edge": 0.144382,
        "commission_edge": 0.010558, "punto_edge": 0.012374},
}


@pytest.mark.parametrize("decks", [8, 6])
def test_odds_match_published_exact_values(decks):
    out = midi("odds", "--decks", str(decks), "--mode", "commission", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"table", "decks", "mode", "p_banca", "p_punto", "p_tie", "p_banca_six", "house_edge"}
    assert set(data["house_edge"]) == {"banca", "punto", "tie"}
    want = PUBLISHED[decks]
    assert (data["decks"], data["mode"]) == (decks, "commission")
    for key in ("p_banca", "p_punto", "p_tie"):
        assert data[key] == pytest.approx(want[key], abs=5e-7)
    assert data["p_banca"] + data["p_punto"] + data["p_tie"] == pytest.approx(1)
    assert data["house_edge"]["banca"] == pytest.approx(want["commission_edge"], abs=5e-6)
    assert data["house_edge"]["punto"] == pytest.approx(want["punto_edge"], abs=5e-6)
    assert data["house_edge"]["tie"] == pytest.approx(want["tie_edge"], abs=5e-6)


def test_half_six_edge_follows_from_the_probabilities():
    data = json.loads(midi("odds", "--json").stdout)  # the default table: 8 decks, half on six
    assert (data["decks"], data["mode"]) == (8, "half-six")
    # BANCA wins pay 1, wins with 6 pay 1/2, PUNTO wins cost the stake; ties return it.
    edge = data["p_punto"] - (data["p_banca"] - data["p_banca_six"]) - data["p_banca_six"] / 2
    assert data["house_edge"]["banca"] == pytest.approx(edge)
    assert 0.05 < data["p_banca_six"] < 0.06
    text = midi("odds")
    assert "BANCA paga 50 % con 6" in text.stdout and "Ventaja de la casa" in text.stdout


def _shoe(seed: int) -> list[str]:
    import random

    from shared.cards import FULL_DECK

    cards = [str(c) for c in FULL_DECK] * 8
    random.Random(seed).shuffle(cards)
    return cards


def test_shoe_audit_deals_until_the_cut_card():
    from shared.baccarat import resolve_coup
    from shared.cards import Rank, parse_baccarat_card

    cards = _shoe(11)
    out = midi("shoe-audit", "--json", stdin=" ".join(cards))
    assert out.returncode == 0, out.stderr
    coups = [json.loads(line) for line in out.stdout.splitlines()]
    ranks = [parse_baccarat_card(c)[0] for c in cards]
    position = 1 + ranks[0].burn_count  # the burn card, then as many as it is worth
    cut = len(cards) - 7
    for number, coup in enumerate(coups, 1):
        assert set(coup) == {"table", "coup", "punto", "banca", "punto_total", "banca_total", "winner", "natural",
                             "banca_six"}
        assert coup["coup"] == number
        size = len(coup["punto"]) + len(coup["banca"])
        result = resolve_coup(ranks[position:position + size])
        assert coup["winner"] == result.winner.value and coup["punto_total"] == result.punto_total
        assert [Rank.parse(r) for r in coup["punto"]] == list(result.punto_cards)
        position += size
    # The last coup is the one during which the cut card appeared, and only that one.
    last_size = len(coups[-1]["punto"]) + len(coups[-1]["banca"])
    assert position - last_size <= cut < position


def test_shoe_audit_refuses_bad_shoes_with_the_position():
    cards = _shoe(3)
    bad_token = midi("shoe-audit", stdin=" ".join(cards[:10] + ["Zq"] + cards[10:]))
    assert bad_token.returncode == 2 and "posición 11" in bad_token.stderr
    too_many = midi("shoe-audit", stdin=" ".join(cards + ["As"]))
    assert too_many.returncode == 2 and "Art. 2 §1" in too_many.stderr
    too_few = midi("shoe-audit", stdin="9 2 3")
    assert too_few.returncode == 2 and "faltan cartas" in too_few.stderr
    text = midi("shoe-audit", stdin=" ".join(cards))
    assert text.returncode == 0 and text.stdout.startswith("Mesa MPB-02\nSabot de 8 mazos")
    assert "IRREGULAR" not in text.stdout and not text.stderr
    for cut in ("0", "-1", str(len(cards) + 1)):
        refused = midi("shoe-audit", "--cut", cut, stdin=" ".join(cards))
        assert refused.returncode == 2 and "Art. 8 §1" in refused.stderr and not refused.stdout


def test_shoe_audit_flags_an_irregular_cut():
    cards = _shoe(3)
    text = midi("shoe-audit", "--cut", "20", stdin=" ".join(cards))
    assert text.returncode == 0 and "CORTE IRREGULAR: 20 cartas" in text.stdout
    assert "corte irregular" in text.stderr
    lines = midi("shoe-audit", "--cut", "20", "--json", stdin=" ".join(cards)).stdout.splitlines()
    assert lines and all(json.loads(line)["irregular_cut"] is True for line in lines)


def test_journal_verify_and_recall_in_the_croupiers_words(tmp_path):
    from midi_helpers import live_table, open_live_shoe, play_coup

    table = live_table(path=tmp_path / "midi.db")
    open_live_shoe(table)
    play_coup(table, ["2", "3", "3", "3", "K"], [(1, "punto", 100), (2, "banca", 26)])
    db = str(table.journal.path)
    table.journal.close()
    assert midi("journal", "verify", "--db", db).returncode == 0
    recall = midi("journal", "recall", "--last", "1", "--db", db)
    assert recall.returncode == 0, recall.stderr
    assert "«No va más»" in recall.stdout and "Carta K → PUNTO" in recall.stdout
    data = json.loads(midi("journal", "recall", "--last", "1", "--json", "--db", db).stdout)
    types = [e["type"] for e in data["rounds"][0]["events"]]
    assert "bet_placed" in types and "coup_settled" in types


def test_report_reads_the_table_the_options_name_and_names_it(tmp_path, monkeypatch):
    from midi_helpers import live_table, open_live_shoe, play_coup
    from shared.journal import default_journal_path
    from shared.midi.config import MidiTableConfig

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # the user data dir, for this test and its tools
    file = tmp_path / "commission.toml"
    file.write_text('table_id = "MPB-C1"\nminimum = 10\nmaximum = 1000\ntie_maximum = 100\nbanca_mode = "commission"\n')
    path = default_journal_path("midi", "MPB-C1")
    path.parent.mkdir(parents=True)
    table = live_table(MidiTableConfig.from_toml(file), path=path)
    open_live_shoe(table)
    play_coup(table, ["2", "3", "3", "3", "K"], [(1, "punto", 100)])
    table.journal.close()
    for args in (["report"], ["report", "--shift"]):
        shown = midi("--table", str(file), *args)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.splitlines()[0] == "Mesa MPB-C1"
        data = json.loads(midi("--table", str(file), *args, "--json").stdout)
        assert data["table"] == "MPB-C1"
    # The shipped table (MPB-02) has no journal here: without the option the report says so.
    assert midi("report", "--shift").returncode != 0


def test_settle_refuses_unknown_keys_naming_them():
    out = midi("settle", stdin=json.dumps({"punto": ["9", "K"], "banca": ["7", "K"],
                                           "boxes": [{"box": 1, "punto": 100, "empate": 10}]}))
    assert out.returncode == 2 and "casilla 1: claves desconocidas: 'empate'" in out.stderr
    out = midi("settle", stdin=json.dumps({"punto": ["9", "K"], "banca": ["7", "K"], "boxes": BOXES, "tie": 10}))
    assert out.returncode == 2 and "claves desconocidas: 'tie'" in out.stderr


def test_settle_and_shoe_audit_read_only_lists_and_ascii_separators():
    out = midi("settle", stdin=json.dumps({"punto": "9 K", "banca": ["7", "K"], "boxes": BOXES}))
    assert out.returncode == 2 and "«punto» debe ser una lista de cartas" in out.stderr
    cards = _shoe(3)
    for separator in ("\u00a0", "\u2028"):  # a no-break space and a line separator are no separators
        out = midi("shoe-audit", stdin=" ".join(cards[:10]) + separator + " ".join(cards[10:]))
        assert out.returncode == 2 and "posición 10" in out.stderr


def test_odds_and_shoe_audit_name_the_table_they_read(tmp_path):
    file = tmp_path / "commission.toml"
    file.write_text('table_id = "MPB-C1"\nminimum = 10\nmaximum = 1000\ntie_maximum = 100\nbanca_mode = "commission"\n')
    shoe = " ".join(_shoe(3))
    for args, stdin in ((["odds"], None), (["shoe-audit"], shoe)):
        shown = midi("--table", str(file), *args, stdin=stdin)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.splitlines()[0] == "Mesa MPB-C1"
        lines = midi("--table", str(file), *args, "--json", stdin=stdin).stdout.splitlines()
        assert lines and all(json.loads(line)["table"] == "MPB-C1" for line in lines)
    assert midi("odds").stdout.splitlines()[0] == "Mesa MPB-02"
