from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.errors import InputError
from shared.money import MINUS, fmt_money, fmt_signed, round_down_to_chip, round_up_to_chip, to_money


def test_amounts_are_exact_and_floats_refused():
    assert to_money("12,50") == Decimal("12.50")
    assert to_money(10) == Decimal(10)
    for bad in (0.1, "abc", "-5", "nan", True):
        with pytest.raises(InputError):
            to_money(bad)


@pytest.mark.parametrize("typed", ["２０", "٢٠", "2_0", "2e1", "0x14", "2\u00a00"])
def test_an_amount_is_ascii_digits_and_one_decimal_point(typed):
    # Decimal() reads the first four as 20: nobody means them as money.
    with pytest.raises(InputError) as err:
        to_money(typed)
    assert "importe ilegible" in err.value.message("es")
    assert to_money(" 20 ") == to_money("20,0") == to_money(".5") * 40 == 20


@given(st.decimals(min_value=0, max_value=10**6, places=2), st.sampled_from([Decimal(1), Decimal(5), Decimal("0.5")]))
def test_round_down_to_chip_never_overpays(amount, chip):
    paid = round_down_to_chip(amount, chip)
    assert paid <= amount < paid + chip
    assert paid % chip == 0


@given(st.decimals(min_value=0, max_value=10**6, places=2), st.sampled_from([Decimal(1), Decimal(5), Decimal("0.5")]))
def test_round_up_to_chip_never_underpays(amount, chip):
    paid = round_up_to_chip(amount, chip)
    assert paid - chip < amount <= paid
    assert paid % chip == 0


def test_display_uses_the_argentine_convention():
    assert fmt_money(Decimal(1000), "ARS") == "ARS 1.000"
    assert fmt_money(Decimal("9.5")) == "9,5"
    # A debit with the true minus, as on the consoles (the settle tools printed a hyphen).
    assert fmt_money(Decimal(-25)) == "\u221225" and fmt_money(Decimal(-25), "ARS") == "\u2212ARS 25"


@pytest.mark.parametrize("lang, amount, shown", [
    ("es", Decimal("1500"), "+1.500"), ("es", Decimal("-12.5"), "\u221212,5"), ("es", Decimal(0), "0"),
    ("en", Decimal("1500"), "+1,500"), ("en", Decimal("-12.5"), "\u221212.5"),
])
def test_a_net_on_a_console_has_one_sign_in_every_language(lang, amount, shown):
    # Midi wrote its nets with a hyphen while Madero used a true minus: both use this now.
    assert fmt_signed(amount, lang) == shown and MINUS == "\u2212"

