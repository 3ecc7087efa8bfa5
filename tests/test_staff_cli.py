"""``staff`` on the command line: every change by a supervisor's ID and PIN, PINs from stdin."""

import json
import subprocess
import sys

from shared.journal import Journal
from shared.actor import Role
from shared.staff import Credentials, StaffRegistry


def staff_cli(db, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "midi_tui.cli", "--db", str(db), "staff", *args],
                          input=stdin, capture_output=True, text=True, timeout=60)


def test_staff_subcommand_enrols_resets_unlocks_and_deactivates(tmp_path):
    db = tmp_path / "midi.db"
    journal = Journal(db, "MPB-02", "midi")
    StaffRegistry(journal).enrol("S1", "Sara", Role.SUPERVISOR, "135790", by=None)
    journal.close()

    out = staff_cli(db, "enrol", "C7", "Ciro Paz", "croupier", "--by", "S1", stdin="135790\n4444\n4444\n")
    assert out.returncode == 0, out.stderr
    assert "alta de croupier C7" in out.stdout and "4444" not in out.stdout
    refused = staff_cli(db, "enrol", "C8", "Otro", "croupier", "--by", "C7", stdin="4444\n5555\n5555\n")
    assert refused.returncode == 2 and "se requiere un supervisor" in refused.stderr
    out = staff_cli(db, "reset-pin", "C7", "--by", "S1", "--reason", "olvido", stdin="135790\n1212\n1212\n")
    assert out.returncode == 0, out.stderr
    listed = json.loads(staff_cli(db, "list", "--json").stdout)
    assert {"staff_id": "C7", "name": "Ciro Paz", "role": "croupier", "active": True, "locked": False,
            "must_change_pin": True} in listed
    out = staff_cli(db, "passwd", "C7", stdin="1212\n8080\n8080\n")
    assert out.returncode == 0, out.stderr
    out = staff_cli(db, "deactivate", "C7", "--by", "S1", "--reason", "traslado", stdin="135790\n")
    assert out.returncode == 0 and "baja" in staff_cli(db, "list").stdout
    wrong = staff_cli(db, "unlock", "C7", "--by", "S1", "--reason", "x", stdin="000000\n")
    assert wrong.returncode == 2 and "ID o PIN incorrecto" in wrong.stderr

    staff = StaffRegistry(Journal(db, "MPB-02", "midi"))
    kinds = [e.type for e in staff.journal.events() if e.type != "staff_credentials"]
    assert kinds[-5:] == ["staff_enrolled", "staff_pin_reset", "staff_pin_changed", "staff_deactivated", "pin_failed"]
    assert staff.get("C7") is not None and not staff.get("C7").active
    assert staff.verify(Credentials("S1", "135790"), require=Role.SUPERVISOR).staff_id == "S1"


def test_staff_list_runs_beside_the_open_console(tmp_path):
    db = tmp_path / "midi.db"
    console = Journal(db, "MPB-02", "midi")  # the table's console holds the writer lock
    StaffRegistry(console).enrol("S1", "Sara", Role.SUPERVISOR, "135790", by=None)
    out = staff_cli(db, "list", "--json")
    assert out.returncode == 0, out.stderr
    assert [r["staff_id"] for r in json.loads(out.stdout)] == ["S1"]
    refused = staff_cli(db, "unlock", "S1", "--by", "S1", "--reason", "x", stdin="135790\n")
    assert refused.returncode == 2  # a change still waits for the console to close
    console.close()
