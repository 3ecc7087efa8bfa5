"""The consoles' keys derived from each game's key table: ids Textual's keymap can remap, words
in the console's language, gates that follow the engine's command table."""

from __future__ import annotations

import pytest
from textual.actions import parse
from textual.geometry import Region

from midi_tui.app import MidiApp, make_app as make_midi_app
from madero_tui.app import MaderoApp, make_app as make_madero_app
from shared.madero.table import Phase as MaderoPhase
from shared.midi.table import MidiTable, Phase
from tui_common.app import TableApp
from tui_common.i18n import t
from tui_common.keys import Key, KeyTable, parse_action
from tui_common.options import LaunchOptions
from tui_common.widgets import KeyBar, MessageLine
from tui_helpers import SIZE, aio
from test_madero_tui import key_bar as madero_key_bar, keys as madero_keys, live_app as madero_live_app
from test_midi_tui import bet, keys, live_app, sign_in, start_shoe


@pytest.mark.parametrize("app_class", [MaderoApp, MidiApp])
def test_every_key_has_its_own_id_and_every_gate_names_a_declared_command(app_class):
    bindings = [b for b in app_class.BINDINGS if not isinstance(b, tuple)]
    ids = [b.id for b in bindings]
    assert None not in ids and len(ids) == len(set(ids))
    gates = {**TableApp.KEYS.gates, **app_class.KEYS.gates}
    assert all(parse(b.action)[1:] in gates for b in bindings)  # every key's gate is its declaration's


@pytest.mark.parametrize("app_class", [MaderoApp, MidiApp])
def test_each_keys_action_reads_as_textual_reads_it_and_keeps_its_id(app_class):
    """A key table reads its actions without Python's parser (``parse_action``): each as
    Textual's ``parse`` does, and each binding's id (what a keymap names) as it was derived
    from the action text."""
    import re

    bindings = [b for b in app_class.BINDINGS if not isinstance(b, tuple)]
    actions = {**TableApp.KEYS.actions, **app_class.KEYS.actions}
    assert {b.action for b in bindings} == set(actions)
    for binding in bindings:
        assert actions[binding.action] == parse_action(binding.action) == parse(binding.action)[1:]

    def derived(text: str) -> str:  # the ids as regular expressions derived them before
        run = re.fullmatch(r"run\('(\w+)'\)", text)
        return run.group(1) if run else re.sub(r"\W+", "_", text).strip("_")

    for table in (TableApp.KEYS, app_class.KEYS):
        ids: list[str] = []
        for key in table.keys:
            binding_id = key.id or derived(key.app_action())
            ids.append(f"{binding_id}_{derived(key.key)}" if binding_id in ids else binding_id)
        assert [b.id for b in table.bindings] == ids


@pytest.mark.parametrize("action", ["f(", "f(1", "f(01)", "f('a'b)", "f(x)", "1f", "app.f", "f(1,)", "f('a,b')",
                                    "f(1.5)", "f(\"a\")", "f(True)"])
def test_an_action_of_another_form_is_refused_where_it_is_declared(action):
    with pytest.raises(ValueError, match="a key table's action is a name"):
        KeyTable([Key("x", "shoe_exhausted", action)], MidiTable.command_table())


def test_a_key_of_no_declared_command_or_without_words_is_refused_at_import():
    table = MidiTable.command_table()
    with pytest.raises(ValueError, match="no such command"):
        KeyTable([Key("x", "shoe_exausted")], table)
    with pytest.raises(ValueError, match="no words"):
        KeyTable([Key("s", ("assign_sabot", "pass_sabot"), "sabot")], table)
    assert KeyTable([Key("x", "shoe_exhausted")], table).bindings[0].description == "midi_key_exhausted"


@aio
async def test_the_keys_words_are_rendered_in_the_console_language(tmp_path):
    app = live_app(tmp_path, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        shown = {active.binding.id: active.binding.description for active in app.screen.active_bindings.values()}
        assert shown["no_va_mas"] == t("midi_key_no_va_mas", "en") != "midi_key_no_va_mas"
        assert shown["help"] == t("help", "en")


@aio
async def test_a_game_key_remapped_with_set_keymap_plays_and_the_key_bar_names_it(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        app.set_keymap({"no_va_mas": "f6"})
        await bet(pilot, 1, "p", 100)
        await keys(pilot, "n")  # no longer «No va más»: said so, nothing changes
        assert app.midi.phase is Phase.BETS
        assert "n" in str(app.table_screen.query_one(MessageLine).render())
        app.refresh_table()
        assert "F6 " + t("midi_key_no_va_mas", "es") in app.table_screen.query_one(KeyBar).text
        await pilot.press("f6")
        await pilot.pause()
        assert app.midi.phase is Phase.CARDS
        await keys(pilot, "9kk5")
        assert app.midi.phase is Phase.RESULT


@aio
async def test_madero_box_key_remapped_is_named_as_the_key_it_is_now(tmp_path):
    app = madero_live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert madero_key_bar(app).startswith("1–7 ← → casilla")
        app.set_keymap({"select_box_1": "f7"})
        app.refresh_table()
        assert madero_key_bar(app).startswith("F7 casilla") and "1–7" not in madero_key_bar(app)
        await madero_keys(pilot, "3")
        await pilot.press("f7")
        await pilot.pause()
        assert app.selected_box == 1


@aio
async def test_madero_a_remapped_as_the_ante_stays_a_cards_rank_and_the_other_way_round(tmp_path):
    """Textual took both bindings off «a» when one moved: the Ante's key moved, «a» keyed no card."""
    app = madero_live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.set_keymap({"open_bet_ante": "f7"})
        await pilot.press("f7")
        await madero_keys(pilot, "10", "enter", "n", "v")
        assert app.engine.boxes[1].ante == 10 and app.engine.phase is MaderoPhase.FLOP
        await madero_keys(pilot, "as")
        assert [str(c) for c in app.engine.board] == ["As"]
        assert "As 10h carta" in madero_key_bar(app)
        app.update_keymap({"open_bet_ante": "a", "card_key_a": "f8"})  # the rank moves off «a» too
        await madero_keys(pilot, "a")
        assert "«a»: ahora no" in app.table_screen.query_one(MessageLine).text
        await pilot.press("f8")
        await madero_keys(pilot, "d")
        assert [str(c) for c in app.engine.board] == ["As", "Ad"]


async def help_of(app, *before) -> str:
    """The F1 help's text, after ``before`` (steps of the pilot)."""
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for step in before:
            await step(pilot)
        await pilot.press("f1")
        await pilot.pause()
        body = app.screen.query_one(".dialog-body")
        return "\n".join(strip.text for strip in body.render_lines(Region(0, 0, *body.size)))


@aio
async def test_f1_at_a_live_table_leaves_out_the_training_tables_own_keys_which_training_lists(tmp_path):
    """A live table's F1 listed the training deal and the graded hint, dimmed: keys it never has."""
    for name in ("madero", "midi"):
        (tmp_path / name).mkdir()
    madero = await help_of(madero_live_app(tmp_path / "madero"))
    midi = await help_of(live_app(tmp_path / "midi"), sign_in)
    assert "a  Ante" in madero and "d  repartir" not in madero and "?  pista" not in madero
    assert "enter  sabot nuevo" in midi and "enter  repartir carta" not in midi and "?  pista" not in midi
    training = LaunchOptions(db=tmp_path / "madero-training.db", training=True, seed=11)
    madero = await help_of(make_madero_app(training, clock=lambda: "21:14"))
    midi = await help_of(make_midi_app(LaunchOptions(db=tmp_path / "midi-training.db", training=True, seed=11)))
    assert "d  repartir" in madero and "?  pista" in madero
    assert "enter  repartir carta" in midi and "?  pista" in midi
