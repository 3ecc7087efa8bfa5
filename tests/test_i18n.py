"""Every user-facing string exists in Spanish and English, and every key the code asks for exists."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from tui_common.i18n import CATALOG, LANGS, t

ROOT = Path(__file__).resolve().parents[1]
UI_PACKAGES = ("tui_common", "midi_tui", "madero_tui")
# Calls whose argument at this position (or keyword) is a catalog key.
KEY_ARGS = {"t": (0, None), "input_error": (0, None), "Binding": (2, "description"),
            "SupervisorAction": (1, "label"), "SupervisorField": (1, "label")}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_entry_has_both_languages_with_the_same_fields(key):
    es, en = CATALOG[key]
    assert es.strip() and en.strip()
    assert _fields(es) == _fields(en)


def _used_keys() -> list[tuple[str, str]]:
    used = []
    for package in UI_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                if name not in KEY_ARGS:
                    continue
                position, keyword = KEY_ARGS[name]
                arg = node.args[position] if len(node.args) > position else None
                for kw in node.keywords:
                    if keyword and kw.arg == keyword:
                        arg = kw.value
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    used.append((f"{path.relative_to(ROOT)}:{node.lineno}", arg.value))
    return used


def test_every_key_used_in_the_code_exists():
    used = _used_keys()
    assert len(used) > 30  # the scan really finds the calls
    missing = [(where, key) for where, key in used if key not in CATALOG]
    assert missing == []


def test_t_picks_the_language_and_fills_fields():
    assert t("training_banner", "es") == "ENTRENAMIENTO"
    assert t("training_banner", "en") == "TRAINING"
    assert t("signed_in", "en", staff_id="C1") == "Shift opened: croupier C1"
    assert LANGS == ("es", "en")
