"""Midi table settings: the shipped default and the regulated limits."""

from dataclasses import replace
from decimal import Decimal

import pytest

from shared.errors import InputError
from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig


def base(**changes):
    data = {"table_id": "T1", "minimum": 10, "maximum": 1000, "tie_maximum": 100}
    data.update(changes)
    return data


def test_default_table_is_the_shipped_one():
    t = DEFAULT_MIDI_TABLE
    assert (t.table_id, t.currency, t.chip) == ("MPB-02", "ARS", Decimal(1))
    assert (t.decks, t.banca_mode, t.minimum, t.maximum, t.tie_maximum) == (
        8, "half-six", Decimal(10), Decimal(1000), Decimal(100))
    assert (t.multiples_of_minimum, t.standing_bettors, t.boxes) == (False, 0, 9)
    assert t.sabot_rotation == "customary"


@pytest.mark.parametrize(
    "changes, article",
    [
        ({"minimum": 5, "maximum": 300, "tie_maximum": 30}, "Anexo II"),
        ({"minimum": 1000, "maximum": 60000, "tie_maximum": 6000}, "Anexo II"),
        ({"maximum": 200, "tie_maximum": 20}, "Art. 5 §4"),
        ({"maximum": 1010, "tie_maximum": 100}, "Art. 5 §4"),
        ({"tie_maximum": 101}, "Art. 5 §5"),
        ({"decks": 7}, "Art. 2 §1"),
        ({"boxes": 10}, "Art. 2 §5"),
        ({"banca_mode": "free"}, "banca_mode"),
        ({"colour": "green"}, "colour"),
        ({"standing_bettors": True}, "Art. 4 §1"),
        # Art. 7 §1: a bet is made of chips, so a limit is a whole number of the smallest chip
        ({"chip": 3, "minimum": 10}, "minimum: Art. 7 §1: debe ser múltiplo de la ficha mínima (3)"),
        ({"chip": 5, "tie_maximum": 99}, "tie_maximum: Art. 7 §1: debe ser múltiplo de la ficha mínima (5)"),
    ],
)
def test_limits_outside_the_regulation_are_refused(changes, article):
    with pytest.raises(InputError) as err:
        MidiTableConfig.from_mapping(base(**changes))
    assert article in err.value.message("es")


def test_limits_at_the_edges_are_accepted():
    t = MidiTableConfig.from_mapping(base(minimum=10, maximum=300, tie_maximum=30))
    assert t.maximum == 300
    t = MidiTableConfig.from_mapping(base(minimum=500, maximum=50000, tie_maximum=5000, decks=6,
                                          banca_mode="commission", standing_bettors=4))
    assert (t.decks, t.standing_bettors) == (6, 4)


def test_loaded_from_toml(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('table_id = "MPB-07"\nminimum = 20\nmaximum = 2000\ntie_maximum = 200\n'
                    'multiples_of_minimum = true\nsabot_rotation = "each-coup"\n')
    t = MidiTableConfig.from_toml(path)
    assert t.multiples_of_minimum and t.sabot_rotation == "each-coup" and t.boxes == 9


def test_standing_bettors_false_means_none():
    assert MidiTableConfig.from_mapping(base(standing_bettors=False)).standing_bettors == 0


def test_a_table_made_in_code_obeys_the_same_rules():
    # The rules belong to the table itself, not to the file reader: code cannot make a bad one.
    with pytest.raises(ValueError, match=r"Art\. 5 §5"):
        replace(DEFAULT_MIDI_TABLE, tie_maximum=Decimal(101))
    with pytest.raises(ValueError, match=r"Art\. 2 §1"):
        replace(DEFAULT_MIDI_TABLE, decks=7)


def test_with_changes_reads_the_changes_as_a_file_would():
    assert DEFAULT_MIDI_TABLE.with_changes(chip="5", banca_mode="commission").chip == Decimal(5)
    with pytest.raises(InputError) as err:
        DEFAULT_MIDI_TABLE.with_changes(chip="7")
    assert "múltiplo de la ficha" in err.value.msg.render("es") and err.value.msg.render("es").startswith("MPB-02")


def test_a_table_files_problems_are_in_the_readers_language():
    """No English («Field required», «Input should be …», «Unexpected keyword argument», a
    reader library's words) reaches a Spanish refusal of a table file (issue 31 item 12)."""
    from shared.errors import InputError
    from shared.midi.config import MidiTableConfig

    with pytest.raises(InputError) as err:
        MidiTableConfig.from_mapping({"table_id": "X", "tie_maximum": 100, "colour": "red", "banca_mode": "foo"})
    es, en = err.value.msg.render("es"), err.value.msg.render("en")
    assert "minimum: falta, es obligatorio" in es and "banca_mode: debe ser uno de: half-six, commission" in es
    assert "colour: no es un ajuste de la mesa" in es
    assert not any(word in es for word in ("Field", "Input", "Unexpected", "should"))
    assert "banca_mode: must be one of: half-six, commission" in en
