"""End-to-end runs of the ``madero-tui`` supervisor subcommands, as a separate process."""

import json
import subprocess
import sys

import pytest


def madero(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "madero_tui.cli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_hand_text():
    out = madero("hand", "As", "Kd", "Qh", "Jc", "10s", "2c", "2d")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Escalera al As")


def test_hand_json_wheel_and_strength_order():
    wheel = json.loads(madero("hand", "--json", "5s", "4h", "3d", "2c", "As", "Ks", "Kd").stdout)
    assert wheel["category"] == "Escalera"
    assert wheel["best"] == ["5s", "4h", "3d", "2c", "As"]
    six_high = json.loads(madero("hand", "--json", "6s", "5s", "4h", "3d", "2c").stdout)
    trips = json.loads(madero("hand", "--json", "Ks", "Kd", "Kh", "3d", "2c").stdout)
    assert trips["strength"] < wheel["strength"] < six_high["strength"]


def test_hand_refuses_bad_input_with_a_message():
    dup = madero("hand", "As", "As", "Kd", "Qh", "Jc")
    assert dup.returncode == 2 and "dos veces" in dup.stderr
    bad = madero("hand", "1x", "Kd", "Qh", "Jc", "2s")
    assert bad.returncode == 2 and "«1x»" in bad.stderr
    assert madero("hand").returncode == 2


def test_hand_batch_writes_json_lines_and_reports_bad_lines():
    out = madero("hand", "--batch", stdin="As Ks Qs Js Ts\n\n2c 3c\nQs Qd Qh 4c 4d 9s 2h\n")
    assert out.returncode == 2
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["category"] for r in rows] == ["Escalera real", "Full"]
    assert set(rows[0]) == {"cards", "category", "best", "strength"}
    assert "línea 3" in out.stderr


def test_odds_json_matches_closed_form_counts():
    """Independent derivation: hole-card combinations counted by hand (C(52,2) = 1326)."""
    from math import comb

    data = json.loads(madero("odds", "--json").stdout)
    assert set(data) >= {"bonus", "jackpot"}
    assert set(data["bonus"]) >= {"lines", "house_edge"}
    variants = data["bonus"]["variants"]
    without = {line["name"]: line for line in variants["without_1000_line"]["lines"]}
    hands = 1326
    assert without["A-A"]["probability"] == pytest.approx(6 / hands)
    assert without["A-K del mismo palo"]["probability"] == pytest.approx(4 / hands)
    assert without["A-K de distinto palo"]["probability"] == pytest.approx(12 / hands)
    assert without["pareja de 2-2 a 10-10"]["probability"] == pytest.approx(9 * 6 / hands)
    wins = {"A-A": (6, 30), "AKs": (4, 25), "AQ/AJs": (8, 20), "AKo": (12, 15), "JJ-KK": (18, 10),
            "AQ/AJo": (24, 5), "22-TT": (54, 3)}
    p_win = sum(n for n, _ in wins.values()) / hands
    edge = (1 - p_win) - sum(n * pays for n, pays in wins.values()) / hands
    assert variants["without_1000_line"]["house_edge"] == pytest.approx(edge)
    # With the 1000 line: the bank holds two of the 2 aces left, out of C(50,2) holdings.
    both_aa = 6 / hands * 1 / comb(50, 2)
    with_line = {line["name"]: line for line in data["bonus"]["lines"]}
    assert with_line["A-A del jugador y A-A de la banca"]["probability"] == pytest.approx(both_aa)
    assert data["bonus"]["house_edge"] == pytest.approx(edge - both_aa * (1000 - 30))
    jackpot = {line["name"]: line for line in data["jackpot"]["lines"]}
    five = comb(52, 5)
    assert jackpot["Escalera real de color"]["probability"] == pytest.approx(4 / five)
    assert jackpot["Póker"]["probability"] == pytest.approx(13 * 48 / five)
    assert jackpot["Full"]["pays"] == 100 and jackpot["Escalera real de color"]["pays"] == 5000


def test_odds_text_names_both_bonus_variants():
    out = madero("odds")
    assert out.returncode == 0
    assert out.stdout.splitlines()[0] == "Mesa MPB-01"
    assert "con la línea opcional 1000 a 1 (configurada en la mesa)" in out.stdout
    assert "sin la línea opcional 1000 a 1" in out.stdout
    assert "ventaja de la casa" in out.stdout


ROUND = {
    "bank": ["Ac", "Kd"],
    "board": ["Kh", "7h", "2h", "9c", "3s"],
    "boxes": [
        # Color al As beats the bank's pair of Kings: Ante paid (flush or better), Jackpot Color.
        {"box": 1, "cards": ["Ah", "9h"], "ante": 20, "flop": 40, "turn": 20, "river": 20, "bonus": 5,
         "jackpot_credits": 2},
        # Pair of Queens loses, but the Bonus Q-Q pays 10 a 1.
        {"box": 2, "cards": ["Qs", "Qd"], "ante": 10, "flop": 20, "bonus": 5},
        # Same best five as the bank: a tie; A-K suited Bonus pays 25 a 1.
        {"box": 3, "cards": ["As", "Ks"], "ante": 50, "flop": 100, "turn": 50, "bonus": 10},
        # Folded: the Ante and the side bets are lost.
        {"box": 4, "ante": 10, "bonus": 5, "jackpot_credits": 1, "folded": True},
        # Two pair wins but is less than a flush: the Ante is returned (spec decision).
        {"box": 5, "cards": ["9d", "7d"], "ante": 10, "flop": 20},
    ],
}


def test_settle_golden_round(tmp_path):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(ROUND))
    out = madero("settle", "--json", str(path))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["bank_hand"] == "Pareja"
    boxes = {b["box"]: b for b in data["boxes"]}
    assert boxes[1] == {
        "box": 1, "hand": "Color", "hand_detail": "Color al As", "outcome": "win",
        "net": {"ante": 20, "flop": 40, "turn": 20, "river": 20, "bonus": -5}, "jackpot_prize": 100,
        "jackpot_lines": [{"line": "color", "amount": 100}],
    }
    assert boxes[2]["outcome"] == "lose"
    assert boxes[2]["net"] == {"ante": -10, "flop": -20, "turn": 0, "river": 0, "bonus": 50}
    assert boxes[3]["outcome"] == "tie"
    assert boxes[3]["net"] == {"ante": 0, "flop": 0, "turn": 0, "river": 0, "bonus": 250}
    assert boxes[4]["outcome"] == "fold" and boxes[4]["hand"] is None
    assert boxes[4]["net"] == {"ante": -10, "flop": 0, "turn": 0, "river": 0, "bonus": -5}
    assert boxes[5]["hand"] == "Doble pareja" and boxes[5]["outcome"] == "win"
    assert boxes[5]["net"]["ante"] == 0 and boxes[5]["net"]["flop"] == 20


def test_settle_text_from_stdin():
    out = madero("settle", stdin=json.dumps(ROUND))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Mesa MPB-01\nLa banca tiene Pareja de Reyes")
    assert "Casilla 4: retirado" in out.stdout


def test_settle_says_devuelve_as_the_console_does():
    """«devuelve» is the stakes of the bets neither won nor lost («devueltas las empatadas»,
    Art. 9 §36) on the console and from ``settle`` alike: box 3's tie (Ante 50, Flop 100, Turn
    50) and box 5's Ante under a flush (10); the stakes winners keep are not «devueltas» (345
    counted them)."""
    out = madero("settle", stdin=json.dumps(ROUND))
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip().endswith("devuelve ARS 210")


def _broken(**changes):
    data = json.loads(json.dumps(ROUND))
    for box, fields in changes.items():
        data["boxes"][int(box[1:]) - 1].update(fields)
    return data


def test_settle_refuses_rounds_that_cannot_exist_with_the_article():
    cases = [
        (_broken(b1={"flop": 30}), "Art. 8 §26.2"),
        (_broken(b2={"ante": 0, "flop": 0}), "Art. 13 §64"),
        (_broken(b1={"cards": ["Ac", "9h"]}), "Art. 2 §5"),
        (_broken(b1={"jackpot_credits": 6}), "Art. 11 §42"),
        (_broken(b3={"turn": 20}), "Art. 8 §27.2"),
        (_broken(b1={"cards": ["Ah"]}), "Art. 9 §30"),
        (dict(ROUND, board=["Kh", "7h", "2h", "9c"]), "Art. 8 §27–29"),
    ]
    for data, article in cases:
        out = madero("settle", stdin=json.dumps(data))
        assert out.returncode == 2, (article, out.stdout)
        assert article in out.stderr, (article, out.stderr)


FOLDED = {"boxes": [{"box": 2, "ante": 10, "bonus": 5, "jackpot_credits": 1, "folded": True},
                    {"box": 6, "ante": 20, "folded": True}]}


def test_settle_a_round_where_every_box_folded_needs_no_card():
    out = madero("settle", "--json", stdin=json.dumps(FOLDED))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["bank_hand"] is None and [b["outcome"] for b in data["boxes"]] == ["fold", "fold"]
    assert data["boxes"][0]["net"] == {"ante": -10, "flop": 0, "turn": 0, "river": 0, "bonus": -5}
    assert data["boxes"][0]["jackpot_prize"] == 0 and data["boxes"][0]["jackpot_lines"] == []
    text = madero("settle", stdin=json.dumps(FOLDED))
    assert text.returncode == 0 and "Todas las casillas se retiraron" in text.stdout
    # cards given anyway are checked, then ignored
    given = dict(FOLDED, bank=["Ac", "Kd"], board=["Kh", "7h", "2h", "9c", "3s"])
    assert json.loads(madero("settle", "--json", stdin=json.dumps(given)).stdout) == data
    assert json.loads(madero("settle", "--json", stdin=json.dumps(dict(FOLDED, board=["Kh", "7h"]))).stdout) == data
    for wrong, article in ((dict(FOLDED, board=["Kh", "7h", "2h", "9c", "3s", "4s"]), "Art. 8 §27–29"),
                           (dict(FOLDED, bank=["Ac", "Kh"], board=["Kh"]), "Art. 2 §5"),
                           (dict(FOLDED, board=["Zz"]), "")):
        out = madero("settle", stdin=json.dumps(wrong))
        assert out.returncode == 2 and article in out.stderr, out.stderr


PROGRESSIVE_TABLE = ('table_id = "P1"\nminimum = 10\nmaximum = 500\njackpot_mode = "progressive"\n'
                     'contribution_percent = 10\n')
# Box 1: Full on the flop (9-9-9 5-5), holds the Carta Mágica (9d) and sits in the lucky seat.
# Box 2: straight flush 9-high on the flop. Box 3: nothing but the lucky seat is box 1's.
PROGRESSIVE_ROUND = {
    "bank": ["Ac", "Kd"],
    "board": ["9c", "5s", "5h", "2c", "3s"],
    "jackpot_value": "20000", "magic_card": "9d", "lucky_box": 1,
    "boxes": [
        {"box": 1, "cards": ["9h", "9d"], "ante": 10, "flop": 20, "jackpot_credits": 2},
        {"box": 2, "cards": ["Qd", "Qh"], "ante": 10, "flop": 20, "jackpot_credits": 1},
    ],
}


def test_settle_progressive_round_pays_each_jackpot_line(tmp_path):
    table = tmp_path / "p.toml"
    table.write_text(PROGRESSIVE_TABLE)
    out = madero("settle", "--json", "--table", str(table), stdin=json.dumps(PROGRESSIVE_ROUND))
    assert out.returncode == 0, out.stderr
    boxes = {b["box"]: b for b in json.loads(out.stdout)["boxes"]}
    # §55: the special prizes on top of the hand: 200 + 60 + 60
    assert boxes[1]["jackpot_prize"] == 320
    assert boxes[1]["jackpot_lines"] == [{"line": "full", "amount": 200}, {"line": "carta_magica", "amount": 60},
                                         {"line": "jugador_afortunado", "amount": 60}]
    assert boxes[2]["jackpot_prize"] == 0 and boxes[2]["jackpot_lines"] == []
    sf = dict(PROGRESSIVE_ROUND, board=["Th", "Jh", "Qh", "2c", "3s"], magic_card="2d", lucky_box=7)
    sf["boxes"] = [dict(PROGRESSIVE_ROUND["boxes"][0], cards=["9h", "8h"])]
    out = madero("settle", "--json", "--table", str(table), stdin=json.dumps(sf))
    box = json.loads(out.stdout)["boxes"][0]
    # 10 % of the jackpot at settlement plus this round's contribution (10 % of 2 credits):
    # (20000 + 0.2) / 10 = 2000.02, rounded up to the chip: 2001
    assert box["jackpot_lines"] == [{"line": "escalera_de_color", "amount": 2001, "exact": "2000.02"}]
    text = madero("settle", "--table", str(table), stdin=json.dumps(PROGRESSIVE_ROUND))
    assert "Full: 200 + Carta Mágica: 60 + Jugador Afortunado: 60" in text.stdout


def test_settle_progressive_fields_are_checked(tmp_path):
    table = tmp_path / "p.toml"
    table.write_text(PROGRESSIVE_TABLE)
    for wrong, message in (({"jackpot_value": None}, "jackpot_value"), ({"lucky_box": 8}, "Art. 11 §57"),
                           ({"magic_card": "9d 9h"}, "magic_card"), ({"jackpot_value": "-1"}, "negativo")):
        data = {k: v for k, v in {**PROGRESSIVE_ROUND, **wrong}.items() if v is not None}
        out = madero("settle", "--table", str(table), stdin=json.dumps(data))
        assert out.returncode == 2 and message in out.stderr, out.stderr
    out = madero("settle", stdin=json.dumps(PROGRESSIVE_ROUND))  # the default table is a fixed one
    assert out.returncode == 2 and "Art. 11 §50, §55" in out.stderr


def test_settle_under_another_table_file(tmp_path):
    table = tmp_path / "t.toml"
    table.write_text('table_id = "T9"\nminimum = 25\nmaximum = 1000\nbonus_1000_line = false\n')
    out = madero("settle", str(tmp_path / "nothing.json"), "--table", str(table))
    assert out.returncode == 2 and "no se pudo leer" in out.stderr and "el archivo no existe" in out.stderr
    out = madero("settle", "--table", str(table), stdin=json.dumps(ROUND))
    assert out.returncode == 2 and "Art. 6 §20" in out.stderr  # box 2's Ante of 10 is under this table's minimum


def test_journal_verify_and_recall_on_a_played_round(tmp_path):
    from madero_helpers import live_table

    table = live_table(tmp_path)
    table.play.place_bet(1, "ante", 20)
    table.play.place_bet(1, "bonus", 5)
    table.play.no_va_mas()
    table.play.voy(1)
    for card in ["Kh", "7h", "2h"]:
        table.play.key_card(card)
    table.play.check(1)
    table.play.key_card("9c")
    table.play.bet(1)
    for card in ["3s", "Ac", "Kd", "Ah", "9h"]:
        table.play.key_card(card)
    table.play.confirm_settlement()
    db = str(table.journal.path)
    table.journal.close()

    ok = madero("journal", "verify", "--db", db)
    assert ok.returncode == 0, ok.stderr
    recall = madero("journal", "recall", "--last", "1", "--json", "--db", db)
    assert recall.returncode == 0, recall.stderr
    text = recall.stdout
    for fragment in ("bet_placed", "decision", "card_keyed", "Kh", "Ah"):
        assert fragment in text
    human = madero("journal", "recall", "--round", "1", "--db", db)
    assert human.returncode == 0, human.stderr
    # The recall speaks the croupier's words (the F3 screen's), not raw event types.
    assert "«No va más»" in human.stdout and "Casilla 1: Ante 20" in human.stdout
    assert "Color al As — GANA: Ante +20, Flop +40, River +20, Bonus −5" in human.stdout


def test_version_names_the_installed_distribution():
    from importlib.metadata import version

    for module in ("madero_tui.cli", "midi_tui.cli"):
        out = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == [module.split(".")[0].replace("_", "-"), version("mesa-console")]


def test_supervisor_tools_refuse_in_sentences_not_python(tmp_path):
    from shared.journal import Journal

    db = tmp_path / "t.db"
    Journal(db, "MPB-01", "madero").close()
    out = madero("--db", str(db), "journal", "recall", "--last", "x")
    assert out.returncode == 2
    assert "«x»: se espera un número de pases, 1 o más" in out.stderr and "_positive" not in out.stderr
    out = madero("report", "--db", str(db), "--since", "ayer")
    assert out.returncode == 2
    assert "no se entiende la fecha «ayer»: use AAAA-MM-DD" in out.stderr and "isoformat" not in out.stderr


def test_anchor_option_refuses_what_is_not_hash_colon_count(tmp_path):
    from shared.journal import Journal

    db = tmp_path / "t.db"
    Journal(db, "MPB-01", "madero").close()
    for count in ("²", "-1", "9" * 30, ""):
        out = madero("journal", "verify", "--db", str(db), "--anchor", "a" * 64 + ":" + count)
        assert out.returncode == 2 and "se espera HASH:COUNT" in out.stderr and "Traceback" not in out.stderr


def test_anchor_of_a_missing_journal_is_a_message_not_a_traceback(tmp_path):
    out = madero("journal", "anchor", "--db", str(tmp_path / "none.db"))
    assert out.returncode == 2 and "no existe el diario" in out.stderr and "Traceback" not in out.stderr


def test_settle_refuses_unknown_keys_naming_them():
    # «status» was once ignored, so a dead box was settled as a winning one.
    typo = {**ROUND, "boxes": [{**ROUND["boxes"][0], "estado": "dead"}, *ROUND["boxes"][1:]]}
    out = madero("settle", stdin=json.dumps(typo))
    assert out.returncode == 2 and "casilla 1: claves desconocidas: 'estado'" in out.stderr
    out = madero("--lang", "en", "settle", stdin=json.dumps({**ROUND, "jackpot": 5}))
    assert out.returncode == 2 and "unknown keys: 'jackpot'" in out.stderr
    bad = {**ROUND, "boxes": [{**ROUND["boxes"][0], "status": "muerta"}, *ROUND["boxes"][1:]]}
    assert "casilla 1: status es" in madero("settle", stdin=json.dumps(bad)).stderr


def test_settle_takes_a_dead_or_void_box_and_returns_its_bets():
    dead = {"box": 5, "cards": ["9d", "7d"], "ante": 10, "bonus": 5, "jackpot_credits": 1, "status": "dead"}
    void = {"box": 2, "ante": 10, "bonus": 5, "status": "void"}
    rnd = {**ROUND, "boxes": [ROUND["boxes"][0], void, *ROUND["boxes"][2:4], dead]}
    out = madero("settle", "--json", stdin=json.dumps(rnd))
    assert out.returncode == 0, out.stderr
    boxes = {b["box"]: b for b in json.loads(out.stdout)["boxes"]}
    for number, outcome in ((5, "dead"), (2, "void")):
        assert boxes[number]["outcome"] == outcome and boxes[number]["hand"] is None
        assert set(boxes[number]["net"].values()) == {0} and boxes[number]["jackpot_prize"] == 0
    assert boxes[1]["outcome"] == "win"
    # A dead hand exists only once betting began: at the first box to act it is a void of the round (§37).
    first = {**ROUND, "boxes": [{**ROUND["boxes"][0], "status": "dead", "flop": 0, "turn": 0, "river": 0},
                                *ROUND["boxes"][1:]]}
    out = madero("settle", stdin=json.dumps(first))
    assert out.returncode == 2 and "Art. 10 §37" in out.stderr


@pytest.mark.parametrize("change, words", [
    ({"bank": "Ac Kd"}, "«bank» debe ser una lista de cartas"),  # the documented type: a list
    ({"boxes": [{**ROUND["boxes"][0], "ante": "２０"}]}, "importe ilegible"),  # ASCII digits only
    ({"boxes": [{**ROUND["boxes"][0], "ante": "٢٠"}]}, "importe ilegible"),
    ({"boxes": [{**ROUND["boxes"][0], "ante": "2_0"}]}, "importe ilegible"),
])
def test_settle_reads_only_the_documented_types_and_ascii_digits(change, words):
    out = madero("settle", stdin=json.dumps({**ROUND, **change}))
    assert out.returncode == 2 and words in out.stderr and not out.stdout


@pytest.mark.parametrize("game", ["madero", "midi"])
@pytest.mark.parametrize("args", [["odds"], ["odds", "--json"], ["--help"], ["settle", "--table", "falta.toml"]])
def test_every_output_is_written_whatever_the_terminals_encoding(game, args):
    import os

    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    out = subprocess.run([sys.executable, "-m", f"{game}_tui.cli", *args], capture_output=True, timeout=120, env=env,
                         stdin=subprocess.DEVNULL)
    assert b"Traceback" not in out.stderr and out.returncode == (2 if "settle" in args else 0)
    written = (out.stdout + out.stderr).decode("ascii")  # every character the terminal lacks is escaped
    if args == ["odds"]:
        assert "\\u2014" in written  # «—», written as an escape
    if "--json" in args:
        assert json.loads(out.stdout)  # the escapes are JSON's own


def test_settle_names_the_table_it_settled_under(tmp_path):
    table = tmp_path / "mesa.toml"
    table.write_text('table_id = "MPB-09"\nminimum = 10\nmaximum = 500\n')
    assert json.loads(madero("settle", "--json", stdin=json.dumps(ROUND)).stdout)["table"] == "MPB-01"
    data = json.loads(madero("settle", "--json", "--table", str(table), stdin=json.dumps(ROUND)).stdout)
    assert data["table"] == "MPB-09"
    assert madero("settle", "--table", str(table), stdin=json.dumps(ROUND)).stdout.splitlines()[0] == "Mesa MPB-09"
    coup = json.dumps({"punto": ["9", "K"], "banca": ["7", "K"], "boxes": [{"box": 1, "punto": 100}]})
    midi = [sys.executable, "-m", "midi_tui.cli", "settle"]
    shown = subprocess.run(midi, input=coup, capture_output=True, text=True, timeout=120).stdout
    assert shown.splitlines()[0] == "Mesa MPB-02"
    shown = subprocess.run([*midi, "--json"], input=coup, capture_output=True, text=True, timeout=120).stdout
    assert json.loads(shown)["table"] == "MPB-02"
