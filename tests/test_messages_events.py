"""The base of the one-engine design: catalog messages and the typed-event codec."""

import json
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.errors import RuleViolation
from shared.events import VERSION_KEY, EventBody, EventCodec, Fold
from shared.messages import Joined, Money, Msg, Plain, env_lang, langs, message_json, message_of_json, money_text, template_fields


class Bet(Enum):
    ANTE = "ante"


@dataclass(frozen=True)
class Placed(EventBody):
    type = "placed"
    box: int
    bet: Bet
    amount: Decimal
    cards: tuple[str, ...] = ()
    by_spot: dict[str, Decimal] | None = None


@dataclass(frozen=True)
class Renamed(EventBody):
    type = "renamed"
    version = 2
    name: str

    @classmethod
    def upcast(cls, payload, version):
        return {"name": payload["old_name"]}


def test_a_body_round_trips_through_the_journal_row_shape():
    body = Placed(3, Bet.ANTE, Decimal("12.5"), ("Ah", "Kd"), {"1": Decimal("5")})
    codec = EventCodec(Placed)
    type_, payload = codec.encode(body)
    assert (type_, payload) == ("placed", {"box": 3, "bet": "ante", "amount": "12.5", "cards": ["Ah", "Kd"],
                                          "by_spot": {"1": "5"}})
    assert codec.decode(type_, payload) == body


def test_version_one_rows_carry_no_version_and_older_rows_are_upcast():
    assert VERSION_KEY not in Placed(1, Bet.ANTE, Decimal(1)).to_payload()
    assert Renamed("x").to_payload() == {"name": "x", VERSION_KEY: 2}
    codec = EventCodec(Renamed)
    assert codec.decode("renamed", {"old_name": "y"}) == Renamed("y")
    assert codec.decode("renamed", {"name": "z", VERSION_KEY: 2}) == Renamed("z")


def test_unknown_and_duplicate_types_are_refused():
    with pytest.raises(ValueError):
        EventCodec(Placed).decode("nope", {})
    with pytest.raises(ValueError):
        EventCodec(Placed, Placed)


def test_a_fold_names_the_event_types_it_does_not_handle():
    fold: Fold[list] = Fold()
    codec = EventCodec(Placed, Renamed)
    assert fold.missing(codec) == {"placed", "renamed"}

    @fold.on(Placed)
    def _placed(state, body):
        state.append(body.box)

    seen: list = []
    fold.apply(seen, Placed(4, Bet.ANTE, Decimal(1)))
    assert seen == [4] and fold.missing(codec) == {"renamed"}


def test_amounts_are_written_the_way_each_language_writes_them():
    assert money_text(Decimal("5000"), "es") == "5.000"
    assert money_text(Decimal("5000"), "en") == "5,000"
    assert money_text(Decimal("-1234.5"), "es") == "\u22121.234,5"  # the true minus, as on the consoles
    assert money_text(Decimal("1234.5"), "en") == "1,234.5"


def test_lang_from_the_environment_follows_posix_precedence():
    assert env_lang({"LC_ALL": "en_US.UTF-8", "LANG": "es_AR.UTF-8"}) == "en"
    assert env_lang({"LANG": "en_GB.UTF-8"}) == "en"
    assert env_lang({"LANG": "fr_FR.UTF-8"}) == "es"
    assert env_lang({}) == "es"
    assert langs()[0] == "es"


def test_a_legacy_pair_and_a_catalog_message_render_alike(monkeypatch):
    import shared.messages as messages

    monkeypatch.setattr(messages, "catalog", lambda lang, directory=None: {
        "format.thousands": "." if lang == "es" else ",", "format.decimal": "," if lang == "es" else ".",
        "t.flop": "Flop {amount}" if lang == "en" else "Flop de {amount}"})
    err = RuleViolation("Art. 8 §26.2", Msg.of("t.flop", amount=Decimal(2000)))
    assert err.message("en") == "Art. 8 §26.2: Flop 2,000"
    assert str(err) == "Art. 8 §26.2: Flop de 2.000"
    assert template_fields("{a} y {b}") == {"a", "b"}


_names = st.text(alphabet="abcdefghij_", min_size=1, max_size=6)
_leaves = st.one_of(
    st.text(max_size=8), st.integers(-10**6, 10**6),
    st.decimals(allow_nan=False, allow_infinity=False, places=2, min_value=-10**6, max_value=10**6),
    st.builds(Money, st.decimals(allow_nan=False, allow_infinity=False, places=2, min_value=0, max_value=10**6),
              st.sampled_from(["", "ARS"])),
    st.builds(Plain, st.text(max_size=8)),
)
_messages = st.recursive(
    _leaves,
    lambda inner: st.one_of(
        st.builds(lambda code, params: Msg.of(code, **params), _names, st.dictionaries(_names, inner, max_size=4)),
        st.builds(Joined, st.lists(inner, min_size=1, max_size=3).map(tuple), st.sampled_from([" + ", "\n"])),
    ),
    max_leaves=12,
)


@given(_messages.filter(lambda m: isinstance(m, Msg)))
def test_a_journaled_message_reads_back_as_it_was_made(message):
    """What ``message_json`` writes (through the journal's JSON) reads back equal, its
    parameters in ``Msg.of``'s order however the row lists them (a settlement reads a hundred
    back, and ``message_of_json`` builds them without ``Msg.of``'s keywords)."""
    row = json.loads(json.dumps(message_json(message), sort_keys=True))
    assert message_of_json(row) == message
    if "params" in row:
        row["params"] = dict(reversed(list(row["params"].items())))
        assert message_of_json(row) == message
