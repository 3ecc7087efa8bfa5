"""One catalog per language: every code in every catalog with the same fields, every code the
code asks for exists, and a third language is one more file."""

from __future__ import annotations

import ast
import json
import shutil
import tomllib
from pathlib import Path

import pytest

from shared import messages
from shared.messages import DEFAULT_LANG, Msg, catalog, env_lang, has_code, langs, template_fields, text
from tui_common.i18n import LANGS, t

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("shared", "tui_common", "midi_tui", "madero_tui")
# Calls whose argument at this position (or keyword) is a catalog code, and the section a
# short key is looked up in ("" when the argument is the whole code).
CODE_ARGS = {"t": (0, None, "ui."), "input_error": (0, None, "ui."), "Binding": (2, "description", "ui."),
             "SupervisorAction": (1, "label", "ui."), "SupervisorField": (1, "label", "ui."),
             "tr": (0, None, "training."), "of": (0, None, ""), "text": (0, None, "")}


def test_every_language_has_every_code_with_the_same_fields():
    codes = {lang: set(catalog(lang)) for lang in langs()}
    for lang in langs():
        assert codes[lang] == codes[DEFAULT_LANG], lang
        for code in codes[lang]:
            template = catalog(lang)[code]
            assert template.strip(), (lang, code)
            assert template_fields(template) == template_fields(catalog(DEFAULT_LANG)[code]), (lang, code)


def _used_codes() -> list[tuple[str, str]]:
    used = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                if name not in CODE_ARGS or (name == "of" and getattr(node.func.value, "id", None) != "Msg"):
                    continue
                position, keyword, section = CODE_ARGS[name]
                arg = node.args[position] if len(node.args) > position else None
                for kw in node.keywords:
                    if keyword and kw.arg == keyword:
                        arg = kw.value
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    used.append((f"{path.relative_to(ROOT)}:{node.lineno}", section + arg.value))
    return used


def test_every_code_used_in_the_code_exists():
    used = _used_codes()
    assert {"ui", "training"} <= {code.split(".")[0] for _, code in used}  # the scan really finds the calls
    missing = [(where, code) for where, code in used if not has_code(code)]
    assert missing == []


def _third_language(directory: Path) -> None:
    """A catalog for a language nobody speaks: every template is «xx» and its fields."""
    sections: dict[str, dict[str, str]] = {}
    with open(directory / f"{DEFAULT_LANG}.toml", "rb") as f:
        for section, entries in tomllib.load(f).items():
            sections[section] = {key: "«xx " + " ".join(f"{{{name}}}" for name in sorted(template_fields(value))) + "»"
                                 for key, value in entries.items()}
    sections["format"] = {"thousands": " ", "decimal": ","}
    lines = []
    for section, entries in sections.items():
        lines.append(f"[{section}]")
        lines += [f"{key} = {json.dumps(value, ensure_ascii=False)}" for key, value in entries.items()]
    (directory / "xx.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_third_language_is_one_more_file(tmp_path, monkeypatch):
    for path in messages.LOCALE_DIR.glob("*.toml"):
        shutil.copy(path, tmp_path)
    _third_language(tmp_path)
    monkeypatch.setattr(messages, "LOCALE_DIR", tmp_path)
    assert langs() == (*LANGS, "xx")
    assert env_lang({"LANG": "xx_XX.UTF-8"}) == "xx"
    for code, template in catalog(DEFAULT_LANG).items():
        if code.startswith("format."):
            continue
        rendered = text(code, "xx", **{name: "v" for name in template_fields(template)})
        assert rendered.startswith("«xx"), code
    assert messages.money_text(messages.Decimal("5000.5"), "xx") == "5 000,5"


def test_the_shipped_compiled_catalogs_are_the_catalogs_parsed():
    """A launch reads each catalog's compiled copy (no TOML parse); it must be of today's file.
    Stale after an edit: ``python -c "from shared.messages import compile_catalogs; compile_catalogs()"``."""
    for path in sorted(messages.LOCALE_DIR.glob("*.toml")):
        source = path.read_bytes()
        with open(path, "rb") as f:
            parsed = {f"{section}.{key}": value for section, entries in tomllib.load(f).items()
                      for key, value in entries.items()}
        assert messages._compiled(path, source) == parsed, f"{path.name}: compiled copy out of date"


def test_a_compiled_catalog_of_other_bytes_is_not_used(tmp_path, monkeypatch):
    for path in messages.LOCALE_DIR.glob("*.toml"):
        shutil.copy(path, tmp_path)
    messages.compile_catalogs(tmp_path)
    es = tmp_path / f"{DEFAULT_LANG}.toml"
    es.write_text(es.read_text(encoding="utf-8").replace('[ui]\n', '[ui]\nzz_new = "nuevo"\n', 1), encoding="utf-8")
    (tmp_path / "en.compiled.json").write_text("{not json", encoding="utf-8")
    monkeypatch.setattr(messages, "LOCALE_DIR", tmp_path)
    assert text("ui.zz_new") == "nuevo"  # the edited catalog, not its stale compiled copy
    assert catalog("en") == messages._parse((tmp_path / "en.toml").read_bytes())  # an unreadable copy: parsed
    assert messages._compiled(es, es.read_bytes()) is None


def test_t_picks_the_language_and_fills_fields():
    assert t("training_banner", "es") == "ENTRENAMIENTO"
    assert t("training_banner", "en") == "TRAINING"
    assert t("signed_in", "en", staff_id="C1") == "Shift opened: croupier C1"
    assert Msg.of("ui.signed_in", staff_id="C1").render("es") == "Turno abierto: croupier C1"
    assert LANGS == ("es", "en")


@pytest.mark.parametrize(("environ", "lang"), [
    ({"LANG": "en_GB.UTF-8"}, "en"), ({"LANG": "es_AR.UTF-8"}, "es"), ({"LC_ALL": "en_US", "LANG": "es_AR"}, "en"),
    ({"LANG": "C.UTF-8"}, "es"), ({"LANG": "fr_FR.UTF-8"}, "es"), ({}, "es"),
])
def test_the_environment_chooses_the_language(environ, lang):
    assert env_lang(environ) == lang


def test_a_refusal_keeps_its_code_not_copies_of_its_words():
    from shared.errors import InputError, RuleViolation

    refused = RuleViolation("Art. 7 §1", Msg.of("common.amount_negative", value="-5"))
    assert not hasattr(refused, "es") and not hasattr(refused, "en")  # rendered when shown, in any catalog's language
    assert refused.message("en") == "Art. 7 §1: " + text("common.amount_negative", "en", value="-5")
    said = text("common.amount_negative", "es", value="-5")
    assert str(InputError(Msg.of("common.amount_negative", value="-5"))) == said


@pytest.mark.parametrize("lang, one, two", [("es", "1 sesión", "2 sesiones"), ("en", "1 session", "2 sessions")])
def test_the_catalog_chooses_the_plural_form(lang, one, two):
    """«1 sesiones»: a message with plural forms is ``_one``/``_other`` in the catalog, and
    the message layer picks one by ``count``, so no call site writes its own singular."""
    assert Msg.of("training.sessions", count=1).render(lang) == one
    assert Msg.of("training.sessions", count=2).render(lang) == two
    assert text("midi.ann_burn", lang, count=1, card="A♦").startswith(("Quemar 1 carta ", "Burn 1 card "))
    assert Msg.of("midi.rc_burned", count=1).render(lang) in ("Quemada 1 carta al descartero", "1 card burned to the discard")


def test_no_call_site_chooses_a_plural_itself():
    """A code ``x_one`` is never named in the code: ``x`` with ``count`` is."""
    for where, code in _used_codes():
        assert not code.endswith(("_one", "_many", "_other")) or code in catalog(DEFAULT_LANG) and not has_code(code[:code.rindex("_")]), (where, code)
