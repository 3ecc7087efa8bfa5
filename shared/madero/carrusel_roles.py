"""Least privilege on the Carrusel's server (issue 27 §5): the SQL that gives a schema a
**table** role and a **pit** role, and each table terminal a login of its own.

- The **pit** role reads every row of the schema and writes none (``madero-tui pit``,
  ``journal verify --server``).
- The **table** role does what a table does, and only for itself: its login is mapped to one
  table id (``table_logins``) and row-level security lets it write only its own meter's
  registration, its own rounds' settlements, its own head, identity and Carrusel changes, and
  movements and meter values of its own Carrusel (a royal restarts every linked meter and a
  straight flush takes a share of each, §52–§53, §58); it reads its Carrusel's meters (the
  jackpot) and nothing of another Carrusel. It creates, drops and deletes nothing.

The schema's owner (who creates it, and migrates it: a table login only reads a current
schema) runs ``roles_sql`` once, then ``table_login_sql`` for each table terminal. Both return
a script to read and run (``psql -f``), or run by the tests. Names are checked to be plain
SQL identifiers; a password is written as a literal.
"""

from __future__ import annotations

import re

_IDENT = re.compile(r"[a-z_][a-z0-9_]{0,62}")

_TABLES = ("carrusel_schema", "meters", "movements", "settlements", "table_heads", "table_identities",
           "carrusel_changes", "table_logins")

# (table, what the table role may do, the row it may see / change, the row it may write)
_OWN = "meter_id = carrusel_login_table()"
_OWN_CARRUSEL = "carrusel_id = carrusel_login_carrusel() OR meter_id = carrusel_login_table()"
_TABLE_POLICIES = (
    ("meters", "SELECT, INSERT, UPDATE", _OWN_CARRUSEL, _OWN_CARRUSEL, _OWN),
    ("movements", "SELECT, INSERT, UPDATE", _OWN_CARRUSEL, _OWN_CARRUSEL, _OWN_CARRUSEL),
    ("settlements", "SELECT, INSERT, UPDATE", _OWN, _OWN, _OWN),
    ("table_heads", "SELECT, INSERT, UPDATE", "table_id = carrusel_login_table()",
     "table_id = carrusel_login_table()", "table_id = carrusel_login_table()"),
    ("table_identities", "SELECT, INSERT", "table_id = carrusel_login_table()", None,
     "table_id = carrusel_login_table()"),
    ("carrusel_changes", "SELECT, INSERT", "table_id = carrusel_login_table()", None,
     "table_id = carrusel_login_table()"),
)


def _ident(name: str) -> str:
    if not _IDENT.fullmatch(name):
        raise ValueError(f"not a plain SQL identifier: {name!r}")
    return name


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def roles_sql(schema: str, table_role: str, pit_role: str) -> str:
    """The script that creates both roles on ``schema`` (already migrated by its owner)."""
    s, t, p = _ident(schema), _ident(table_role), _ident(pit_role)
    out = [
        f"SET search_path = {s};",
        "CREATE TABLE IF NOT EXISTS table_logins (login name PRIMARY KEY, table_id text UNIQUE NOT NULL);",
        f"CREATE ROLE {t} NOLOGIN;",
        f"CREATE ROLE {p} NOLOGIN;",
        # session_user: the login, also inside these SECURITY DEFINER functions (which read
        # past row-level security as the owner, so a policy may ask them about meters).
        "CREATE OR REPLACE FUNCTION carrusel_login_table() RETURNS text LANGUAGE sql STABLE SECURITY DEFINER "
        f"SET search_path = {s} AS $$ SELECT table_id FROM table_logins WHERE login = session_user $$;",
        "CREATE OR REPLACE FUNCTION carrusel_login_carrusel() RETURNS text LANGUAGE sql STABLE SECURITY DEFINER "
        f"SET search_path = {s} AS $$ SELECT carrusel_id FROM meters WHERE meter_id = carrusel_login_table() $$;",
        "REVOKE ALL ON FUNCTION carrusel_login_table(), carrusel_login_carrusel() FROM PUBLIC;",
        f"GRANT EXECUTE ON FUNCTION carrusel_login_table(), carrusel_login_carrusel() TO {t};",
        f"GRANT USAGE ON SCHEMA {s} TO {t}, {p};",
        f"GRANT SELECT ON {', '.join(_TABLES)} TO {p};",
        f"GRANT SELECT ON carrusel_schema TO {t};",
        f"GRANT USAGE ON SEQUENCE movements_id_seq, carrusel_changes_id_seq TO {t};",
    ]
    for table in _TABLES[1:]:
        out += [f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;",
                f"CREATE POLICY pit_reads ON {table} FOR SELECT TO {p} USING (true);"]
    for table, grants, see, change, write in _TABLE_POLICIES:
        out += [f"GRANT {grants} ON {table} TO {t};",
                f"CREATE POLICY table_sees ON {table} FOR SELECT TO {t} USING ({see});",
                f"CREATE POLICY table_adds ON {table} FOR INSERT TO {t} WITH CHECK ({write});"]
        if change is not None:
            out.append(f"CREATE POLICY table_changes ON {table} FOR UPDATE TO {t} USING ({change}) "
                       f"WITH CHECK ({change});")
    return "\n".join(out) + "\n"


def table_login_sql(schema: str, table_role: str, login: str, password: str, table_id: str) -> str:
    """The script that gives one table terminal its login, mapped to its table id."""
    s, t, who = _ident(schema), _ident(table_role), _ident(login)
    return (f"CREATE ROLE {who} LOGIN PASSWORD {_literal(password)} IN ROLE {t};\n"
            f"INSERT INTO {s}.table_logins (login, table_id) VALUES ({_literal(who)}, {_literal(table_id)});\n")


def drop_sql(roles: list[str]) -> str:
    """The script that removes roles again (their grants and policies with them)."""
    return "".join(f"DROP OWNED BY {role};\nDROP ROLE {role};\n" for role in map(_ident, roles))
