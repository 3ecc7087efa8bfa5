"""Madero table settings: the shipped default and every article the loader enforces."""

from dataclasses import replace
from decimal import Decimal

import pytest

from shared.errors import InputError
from shared.madero.config import DEFAULT_MADERO_TABLE, JackpotMode, MaderoTableConfig

BASE = {"table_id": "T1", "minimum": "10", "maximum": "500"}


def load(**over):
    return MaderoTableConfig.from_mapping(BASE | over)


def test_default_table_is_the_one_of_the_brief():
    t = DEFAULT_MADERO_TABLE
    assert (t.table_id, t.currency, t.chip, t.minimum, t.maximum) == ("MPB-01", "ARS", 1, 10, 500)
    assert (t.bonus_minimum, t.bonus_maximum, t.jackpot_credit_value) == (5, 100, 1)
    assert t.jackpot_mode is JackpotMode.FIXED and t.bonus_1000_line and t.boxes == 7
    # The band holds the Bonus limits too (§21, §61): its shipped floor is the Bonus minimum.
    assert (t.band_minimum, t.band_maximum) == (5, 50000)


@pytest.mark.parametrize(
    ("over", "article"),
    [
        ({"boxes": 8}, "Art. 2 §8"),
        ({"band_minimum": "20"}, "Art. 6 §21"),
        # §21 with §61: the Bonus limits lie within the band too (1 and 60,000 on a 10–50,000 band)
        ({"band_minimum": "10", "bonus_minimum": "1"}, "Art. 13 §61"),
        ({"bonus_maximum": "60000"}, "Art. 13 §61"),
        ({"maximum": "60000"}, "Art. 6 §21"),
        ({"jackpot_credit_value": "3"}, "Art. 11 §42"),
        ({"bonus_minimum": "200"}, "Art. 13 §61"),
        ({"jackpot_mode": "progressive", "contribution_percent": "5", "progressive_seed": "4999"}, "Art. 11 §51"),
        ({"jackpot_mode": "progressive"}, "Art. 11 §51"),
        ({"carrusel_id": "C1"}, "Art. 12 §58"),
        ({"jackpot_mode": "progressive", "contribution_percent": "101"}, "Art. 11 §51"),
        ({"jackpot_mode": "progressive", "contribution_percent": "5", "carrusel_id": ""}, "Art. 12 §58"),
        # a chip of 10 cannot pay a straight's 25 per credit exactly
        ({"chip": "10", "minimum": "50", "bonus_minimum": "10", "jackpot_credit_value": "10"}, "Art. 11 §48"),
        # nor a progressive table's Carta Mágica (30 per credit) with a chip of 25
        ({"chip": "25", "minimum": "125", "maximum": "1000", "bonus_minimum": "25", "jackpot_credit_value": "25",
          "jackpot_mode": "progressive", "contribution_percent": "5"}, "Art. 11 §50"),
        # §20 with §26.2: no Ante of 10 or more has a Flop within a maximum of 15
        ({"maximum": "15"}, "Art. 6 §20"),
        # §20: a bet is made of chips, so a limit is a whole number of the smallest chip
        ({"chip": "5", "minimum": "12"}, "minimum: Art. 6 §20: debe ser múltiplo de la ficha mínima (5)"),
        ({"chip": "5", "bonus_minimum": "7"}, "bonus_minimum: Art. 6 §20: debe ser múltiplo de la ficha mínima (5)"),
    ],
)
def test_invalid_tables_are_refused_citing_the_article(over, article):
    with pytest.raises(InputError) as err:
        load(**over)
    assert article in err.value.msg.render("es")


def test_a_chip_that_divides_every_prize_is_accepted():
    assert load(chip="5", minimum="25", bonus_minimum="5", jackpot_credit_value="5").chip == 5


def test_ante_maximum_is_half_the_maximum_and_no_setting_lifts_it():
    # §20: every bet within the table's limits, the Flop (2 × Ante, §26.2) included.
    assert load().ante_maximum == 250 and load(maximum="25").ante_maximum == 12
    with pytest.raises(InputError) as err:
        load(limits_on_ante=True)
    assert "limits_on_ante: ya no es un ajuste" in err.value.message("es")
    assert "limits_on_ante: no longer a table setting" in err.value.message("en")


def test_jackpot_credits_may_total_exactly_the_minimum():
    assert load(jackpot_credit_value="2").jackpot_credit_value == 2


def test_progressive_seed_defaults_to_the_floor_of_section_51():
    t = load(jackpot_mode="progressive", contribution_percent="10", jackpot_credit_value="2")
    assert t.seed == Decimal(10000) and t.progressive
    assert load(jackpot_mode="progressive", contribution_percent="10", progressive_seed="20000").seed == 20000


def test_unknown_fields_are_refused():
    with pytest.raises(InputError):
        load(colour="red")


@pytest.mark.parametrize(
    ("over", "field"),
    [({"table_id": ""}, "table_id"), ({"table_id": "MESA 1"}, "table_id"), ({"chip": "0"}, "chip"),
     ({"minimum": "-10"}, "minimum"), ({"boxes": 0}, "boxes"), ({"bonus_maximum": "0"}, "bonus_maximum"),
     ({"minimum": "diez"}, "minimum")],
)
def test_malformed_fields_are_refused_by_name(over, field):
    with pytest.raises(InputError) as err:
        load(**over)
    assert f"\n{field}: " in err.value.msg.render("es")
    assert f"\n{field}: " in err.value.msg.render("en")


def test_a_table_files_refusal_speaks_each_language_with_its_amounts():
    with pytest.raises(InputError) as err:
        load(minimum="1000", maximum="2000", band_maximum="1500")
    assert "(1.000–2.000)" in err.value.message("es") and "banda autorizada" in err.value.message("es")
    assert "(1,000–2,000)" in err.value.message("en") and "band authorised" in err.value.message("en")


def test_a_table_made_in_code_obeys_the_same_rules():
    # The rules belong to the table itself, not to the file reader: code cannot make a bad one.
    with pytest.raises(ValueError, match=r"Art\. 2 §8"):
        replace(DEFAULT_MADERO_TABLE, boxes=8)
    with pytest.raises(ValueError, match=r"Art\. 11 §42"):
        replace(DEFAULT_MADERO_TABLE, jackpot_credit_value=Decimal(3))
