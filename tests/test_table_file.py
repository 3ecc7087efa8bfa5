"""A table file is read once; later launches read the journal's record of it."""

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from midi_tui.recall import describe
from shared.base_events import TABLE_CONFIG
from shared.config import TableFile
from shared.errors import InputError
from shared.messages import Msg
from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig
from shared.midi.table import MidiTable
from shared.table_file import open_table

TABLE = 'table_id = "MPB-07"\nminimum = 20\nmaximum = 2000\ntie_maximum = 200\nbanca_mode = "commission"\n'


def launch(file, db):
    return open_table("midi", MidiTableConfig, DEFAULT_MIDI_TABLE, table=TableFile.read(file), db=db, training=False)


def recorded(journal):
    return [e for e in journal.events() if e.type == TABLE_CONFIG]


def test_the_first_launch_records_the_file_and_the_next_reads_it_back(tmp_path):
    file, db = tmp_path / "mesa.toml", tmp_path / "j.db"
    file.write_text(TABLE)
    config, journal = launch(file, db)
    assert (config.table_id, config.maximum, config.banca_mode) == ("MPB-07", Decimal(2000), "commission")
    [entry] = recorded(journal)
    assert entry.payload["file"] == str(file) and entry.payload["values"]["maximum"] == "2000"
    journal.close()
    again, journal = launch(file, db)
    assert again == config and len(recorded(journal)) == 1  # nothing new to record
    journal.close()


def test_a_changed_file_is_read_again_and_recorded_from_then_on(tmp_path):
    file, db = tmp_path / "mesa.toml", tmp_path / "j.db"
    file.write_text(TABLE)
    launch(file, db)[1].close()
    file.write_text(TABLE.replace("maximum = 2000", "maximum = 1000").replace("tie_maximum = 200", "tie_maximum = 100"))
    config, journal = launch(file, db)
    assert config.maximum == 1000
    assert [e.payload["values"]["maximum"] for e in recorded(journal)] == ["2000", "1000"]
    journal.close()


def test_a_recorded_table_is_read_back_without_reading_the_file_again(tmp_path, monkeypatch):
    file, db = tmp_path / "mesa.toml", tmp_path / "j.db"
    file.write_text(TABLE)
    config, journal = launch(file, db)
    journal.close()

    def unread(file):
        raise AssertionError("the file was read again")

    monkeypatch.setattr(MidiTableConfig, "from_file", unread)
    again, journal = launch(file, db)
    assert again == config and again.maximum == 2000
    journal.close()


def test_recorded_values_that_break_a_rule_are_not_trusted(tmp_path):
    # Whatever the record says, the rules run on it: here it claims a TIE limit above 10 %
    # of the maximum (Art. 5 §5) for the file's very bytes, so the file is read again.
    file, db = tmp_path / "mesa.toml", tmp_path / "j.db"
    file.write_text(TABLE)
    config, journal = launch(file, db)
    payload = recorded(journal)[0].payload
    journal.append(TABLE_CONFIG, {**payload, "values": {**payload["values"], "tie_maximum": "900"}}, round_id=0, actor=None)
    journal.close()
    again, journal = launch(file, db)
    assert again == config and again.tie_maximum == 200
    assert len(recorded(journal)) == 3
    journal.close()


def test_a_file_that_breaks_a_rule_leaves_no_journal_behind(tmp_path):
    file, db = tmp_path / "mesa.toml", tmp_path / "j.db"
    file.write_text(TABLE.replace("tie_maximum = 200", "tie_maximum = 900"))
    with pytest.raises(InputError) as refused:
        launch(file, db)
    assert "Art. 5 §5" in refused.value.msg.render("es") and not db.exists()


def test_the_engine_folds_the_record_and_recall_describes_it(tmp_path):
    file, db = tmp_path / "mesa.toml", tmp_path / "j.db"
    file.write_text(TABLE)
    config, journal = launch(file, db)
    table = MidiTable(journal, None, config=config)
    assert table.applied_seq == journal.last_seq
    [entry] = recorded(journal)
    assert describe(entry, "es", config).endswith(f"Mesa MPB-07 configurada desde {file}: mín 20 · máx 2.000")
    assert "Table MPB-07 set up from" in describe(entry, "en", config)
    journal.close()


def test_a_journal_that_recorded_a_retired_setting_still_opens(tmp_path):
    # Before Art. 5 §2–3 became the rule, a table could set exact_banca_bets; a journal that
    # recorded it for the file's very bytes opens with the rule, the file unread.
    file, db = tmp_path / "mesa.toml", tmp_path / "j.db"
    file.write_text(TABLE + "exact_banca_bets = true\n")
    with pytest.raises(InputError) as refused:  # a file may no longer set it
        launch(file, db)
    assert "exact_banca_bets" in refused.value.msg.render("es")
    file.write_text(TABLE)
    config, journal = launch(file, db)
    payload = recorded(journal)[0].payload
    journal.append(TABLE_CONFIG, {**payload, "values": {**payload["values"], "exact_banca_bets": True}},
                   round_id=0, actor=None)
    journal.close()
    again, journal = launch(file, db)
    assert again == config and len(recorded(journal)) == 2  # read back from the record, not the file
    journal.close()


def test_a_madero_journal_that_recorded_limits_on_ante_still_opens(tmp_path):
    from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig

    file, db = tmp_path / "madero.toml", tmp_path / "m.db"
    file.write_text('table_id = "MPB-09"\nminimum = 10\nmaximum = 500\n')
    config, journal = open_table("madero", MaderoTableConfig, DEFAULT_MADERO_TABLE, table=TableFile.read(file), db=db,
                                 training=False)
    payload = recorded(journal)[0].payload
    journal.append(TABLE_CONFIG, {**payload, "values": {**payload["values"], "limits_on_ante": True}},
                   round_id=0, actor=None)
    journal.close()
    again, journal = open_table("madero", MaderoTableConfig, DEFAULT_MADERO_TABLE, table=TableFile.read(file), db=db,
                                 training=False)
    # Read back from the record, with every bet within the limits: the Ante at most 250 (§20).
    assert again == config and again.ante_maximum == 250 and len(recorded(journal)) == 2
    journal.close()


@pytest.mark.parametrize("line, field", [
    ('contribution_percent = "50"', "contribution_percent"),  # an amount is a TOML number
    ('minimum = "１０"', "minimum"),
    ('table_id = ".."', "table_id"),  # it names the journal's file
    ('table_id = "MPB.01"', "table_id"),
])
def test_a_table_file_holds_the_documented_types_and_a_plain_table_id(tmp_path, line, field):
    from shared.madero.config import MaderoTableConfig

    file = tmp_path / "mesa.toml"
    file.write_text("\n".join([line, *(kept for kept in ['table_id = "MPB-09"', "minimum = 10", "maximum = 500"]
                                      if kept.split(" =")[0] != line.split(" =")[0])]) + "\n")
    with pytest.raises(InputError) as refused:
        MaderoTableConfig.from_toml(file)
    assert f"\n{field}: " in refused.value.msg.render("es")


@pytest.mark.parametrize(("text", "es", "en"), [
    ("minimum = 10 10\n", "se esperaba el fin de línea después de la declaración (línea 1, columna 14)",
     "end of line expected after the statement (line 1, column 14)"),
    ("minimum = \n", "valor inválido (línea 1, columna 11)", "invalid value (line 1, column 11)"),
    ("a = 1\na = 2\n", "no se puede reemplazar un valor ya dado (línea 2, columna 6)",
     "a value already given cannot be replaced (line 2, column 6)"),
    ("[mesa\n", "falta «]» al final de la declaración de tabla (línea 1, columna 6)",
     "“]” missing at the end of the table declaration (line 1, column 6)"),
    ('table_id = "MPB-01', "texto sin cerrar (falta la comilla final) (al final del archivo)",
     "string not closed (the closing quote is missing) (at the end of the file)"),
])
def test_a_malformed_table_file_is_told_in_the_consoles_language(tmp_path, text, es, en):
    """tomllib's own message is English: the person fixing the file reads where and what in the
    console's language."""
    path = tmp_path / "mesa.toml"
    path.write_text(text)
    with pytest.raises(InputError) as refused:
        TableFile.read(path)
    assert refused.value.message("es") == f"no se pudo leer {path}: no es TOML válido: {es}"
    assert refused.value.message("en") == f"cannot read {path}: not valid TOML: {en}"


def test_a_table_file_that_cannot_be_opened_says_why_in_the_consoles_language(tmp_path):
    (tmp_path / "folder.toml").mkdir()
    (tmp_path / "latin1.toml").write_bytes('table_id = "Peñarol"\n'.encode("latin-1"))
    for name, es in (("missing.toml", "el archivo no existe"), ("folder.toml", "es una carpeta, no un archivo"),
                     ("latin1.toml", "no está en UTF-8 (byte 15)")):
        with pytest.raises(InputError) as refused:
            TableFile.read(tmp_path / name)
        assert refused.value.message("es").endswith(es)


def test_every_message_of_this_pythons_toml_parser_has_catalog_words() -> None:
    """A Python whose tomllib words its errors anew shows them as written; this names the one
    that does, so the catalog follows."""
    import ast
    import re
    import tomllib._parser as parser

    from shared.config import _TOML_PROBLEMS

    said = set()
    for node in ast.walk(ast.parse(Path(parser.__file__).read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "suffixed_err" and len(node.args) == 3:
            message = node.args[2]
            if isinstance(message, ast.Constant):
                said.add(message.value)
            elif isinstance(message, ast.JoinedStr):
                said.add("".join(part.value if isinstance(part, ast.Constant) else "'x'" for part in message.values))
    assert said
    for message in said:
        assert any(re.fullmatch(pattern, message) for pattern, _ in _TOML_PROBLEMS), message
    for _, code in _TOML_PROBLEMS:
        for lang in ("es", "en"):
            assert Msg.of(f"toml.{code}", what="x").render(lang) != f"toml.{code}"


def _read_as_tomllib_would(text: str) -> object:
    import tomllib

    try:
        return repr(tomllib.loads(text, parse_float=Decimal))  # repr: Decimal('1.50') is not Decimal('1.5')
    except tomllib.TOMLDecodeError:
        return "refused"


# Each part of a line: what a table file writes, and what it should not.
_KEYS = (["a", "table_id", "x-1", "_", "1", "A"], ["", "a.b", '"q"', "a b", "ñ"])
_VALUES = (["1", "-0", "+7", "0.5", "-0.0", "+1.50", "true", "false", '"text"', '"a#b"', '"tab\there"', '""',
            '"Peñarol"'],
           ["01", "+-1", "--1", "1_0", "00.5", "1.", ".5", "1e3", "inf", "True", "true x", '"a\\"b"', '"a\\nb"',
            '"unclosed', '"a"b"', '"a" b', "'lit'", '"""m"""', "[1, 2]", "{a = 1}", '"x\x00"', '"\u00a0"', ""])
_SPACE = ([" ", "", "\t"], ["\u00a0", "\x0b"])
_COMMENTS = (["", "# note", " # c", "#", "#ñ"], ["#\x7f", "#\x01", "x"])
_LINES = (["", "# c", "   "], ["[t]", "\r", "\ufeff", "\ufeffa = 1"])
_PARTS = (_SPACE, _KEYS, _SPACE, _VALUES, _SPACE, _COMMENTS)


@st.composite
def _table_file(draw: st.DrawFn) -> str:
    """Lines of what a table file writes; half the time one part of one line is what it should
    not write (a key, often a value, a space, a comment, a key given twice, or the whole line)."""
    keys = draw(st.permutations(_KEYS[0]))
    lines = [[draw(st.sampled_from(pools[0])) for pools in _PARTS] for _ in range(draw(st.integers(1, 4)))]
    for line, key in zip(lines, keys, strict=False):
        line[1] = key
    lines += [[draw(st.sampled_from(_LINES[0]))] for _ in range(draw(st.integers(0, 1)))]
    lines = draw(st.permutations(lines))
    if draw(st.booleans()):
        line = draw(st.sampled_from(lines))
        part = draw(st.sampled_from([0, 1, 3, 3, 3, 3, 5, -1]))
        if len(line) == 1:
            line[0] = draw(st.sampled_from(_LINES[1]))
        elif part == -1:  # a key given twice
            line[1] = draw(st.sampled_from([other[1] for other in lines if len(other) > 1]))
        else:
            line[part] = draw(st.sampled_from(_PARTS[part][1]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join("".join(line[:3]) + "=" + "".join(line[3:]) if len(line) > 1 else line[0] for line in lines)


@given(_table_file())
@settings(max_examples=1000, deadline=None)
def test_a_flat_table_file_is_read_as_tomllib_reads_it(text: str) -> None:
    """Made-up files of ``key = value`` lines, many of them not flat or not TOML: what
    ``flat_toml`` reads, tomllib reads the same (the same keys, values of the same type and
    text); the rest it leaves to tomllib."""
    from shared.config import flat_toml

    flat = flat_toml(text)
    if flat is not None:
        assert repr(flat) == _read_as_tomllib_would(text), text


@pytest.mark.parametrize("text", [
    TABLE, "", "# a table\n\n", 'table_id = "MPB-07"   # the pit\'s name for it\r\nchip = 0.5\r\n',
    "minimum = +20\nmaximum=-0\nmultiples_of_minimum = true\nname = \"Mesa\tPeñarol # 2\"\n",
])
def test_a_table_file_as_casinos_write_one_is_read_without_tomllib(text: str) -> None:
    from shared.config import flat_toml

    assert flat_toml(text) is not None and repr(flat_toml(text)) == _read_as_tomllib_would(text)


@pytest.mark.parametrize("text", [
    *(f"{key} = 1" for key in _KEYS[1]), *(f"k = {value}" for value in _VALUES[1]),
    *(f"k{space}= 1" for space in _SPACE[1]), *(f"k = 1 {comment}" for comment in _COMMENTS[1]),
    *(f"{line}\nk = 1" for line in _LINES[1] if line != "\r"), "k = 1\nk = 2", "k = 1\r", "k = 1\rj = 2",
])
def test_what_is_not_a_flat_table_file_is_left_to_tomllib(text: str) -> None:
    """Each form outside a flat table file, valid TOML (``1_0``, ``'lit'``) or not: tomllib reads
    it, or refuses it with its own words."""
    from shared.config import flat_toml

    assert flat_toml(text) is None
