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
