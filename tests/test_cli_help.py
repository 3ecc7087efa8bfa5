"""Every command's and subcommand's --help ends with an example of its use, in either language."""

from __future__ import annotations

import argparse

import pytest

from madero_tui.cli import SUBCOMMANDS as MADERO_SUBCOMMANDS
from midi_tui.cli import SUBCOMMANDS as MIDI_SUBCOMMANDS
from madero_tui.cli import main as madero_main
from midi_tui.cli import main as midi_main
from tui_common.cli import build_parser


def _parsers(parser: argparse.ArgumentParser):
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


@pytest.mark.parametrize(("lang", "example"), [("es", "ejemplo"), ("en", "example")])
@pytest.mark.parametrize(("prog", "subcommands"), [("madero-tui", MADERO_SUBCOMMANDS), ("midi-tui", MIDI_SUBCOMMANDS)])
def test_every_help_shows_an_example(prog, subcommands, lang, example):
    parsers = list(_parsers(build_parser(prog, "help.madero_console", subcommands, ["--lang", lang, "--help"])))
    assert len(parsers) > len(subcommands)  # the walk reaches the subcommands' own verbs
    for parser in parsers:
        assert f"{example}: {parser.prog} " in parser.format_help(), parser.prog


def test_table_is_a_file_everywhere_and_the_journal_takes_a_table_id():
    parser = build_parser("midi-tui", "help.midi_console", MIDI_SUBCOMMANDS, ["--help"])
    for sub in _parsers(parser):
        options = {option for action in sub._actions for option in action.option_strings}
        if "--table" in options:
            table = next(a for a in sub._actions if "--table" in a.option_strings)
            assert "TOML" in table.help, sub.prog
        if sub.prog.startswith("midi-tui journal "):
            assert "--table-id" in options and "--table" not in options


@pytest.mark.parametrize(("prog", "subcommands"), [("madero-tui", MADERO_SUBCOMMANDS), ("midi-tui", MIDI_SUBCOMMANDS)])
def test_no_parser_takes_an_option_by_its_prefix(prog, subcommands):
    parsers = list(_parsers(build_parser(prog, "help.madero_console", subcommands, ["--help"])))
    assert [parser.prog for parser in parsers if parser.allow_abbrev] == []


@pytest.mark.parametrize("main", [madero_main, midi_main])
def test_journal_refuses_table_instead_of_reading_it_as_table_id(main, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--lang", "en", "journal", "verify", "--table", "MPB-77", "--db", str(tmp_path / "none.sqlite")])
    assert exit_.value.code == 2
    assert "unrecognized arguments: --table MPB-77" in capsys.readouterr().err


@pytest.mark.parametrize(("prog", "subcommands"), [("madero-tui", MADERO_SUBCOMMANDS), ("midi-tui", MIDI_SUBCOMMANDS)])
def test_every_subcommand_takes_lang_after_its_name(prog, subcommands):
    """``report --shift --lang es`` was refused: --lang was the app's option only. Every
    subcommand and verb takes it too, and the last one given wins."""
    parsers = list(_parsers(build_parser(prog, "help.madero_console", subcommands, ["--help"])))[1:]
    assert parsers and [p.prog for p in parsers
                        if not any("--lang" in a.option_strings for a in p._actions)] == []
    argv = ["--lang", "en", "report", "--shift", "--lang", "es"]
    assert build_parser(prog, "help.madero_console", subcommands, argv).parse_args(argv).lang == "es"
    argv = ["--lang", "en", "report", "--shift"]
    assert build_parser(prog, "help.madero_console", subcommands, argv).parse_args(argv).lang == "en"


@pytest.mark.parametrize("main", [madero_main, midi_main])
def test_report_shift_lang_after_the_subcommand(main, tmp_path, capsys):
    """Read, not refused: the report's own refusal comes, in the language given after it."""
    code = main(["report", "--shift", "--lang", "en", "--db", str(tmp_path / "none.sqlite")])
    err = capsys.readouterr().err
    assert code == 2 and "report: no journal at" in err and "unrecognized" not in err


@pytest.mark.parametrize("main", [madero_main, midi_main])
def test_report_takes_the_table_file_after_its_name_too(main, tmp_path, capsys, monkeypatch):
    """``report --table t.toml`` was refused (unrecognized) while ``--table t.toml report``
    and ``settle … --table`` were read: the report names the file's table as before its name."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    table = tmp_path / "mesa.toml"
    table.write_text('table_id = "QA-77"\nminimum = 10\nmaximum = 500\n', encoding="utf-8")
    for argv in (["--lang", "en", "--table", str(table), "report"], ["--lang", "en", "report", "--table", str(table)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "report: no journal at" in err and "QA-77" in err, argv


@pytest.mark.parametrize(("argv", "said"), [
    (["--lang", "es", "odds", "--nope"], "madero-tui: error: argumentos desconocidos: --nope"),
    (["odds", "--lang", "es", "--nope"], "madero-tui: error: argumentos desconocidos: --nope"),
    (["--lang", "en", "odds", "--nope"], "madero-tui: error: unrecognized arguments: --nope"),
    (["odds", "--lang", "en", "--nope"], "madero-tui: error: unrecognized arguments: --nope"),
])
def test_argparse_speaks_the_command_lines_language_through_gettext(argv, said, capsys, monkeypatch):
    """argparse's own words come from gettext's ``argparse`` domain (the catalogs' compiled
    .mo files); argparse's module, the process's gettext domain and LANGUAGE as they were after."""
    import gettext
    import os

    monkeypatch.setenv("LANGUAGE", "fr")
    with pytest.raises(SystemExit):
        madero_main(argv)
    err = capsys.readouterr().err
    assert err.startswith(("uso: " if "es" in argv else "usage: ") + "madero-tui") and said in err
    assert argparse._ is gettext.gettext
    assert gettext.textdomain() == "messages" and os.environ["LANGUAGE"] == "fr"


@pytest.mark.parametrize(("lang", "usage"), [("es", "uso: "), ("en", "usage: ")])
def test_argparse_words_leave_the_environment_and_gettext_as_they_are_while_a_line_is_read(lang, usage, monkeypatch):
    """The process's LANGUAGE was set to the command line's while it was read (what another
    thread, or a program started meanwhile, would have read)."""
    import gettext
    import os

    from tui_common.cli import argparse_words

    monkeypatch.setenv("LANGUAGE", "fr")
    with argparse_words(lang):
        assert os.environ["LANGUAGE"] == "fr" and gettext.textdomain() == "messages"
        assert argparse.ArgumentParser(prog="mesa").format_usage().startswith(usage + "mesa")


def test_the_shipped_argparse_translations_are_the_catalogs_words():
    """Stale after an edit of a catalog's [argparse] section:
    ``python -c "from shared.messages import compile_catalogs; compile_catalogs()"``."""
    from shared.messages import argparse_mo, argparse_mo_path, catalog, langs

    for lang in langs():
        assert argparse_mo_path(lang).read_bytes() == argparse_mo(catalog(lang)), lang


def test_every_argparse_word_translated_is_one_this_python_asks_for():
    """The msgids are argparse's own English sentences: one this Python's argparse no longer
    asks for would silently stay English; this names it."""
    import inspect

    from shared.messages import ARGPARSE_WORDS

    source = inspect.getsource(argparse)
    assert [msgid for msgid in ARGPARSE_WORDS if msgid.replace("\n", "\\n") not in source] == []
