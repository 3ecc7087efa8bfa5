"""The apps' words: the ``[ui]`` section of the one catalog per language (``shared/locale``).

``t(key, lang, **values)`` is the apps' short form of ``shared.messages.text("ui." + key, …)``;
``tests/test_i18n.py`` checks that every key the code asks for exists in every catalog with the
same ``{fields}``. Engine messages carry their own codes (``ConsoleError.message(lang)``).
"""

from __future__ import annotations

from decimal import Decimal

from shared.errors import InputError
from shared.messages import Msg, catalog, langs, text

LANGS = langs()
SECTION = "ui"


def t(key: str, lang: str = "es", /, **values: object) -> str:
    """The text for ``key`` in ``lang``, with ``{name}`` fields filled from ``values``."""
    return text(f"{SECTION}.{key}", lang, **values)


def has(key: str) -> bool:
    """Whether the catalog has ``key`` (for words built from data, such as a role's name)."""
    return f"{SECTION}.{key}" in catalog("es")


STAFF_EVENT_KEYS = {
    "staff_enrolled": "ev_staff_enrolled",
    "staff_deactivated": "ev_staff_deactivated",
    "staff_pin_reset": "ev_staff_pin_reset",
    "staff_unlocked": "ev_staff_unlocked",
    "staff_pin_changed": "ev_staff_pin_changed",
    "pin_failed": "ev_pin_failed",
    "account_locked": "ev_account_locked",
    "shift_opened": "ev_shift_opened",
    "shift_closed": "ev_shift_closed",
}


def staff_event_text(kind: str, payload: dict, lang: str) -> str | None:
    """A staff or shift entry in words (both consoles' recall and log), None for other entries."""
    key = STAFF_EVENT_KEYS.get(kind)
    if key is None:
        return None
    values = {"name": "", "reason": "", "until": "", "previous": None, "attempt": 0} | payload
    if kind == "pin_failed" and not values["attempt"]:
        key = "ev_pin_failed_unknown"
    if kind == "shift_opened" and values["previous"]:
        key = "ev_relief"
    if "role" in values and kind != "shift_opened":
        role = values["role"]
        values["role"] = t(f"role_{role}", lang) if has(f"role_{role}") else role
    return t(key, lang, **values)


def table_config_text(payload: dict, lang: str) -> str:
    """The journal's ``table_config`` entry in words (both consoles' recall and log)."""
    values = payload["values"]
    return t("ev_table_config", lang, table=values["table_id"], file=payload["file"],
             minimum=Decimal(values["minimum"]), maximum=Decimal(values["maximum"]))


def input_error(key: str, /, **values: object) -> InputError:
    """An ``InputError`` carrying a catalog entry (for refusals the UI itself makes)."""
    return InputError(Msg.of(f"{SECTION}.{key}", **values))
