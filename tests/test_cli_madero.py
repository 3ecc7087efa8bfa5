"""End-to-end runs of the ``madero-tui`` supervisor subcommands, as a separate process."""

import json
import subprocess
import sys


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
    assert out.returncode == 1
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["category"] for r in rows] == ["Escalera real", "Full"]
    assert set(rows[0]) == {"cards", "category", "best", "strength"}
    assert "línea 3" in out.stderr
