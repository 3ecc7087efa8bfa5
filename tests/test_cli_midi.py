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


BOXES = [{"box": 1, "punto": 100}, {"box": 2, "banca": 25}, {"box": 3, "tie": 10}]


def test_settle_punto_natural():
    data = settle({"punto": ["9", "K"], "banca": ["7", "K"], "boxes": BOXES})
    assert (data["winner"], data["punto_total"], data["banca_total"]) == ("punto", 9, 7)
    assert [b["net"] for b in data["boxes"]] == [
        {"punto": 100, "banca": 0, "tie": 0}, {"punto": 0, "banca": -25, "tie": 0}, {"punto": 0, "banca": 0, "tie": -10},
    ]


def test_settle_banca_six_half_and_commission_with_rounding():
    coup = {"punto": ["2", "3", "K"], "banca": ["3", "3"], "boxes": BOXES}
    half = settle(coup)
    assert half["winner"] == "banca" and half["banca_total"] == 6 and half["banca_six"]
    assert half["boxes"][1]["net"]["banca"] == 12  # 50 % of 25 = 12.5, rounded down to the chip
    assert half["boxes"][1]["exact"] == {"banca": "12.5"}
    commission = settle(coup, "--mode", "commission")
    assert commission["boxes"][1]["net"]["banca"] == 23  # 25 less 5 % = 23.75
    chip5 = settle(coup, "--mode", "commission", "--chip", "5")
    assert chip5["boxes"][1]["net"]["banca"] == 20


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
        ({"punto": ["4", "K"], "banca": ["7", "K"], "boxes": BOXES}, "no está completa"),  # PUNTO on 4 must draw
        ({"punto": ["9", "K"], "banca": ["7", "K"], "boxes": [{"box": 1, "punto": 100, "banca": 95}]}, "Art. 9 §7"),
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
    assert "gana BANCA" in out.stdout and "exacto 12,5" in out.stdout
