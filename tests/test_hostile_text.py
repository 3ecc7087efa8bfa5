"""Issue 15 item 5: hostile text never reaches a terminal.

Free text is refused on input (control codes, unprintable characters, too long), and whatever
journals written before that check hold is escaped on output: ``journal recall`` (text and
JSON), the F3 recall screen, the Madero log line, the message line, every subcommand.
"""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile import ESCAPES, run_tool
from shared.errors import InputError
from shared.text import REASON, STAFF_NAME, TRAINEE, TextField, printable, printable_event

# Clears the screen and homes the cursor; writes the clipboard (OSC 52); reverses the text.
CLEAR, CLIPBOARD, BIDI = "\x1b[2J\x1b[H", "\x1b]52;c;cm0gLXJmIH4=\x07", "\u202e"
# Printable, yet markup to a Textual widget: a closing tag that matches nothing, a click action.
MARKUP = "[/x] [@click=app.quit]clic[/]"
HOSTILE_REASON = f"{CLEAR}{CLIPBOARD}mano{BIDI} mal {MARKUP}\nFORGED LINE"


def only_printable(text: str) -> bool:
    return all(ch.isprintable() or ch == "\n" for ch in text)


# -- The validator and the escaper ----------------------------------------------------------

@pytest.mark.parametrize("text", ESCAPES + ["\t", "\u2028", "\u200b", "\ud800"])
def test_every_field_refuses_control_and_unprintable_characters(text):
    for spec in (REASON, STAFF_NAME, TRAINEE):
        with pytest.raises(InputError) as refused:
            spec.check(f"ok{text}ok")
        assert refused.value.message("en").startswith(spec.render("en"))  # the message names the field
        assert only_printable(refused.value.message("es"))  # and never repeats the code raw


def test_fields_are_bounded_and_plain_text_passes():
    assert REASON.check("mano mal repartida — Art. 10 §37, ñandú") == "mano mal repartida — Art. 10 §37, ñandú"
    with pytest.raises(InputError, match="de 1 a 200"):
        REASON.check("x" * 201)
    with pytest.raises(InputError, match="vacío"):
        STAFF_NAME.check("")
    with pytest.raises(InputError, match="texto"):
        TRAINEE.check(5)
    assert TextField("field.table_name", 3, min_length=0).check("") == ""


@given(st.text())
def test_printable_escapes_exactly_the_unprintable(text):
    shown = printable(text)
    assert shown.isprintable()
    assert (shown == text) == text.isprintable()
    assert only_printable(printable(text, newlines=True))


@given(st.recursive(st.text() | st.integers() | st.booleans() | st.none(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4)))
def test_escaped_json_is_still_the_same_json(data):
    text = printable(json.dumps(data, ensure_ascii=False, indent=1), newlines=True)
    assert only_printable(text)
    assert json.loads(text) == data


# -- Refused on input ----------------------------------------------------------------------

def test_madero_supervisor_reason_with_escape_codes_is_refused_and_nothing_is_journaled(tmp_path):
    from madero_helpers import SUP, live_table
    from shared.madero.settlement import Bet

    table = live_table(tmp_path)
    table.play.place_bet(1, Bet.ANTE, 10)
    table.play.no_va_mas()
    before = table.journal.last_seq
    with pytest.raises(InputError, match="motivo"):
        table.supervisor.void_round(SUP, "misdeal", HOSTILE_REASON)
    assert table.journal.last_seq == before
    with pytest.raises(InputError, match="motivo"):
        table.supervisor.void_round(SUP, "misdeal", "x" * 201)


def test_midi_supervisor_reason_with_escape_codes_is_refused():
    from midi_helpers import SUPERVISOR, live_table, open_live_shoe

    table = live_table()
    open_live_shoe(table)
    with pytest.raises(InputError, match="motivo"):
        table.supervisor.end_shoe(SUPERVISOR, f"fin{CLIPBOARD}")


def test_staff_names_with_escape_codes_are_refused(tmp_path):
    from shared.journal import Journal
    from shared.actor import Role
    from shared.staff import StaffRegistry

    staff = StaffRegistry(Journal(tmp_path / "j.db", "T1", "madero"))
    with pytest.raises(InputError, match="nombre"):
        staff.enrol("S1", f"Sara{CLEAR}", Role.SUPERVISOR, "123456", by=None)
    with pytest.raises(InputError, match="nombre"):
        staff.enrol("S1", "S" * 61, Role.SUPERVISOR, "123456", by=None)
    assert staff.all() == []


# -- Escaped on output (journals written before the check) ---------------------------------

@pytest.fixture
def old_madero_journal(tmp_path, monkeypatch):
    """A Madero journal whose round was voided with a hostile reason, as consoles before
    this check wrote it."""
    import shared.engine.signers as signers
    from madero_helpers import SUP, live_table
    from shared.madero.settlement import Bet

    monkeypatch.setattr(signers, "REASON", SimpleNamespace(check=lambda value: value), raising=False)  # unchecked
    table = live_table(tmp_path)
    table.play.place_bet(1, Bet.ANTE, 10)
    table.play.no_va_mas()
    table.supervisor.void_round(SUP, "misdeal", HOSTILE_REASON)
    table.journal.close()
    monkeypatch.undo()
    return tmp_path / "t.sqlite"


def test_journal_recall_text_escapes_a_hostile_reason(old_madero_journal):
    out = run_tool("madero", ["journal", "recall", "--db", str(old_madero_journal)])
    assert out.code == 0 and out.crash is None, out.err
    assert only_printable(out.out) and "\x1b" not in out.out and "\x07" not in out.out
    assert "\\u001b[2J" in out.out and "\\u202e" in out.out
    # The line feed in the reason is shown, not obeyed: no line of the output starts with it.
    assert not any(line.startswith("FORGED") for line in out.out.splitlines())
    assert "\\u000aFORGED LINE" in out.out


def test_journal_recall_json_escapes_yet_reads_back_the_exact_reason(old_madero_journal):
    out = run_tool("madero", ["journal", "recall", "--json", "--db", str(old_madero_journal)])
    assert out.code == 0 and only_printable(out.out)
    events = [e for r in json.loads(out.out)["rounds"] for e in r["events"]]
    assert [e["payload"]["reason"] for e in events if e["type"] == "round_voided"] == [HOSTILE_REASON]


def test_f3_recall_and_the_log_line_show_the_hostile_reason_escaped_and_as_text(old_madero_journal):
    from madero_tui.app import make_app
    from tui_common.options import LaunchOptions
    from tui_helpers import SIZE, aio

    app = make_app(LaunchOptions(db=old_madero_journal), clock=lambda: "21:14")

    @aio
    async def run():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("f3")
            await pilot.pause()
            title = str(app.screen.query_one("#recall-title").render())
            text = str(app.screen.query_one("#recall-text").render())
            assert "HISTORIAL" in title
            assert only_printable(text) and "\\u001b[2J" in text
            assert not any(line.startswith("FORGED") for line in text.splitlines())
            await pilot.press("escape")
            log = str(app.table_screen.log_view.render())
            assert only_printable(log) and MARKUP in log  # shown as typed, not run as markup
            assert "\\u001b[2J" in log and not any(line.startswith("FORGED") for line in log.splitlines())

    run()


def test_printable_event_leaves_the_journal_event_untouched(old_madero_journal):
    from shared.journal import Journal

    with Journal.open_existing(old_madero_journal, game="madero") as journal:
        event = next(e for e in journal.events() if e.type == "round_voided")
        shown = printable_event(event)
        assert shown.payload["reason"] == printable(HOSTILE_REASON)
        assert event.payload["reason"] == HOSTILE_REASON and journal.hash_ok(event)


def test_every_subcommand_escapes_what_it_echoes():
    """A card token with a clipboard-write code, echoed in the refusal, arrives escaped."""
    out = run_tool("madero", ["hand", CLIPBOARD, "Kd", "Qh", "Jc", "10s"])
    assert out.code == 2 and "«\\u001b]»" in out.err and only_printable(out.err)


def test_a_real_process_never_writes_an_escape_code(tmp_path):
    import subprocess

    for argv in (["hand", f"A{CLEAR}", "Kd", "Qh", "Jc", "10s"], ["hand", "--batch"]):
        done = subprocess.run([sys.executable, "-m", "madero_tui.cli", *argv], input=f"{CLIPBOARD} Ks\n".encode(),
                              capture_output=True, timeout=120)
        assert done.returncode == 2 and b"Traceback" not in done.stderr
        assert b"\x1b" not in done.stdout + done.stderr and b"\x07" not in done.stdout + done.stderr


def test_training_sign_in_refuses_a_pasted_name_with_escape_codes(tmp_path):
    from textual.widgets import Input

    from test_training_tui import context
    from tui_common.training.app import TrainingApp
    from tui_common.training.screens.pick import DrillPicker
    from tui_helpers import SIZE, aio

    ctx = context(tmp_path, game="midi", seed=4, count=3)
    app = TrainingApp(ctx)

    @aio
    async def run():
        async with app.run_test(size=SIZE) as pilot:
            app.screen.query_one("#trainee", Input).value = f"Ana{CLEAR}"  # as a paste puts it
            await pilot.press("enter")
            error = str(app.screen.query_one("#signin-error").render())
            assert "aprendiz" in error and "\\u001b" in error and only_printable(error)
            assert ctx.trainee is None and not isinstance(app.screen, DrillPicker)

    run()


def test_a_trainee_name_with_markup_is_shown_as_typed(tmp_path):
    from test_training_tui import context
    from tui_common.training.app import TrainingApp
    from tui_common.training.screens.pick import DrillPicker
    from tui_helpers import SIZE, aio

    ctx = context(tmp_path, game="midi", seed=4, count=3, trainee=f"Ana {MARKUP}")
    app = TrainingApp(ctx)

    @aio
    async def run():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, DrillPicker)
            assert MARKUP in str(app.screen.query_one(".dialog-title").render())

    run()
