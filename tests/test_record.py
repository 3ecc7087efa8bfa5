"""``shared.record``: a record is what ``dataclass(frozen=True)`` makes of the same class —
construction, defaults and factories, ``__post_init__``, keyword-only fields, slots,
inheritance, ``==``, ``hash``, ``repr``, refusing changes, ``replace``, ``asdict``, copies and
pickles — compared with a twin made by ``dataclass`` itself, shape by shape and for every
record class the consoles declare."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import importlib.util
import inspect
import os
import pickle
import pkgutil
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shared
import tui_common
import madero_tui
import midi_tui
from shared.record import compile_waiting, record


def twins(body: dict[str, Any], **options: Any) -> tuple[type, type]:
    """A record and a frozen dataclass of one class body (module level, so they pickle)."""
    made = []
    for name, decorate in (("Rec", record(**options) if options else record),
                           ("Dc", dataclass(**{"frozen": True, **options}))):
        cls = type(name + body["__qualname__"], (), dict(body, __qualname__=name + body["__qualname__"],
                                                          __module__=__name__))
        cls = decorate(cls)
        globals()[cls.__name__] = cls
        made.append(cls)
    return made[0], made[1]


def _post_init(self: Any) -> None:
    if self.a < 0:
        raise ValueError("a below zero")


SHAPES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "plain": ({"__annotations__": {"a": "int", "b": "str"}}, {}),
    "defaults": ({"__annotations__": {"a": "int", "b": "str", "c": "tuple[int, ...]"}, "b": "x", "c": (1, 2)}, {}),
    "factory": ({"__annotations__": {"a": "int", "items": "list[int]"}, "items": field(default_factory=list)}, {}),
    "hidden": ({"__annotations__": {"a": "int", "note": "str", "seen": "int"},
                "note": field(default="", compare=False), "seen": field(default=0, repr=False)}, {}),
    "post_init": ({"__annotations__": {"a": "int"}, "__post_init__": _post_init}, {}),
    "kw_only": ({"__annotations__": {"a": "int", "b": "int"}, "b": 2}, {"kw_only": True}),
    "slots": ({"__annotations__": {"a": "int", "b": "str"}, "b": "y"}, {"slots": True}),
    "no_fields": ({"__annotations__": {}}, {}),
    "not_init": ({"__annotations__": {"a": "int", "b": "int", "c": "list[int]"},
                  "b": field(default=7, init=False), "c": field(default_factory=list, init=False)}, {}),
}


def hashed(value: object) -> int | str:
    """The hash, or the error hashing raises (a field holding a list)."""
    try:
        return hash(value)
    except TypeError as error:
        return str(error)


def _values(cls: type) -> list[dict[str, Any]]:
    names = [f.name for f in dataclasses.fields(cls) if f.init]
    samples: dict[str, list[Any]] = {"a": [1, 2, 1], "b": ["s", "t", "s"], "c": [(3,), (4,), (3,)],
                                     "items": [[1], [2], [1]], "note": ["x", "y", "z"], "seen": [5, 6, 7]}
    return [{name: samples[name][i] for name in names} for i in range(3)]


@pytest.mark.parametrize("shape", SHAPES)
def test_a_record_is_its_frozen_dataclass_twin(shape: str) -> None:
    body, options = SHAPES[shape]
    rec, dc = twins({"__qualname__": shape.title().replace("_", ""), **body}, **options)
    signature = lambda cls: [(p.name, p.kind, p.default is inspect.Parameter.empty)  # noqa: E731
                             for p in inspect.signature(cls).parameters.values()]
    assert signature(rec) == signature(dc)
    assert rec.__init__.__annotations__ == dc.__init__.__annotations__
    assert rec.__doc__ == dc.__doc__.replace("Dc", "Rec", 1)  # words of the fields, as dataclass's
    assert [(f.name, f.init, f.compare, f.repr) for f in dataclasses.fields(rec)] == \
           [(f.name, f.init, f.compare, f.repr) for f in dataclasses.fields(dc)]
    made = [(rec(**kw), dc(**kw)) for kw in _values(rec)]
    for r, d in made:
        assert repr(r) == repr(d).replace("Dc", "Rec", 1)
        assert hashed(r) == hashed(d)
        assert dataclasses.asdict(r) == dataclasses.asdict(d)
        assert dataclasses.replace(r) == r and dataclasses.replace(r) is not r
        for name in [f.name for f in dataclasses.fields(rec)] + ["other"]:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(r, name, 1)
            with pytest.raises(dataclasses.FrozenInstanceError):
                delattr(r, name)
        for again in (copy.copy(r), copy.deepcopy(r), pickle.loads(pickle.dumps(r))):
            assert again == r and repr(again) == repr(r)
    for (r1, d1), (r2, d2) in [(made[0], made[1]), (made[0], made[2]), (made[1], made[2])]:
        assert (r1 == r2) is (d1 == d2) and (r1 != r2) is (d1 != d2)
    assert made[0][0] != made[0][1]  # another class of the same fields and values
    if "factory" in shape:
        assert rec(a=1).items == [] and rec(a=1).items is not rec(a=1).items
    if shape == "post_init":
        with pytest.raises(ValueError, match="a below zero"):
            rec(a=-1)
    if shape == "kw_only":
        with pytest.raises(TypeError):
            rec(1, 2)
    if shape == "not_init":
        assert (rec(a=1).b, rec(a=1).c) == (7, [])
    if options.get("slots"):
        assert not hasattr(rec(a=1), "__dict__")


@pytest.mark.parametrize("shape", ["plain", "defaults", "factory", "hidden", "post_init", "not_init"])
def test_a_changing_record_is_its_dataclass_twin(shape: str) -> None:
    """``record(frozen=False)``: what ``dataclass`` makes of a class whose fields change."""
    body, _options = SHAPES[shape]
    rec, dc = twins({"__qualname__": "Mutable" + shape.title().replace("_", ""), **body}, frozen=False)
    assert str(inspect.signature(rec)) == str(inspect.signature(dc))
    assert rec.__doc__ == dc.__doc__.replace("Dc", "Rec", 1)
    assert rec.__hash__ is None and dc.__hash__ is None
    for kw in _values(rec):
        r, d = rec(**kw), dc(**kw)
        assert repr(r) == repr(d).replace("Dc", "Rec", 1)
        assert dataclasses.asdict(r) == dataclasses.asdict(d)
        r.a = d.a = 40
        assert dataclasses.asdict(r) == dataclasses.asdict(d) and r == rec(**dict(kw, a=40))
        del r.a
        assert not hasattr(r, "a")
        with pytest.raises(TypeError, match="unhashable"):
            hash(r)
    if shape == "factory":
        assert rec(a=1).items == [] and rec(a=1).items is not rec(a=1).items
    if shape == "not_init":
        assert (rec(a=1).b, rec(a=1).c) == (7, [])


def test_a_record_inherits_and_refines_a_record() -> None:
    @record
    class Base:
        a: int
        b: int = 0

        def __post_init__(self) -> None:
            if self.a > self.b + 100:
                raise ValueError("too far")

    @record(kw_only=True)
    class Child(Base):
        c: str = "c"

    child = Child(a=1, b=2, c="z")
    assert repr(child) == "test_a_record_inherits_and_refines_a_record.<locals>.Child(a=1, b=2, c='z')"
    assert child == Child(a=1, b=2, c="z") != Base(1, 2)
    with pytest.raises(ValueError, match="too far"):
        Child(a=200)
    with pytest.raises(TypeError):  # a plain frozen dataclass cannot mix with a record
        dataclass(frozen=True)(type("Mixed", (Base,), {"__annotations__": {"d": "int"}, "d": 0}))


def test_a_record_keeps_what_its_class_writes_itself() -> None:
    @record
    class Own:  # noqa: PLW1641  (its __hash__ is the record's, as a frozen dataclass's would be)
        a: int

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Own)

        def __repr__(self) -> str:
            return "own"

    assert Own(1) == Own(2) and repr(Own(1)) == "own" and hash(Own(1)) != hash(Own(2))


def test_a_record_compiles_its_init_at_its_first_instance_with_its_signature_before() -> None:
    """Most records are not made at a launch: their ``__init__`` is compiled when the first is
    (issue 32), and until then the stand-in already shows the compiled one's signature."""

    @record(kw_only=True)
    class Late:
        a: int
        b: str = "b"
        items: list[int] = field(default_factory=list)

    stand_in = Late.__init__
    before = inspect.signature(Late)
    assert str(before) == "(*, a: 'int', b: 'str' = 'b', items: 'list[int]' = <factory>) -> None"
    made = Late(a=1)
    assert not inspect.isfunction(stand_in) and inspect.isfunction(Late.__init__)
    assert inspect.signature(Late) == before
    assert Late.__init__.__annotations__ == stand_in.__annotations__
    assert (made.a, made.b, made.items) == (1, "b", []) and Late(a=2).items is not made.items
    assert Late(a=1, b="c") != made == Late(a=1)


def test_a_record_without_words_is_worded_from_the_init_it_has_as_dataclass_words_it() -> None:
    def own_init(self: Any, a: int, *, scale: int = 2) -> None:
        object.__setattr__(self, "a", a * scale)

    for body in ({"__annotations__": {"a": "int", "b": "str"}, "b": "x"},
                 {"__annotations__": {"a": "int"}, "__init__": own_init}):
        rec, dc = twins({"__qualname__": f"Worded{len(body)}", **body})
        assert rec.__doc__ == dc.__doc__.replace("Dc", "Rec", 1)


def test_compile_waiting_compiles_the_inits_no_instance_has_asked_for_yet() -> None:
    @record
    class Waiting:
        a: int

    @record
    class Made:
        a: int

    Made(1)
    assert not inspect.isfunction(Waiting.__init__) and inspect.isfunction(Made.__init__)
    assert compile_waiting() >= 1
    assert inspect.isfunction(Waiting.__init__) and Waiting(2) == Waiting(2) != Waiting(3)
    assert compile_waiting() == 0


_COUNT_INIT_COMPILES = """
import asyncio, sys
from pathlib import Path
import shared.record
compiled = []
shared.record.compile = lambda *args: compiled.append(args[0]) or compile(*args)
from {game}_tui.app import make_app
from tui_common.options import LaunchOptions
app = make_app(LaunchOptions(db=Path({db!r}), training=True))
async def main():
    async with app.run_test() as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        print(len(compiled), len(shared.record._STAND_INS) - len(shared.record._WAITING))
asyncio.run(main())
"""


@pytest.mark.parametrize("game", ["madero", "midi"])
def test_a_launch_compiles_no_records_init_it_takes_them_shipped(game: str, tmp_path: Any) -> None:
    """Each record's ``__init__`` compiled from its text cost ~0.5 M instructions, ~30 of them
    at a console's launch (issue 32): ``record_inits.bin`` ships them compiled. If this fails
    after a record's fields changed: ``python -m shared.record``."""
    code = _COUNT_INIT_COMPILES.format(game=game, db=str(tmp_path / "j.db"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    compiled, made = map(int, done.stdout.split()[-2:])
    assert (compiled, made > 20) == (0, True), done.stdout


def test_the_shipped_inits_are_each_records_init_compiled_now(tmp_path: Any) -> None:
    """The file holds, for every record's ``__init__`` text, what compiling that text gives on
    this Python: regenerated, the same texts and the same code."""
    import marshal

    from shared.record import SHIPPED_INITS

    target = tmp_path / "inits.bin"
    subprocess.run([sys.executable, "-c", f"from shared.record import ship_inits; ship_inits(target=__import__('pathlib').Path({str(target)!r}))"],
                   check=True, capture_output=True, timeout=120)

    def loaded(path: Any) -> dict[str, Any]:
        data = path.read_bytes()
        return {text: marshal.loads(code) for text, code in marshal.loads(data[len(importlib.util.MAGIC_NUMBER):]).items()}

    assert SHIPPED_INITS.read_bytes()[:4] == target.read_bytes()[:4] == importlib.util.MAGIC_NUMBER
    shipped, now = loaded(SHIPPED_INITS), loaded(target)
    assert shipped.keys() == now.keys(), "run: python -m shared.record"
    assert all(shipped[text] == now[text] == compile(text, "<string>", "exec") for text in now)


def test_an_init_the_file_does_not_hold_or_a_file_of_another_python_is_compiled(tmp_path: Any,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import shared.record as module

    @record
    class Unshipped:
        a: int

    assert Unshipped(1).a == 1  # a text the file does not hold: compiled
    other = tmp_path / "other.bin"
    other.write_bytes(b"\x00\x00\r\n" + module.SHIPPED_INITS.read_bytes()[4:])
    monkeypatch.setattr(module, "SHIPPED_INITS", other)
    module._shipped_inits.cache_clear()
    try:
        assert module._shipped_inits() == {}
        other.write_bytes(importlib.util.MAGIC_NUMBER + b"broken")
        module._shipped_inits.cache_clear()
        assert module._shipped_inits() == {}
    finally:
        module._shipped_inits.cache_clear()


def test_a_default_before_a_non_default_is_refused_at_the_class_as_dataclass_refuses_it() -> None:
    body = {"__annotations__": {"a": "int", "b": "int"}, "a": 1}
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument") as made_by_dataclass:
        dataclass(frozen=True)(type("Dc", (), dict(body)))
    with pytest.raises(TypeError) as made_by_record:
        record(type("Rec", (), dict(body)))
    assert str(made_by_record.value) == str(made_by_dataclass.value)
    record(kw_only=True)(type("KwRec", (), dict(body)))  # keyword-only fields may come in any order


@given(st.lists(st.one_of(st.integers(), st.text(max_size=3), st.none(),
                          st.tuples(st.integers(), st.booleans())), min_size=2, max_size=2))
def test_equal_and_hash_follow_the_dataclass_for_any_values(values: list[Any]) -> None:
    rec, dc = RecAnyPair, DcAnyPair  # type: ignore[name-defined]  # noqa: F821  (made by twins below)
    a, b = values
    assert (rec(a, b) == rec(b, a)) is (dc(a, b) == dc(b, a))
    assert hash(rec(a, b)) == hash(dc(a, b))


twins({"__qualname__": "AnyPair", "__annotations__": {"a": "Any", "b": "Any"}})


def _records() -> list[type]:
    found = []
    for package in (shared, tui_common, madero_tui, midi_tui):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            found += [value for value in vars(module).values()
                      if isinstance(value, type) and value.__module__ == info.name and "_record_key" in vars(value)]
    return found


def test_every_record_of_the_consoles_is_built_as_its_dataclass_would_be() -> None:
    """Each record's ``__init__`` takes the parameters ``dataclass`` would give it, of the
    same kinds, with a default where it would have one."""
    records = _records()
    assert len(records) > 100
    for cls in records:
        fields = dataclasses.fields(cls)
        expected = [(f.name, inspect.Parameter.KEYWORD_ONLY if f.kw_only else inspect.Parameter.POSITIONAL_OR_KEYWORD,
                     f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
                    for f in fields if f.init]
        expected = [e for e in expected if e[1] is inspect.Parameter.POSITIONAL_OR_KEYWORD] + \
                   [e for e in expected if e[1] is inspect.Parameter.KEYWORD_ONLY]
        found = [(p.name, p.kind, p.default is inspect.Parameter.empty)
                 for p in inspect.signature(cls.__init__).parameters.values()][1:]
        assert found == expected, cls


_DESCRIBE_RECORDS = """
import dataclasses, importlib, inspect, pkgutil
import shared.record
shared.record._FIELD_MARKS = {marks}
import shared, tui_common, madero_tui, midi_tui
shown = lambda value: "MISSING" if value is dataclasses.MISSING else repr(value)
rows = []
for package in (shared, tui_common, madero_tui, midi_tui):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == info.name and "_record_key" in vars(value):
                fields = [(f.name, f.type, shown(f.default), shown(f.default_factory), f.init, f.repr, f.hash,
                           f.compare, dict(f.metadata), shown(f.kw_only), f._field_type.name)
                          for f in value.__dataclass_fields__.values()]
                attributes = {{f[0]: shown(value.__dict__.get(f[0], dataclasses.MISSING)) for f in fields}}
                rows.append(repr((info.name, value.__qualname__, fields, value.__match_args__, attributes,
                                  repr(value.__dataclass_params__), value.__doc__, str(inspect.signature(value)))))
print(len(rows))
print("\\n".join(sorted(rows)))
"""


def test_every_record_is_marked_as_dataclass_marks_it() -> None:
    """Every record of the consoles, its fields marked by ``record`` (Python 3.11) and by
    ``dataclass`` itself: the same fields (ClassVars too), defaults, class attributes,
    ``__match_args__``, words and signature."""
    same_sets = dict(os.environ, PYTHONHASHSEED="0")  # a set's repr follows its strings' hashes
    described = [subprocess.run([sys.executable, "-c", _DESCRIBE_RECORDS.format(marks=marks)], stdin=subprocess.DEVNULL,
                                env=same_sets, capture_output=True, text=True, check=True, timeout=120).stdout
                 for marks in (True, False)]
    assert int(described[0].split("\n", 1)[0]) > 150
    at = re.compile(r" at 0x[0-9a-f]+")  # a factory function's address differs between processes
    assert at.sub("", described[0]) == at.sub("", described[1])
