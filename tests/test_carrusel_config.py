"""Which meter store a table uses (issue 17): the server's address, checked, and never shown
with its password. No server is needed here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shared.codec import encode
from shared.config import TableFile
from shared.errors import InputError
from shared.madero.carrusel import ENV, carrusel_url, open_meter_store
from shared.madero.config import MaderoTableConfig
from shared.redact import redact

LINKED = MaderoTableConfig.from_mapping(dict(table_id="MPB-02", minimum=10, maximum=500, jackpot_mode="progressive",
                                             contribution_percent=50, carrusel_id="CARR"))
ALONE = MaderoTableConfig.from_mapping(dict(table_id="MPB-03", minimum=10, maximum=500, jackpot_mode="progressive",
                                            contribution_percent=50))
FIXED = MaderoTableConfig.from_mapping(dict(table_id="MPB-04", minimum=10, maximum=500))
URL = "postgresql://pit:Secr3t%21@db.casino:5432/carrusel?options=-csearch_path%3Dmadero"


@pytest.mark.parametrize("text", [
    URL,
    f"no se pudo conectar a {URL}",
    "host=db.casino user=pit password=Secr3t! dbname=carrusel",
    "host=db.casino password='Secr3t! y más' dbname=carrusel",
    "postgresql://db.casino/carrusel?user=pit&password=Secr3t!",
])
def test_redaction_masks_every_way_of_writing_a_password(text):
    shown = redact(text, text)
    assert "Secr3t" not in shown and "***" in shown
    assert "db.casino" in shown  # what helps the supervisor stays


def test_redaction_masks_the_password_a_driver_quotes_alone():
    assert redact('password authentication failed: "Secr3t!"', URL) == 'password authentication failed: "***"'
    assert redact("nothing secret", None) == "nothing secret"


def table_file(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "mesa.toml"
    path.write_text('table_id = "MPB-02"\nminimum = 10\nmaximum = 500\njackpot_mode = "progressive"\n'
                    'contribution_percent = 50\ncarrusel_id = "CARR"\n' + extra, encoding="utf-8")
    return path


def test_the_table_file_names_the_server_and_the_table_values_do_not_keep_it(tmp_path):
    path = table_file(tmp_path, f'carrusel_url = "{URL}"\n')
    config = MaderoTableConfig.from_mapping({"table_id": "MPB-02", "minimum": 10, "maximum": 500,
                                             "jackpot_mode": "progressive", "contribution_percent": 50,
                                             "carrusel_id": "CARR", "carrusel_url": URL})
    assert "Secr3t" not in repr(encode(config))
    assert carrusel_url(config, TableFile.read(path), {}) == URL
    assert carrusel_url(LINKED, None, {ENV: URL}) == URL  # the machine's variable
    assert carrusel_url(LINKED, TableFile.read(path), {ENV: "postgresql://other/db"}) == URL  # the file wins


def test_without_an_address_the_table_keeps_its_file_and_imports_no_driver():
    assert carrusel_url(LINKED, None, {}) is None
    assert carrusel_url(ALONE, None, {ENV: URL}) is None  # the variable serves linked tables only
    assert carrusel_url(FIXED, None, {ENV: URL}) is None
    assert open_meter_store(LINKED, None, {}) is None
    code = ("import sys; from shared.madero.carrusel import open_meter_store; "
            "from tests.test_carrusel_config import LINKED; open_meter_store(LINKED, None, {}); "
            "print(sorted(m for m in sys.modules if m.startswith(('psycopg', 'shared.madero.meter_pg'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(("extra", "config", "article"), [
    ("carrusel_url = 5\n", LINKED, "Art. 12 §58"),
    ('carrusel_url = "  "\n', LINKED, "Art. 12 §58"),
    ('carrusel_url = "mysql://db/x"\n', LINKED, "Art. 12 §58"),
    (f'carrusel_url = "{URL}"\n', FIXED, "Art. 11 §50"),
    (f'carrusel_url = "{URL}"\n', ALONE, "Art. 12 §58"),
    (f'carrusel_url = "{URL}{"&x=1" * 600}"\n', LINKED, "Art. 12 §58"),  # longer than any real address
])
def test_a_wrong_address_is_refused_citing_the_article(tmp_path, extra, config, article):
    with pytest.raises(InputError) as refused:
        carrusel_url(config, TableFile.read(table_file(tmp_path, extra)), {})
    assert refused.value.msg.render("es").startswith(f"carrusel_url: {article}:")
    assert refused.value.msg.render("en").startswith(f"carrusel_url: {article}:")
    assert "Secr3t" not in refused.value.msg.render("es") + refused.value.msg.render("en")
