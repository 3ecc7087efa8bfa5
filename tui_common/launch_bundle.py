"""The bytecode a console's launch imports, read as one file (issue 32).

A console imports ~96 of the project's modules before its first frame. Python finds each in
its package's folder and reads its cached bytecode (``__pycache__``): a stat of the source, an
open, a read and a check of the ``.pyc``, ~0.1 ms a module on a 2-core VM: ~10 ms of a launch
that the minimal Textual app does not have.

``python -m tui_common.launch_bundle`` writes, for each console, the code of the project's
modules its app module imports into one file beside the bytecode Python caches
(``bundle_path``: ``<package>/__pycache__/launch.<cache tag>.bin``), with each source's size
and modification time, as a ``.pyc`` keeps them (``write``). ``prepare_launch``
reads it in one read and serves those modules from it when every source is still as it was
and the file is this Python's; otherwise (a source changed, moved or gone, another Python, a
file that is not one) the launch imports as Python does, and nothing comes from the file. A
module not in it (added since) is found as usual.

It is written where the bytecode is, at install, by ``python -m tui_common.launch_bundle``
(as ``compileall`` writes ``.pyc`` files); a console only reads it. A source edited since is
imported as Python imports it until the bundle is written again.
"""

from __future__ import annotations

import marshal
import os
import sys
from importlib.machinery import ModuleSpec, SourceFileLoader
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType, ModuleType
from typing import TYPE_CHECKING, cast

from tui_common.collector import BetweenKeys

if TYPE_CHECKING:
    from importlib.abc import Loader  # importlib.abc itself is not imported at a launch

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("shared", "tui_common", "madero_tui", "midi_tui")
CONSOLES = ("madero_tui.app", "midi_tui.app")
"""The app module of each console: what a launch imports before its first frame."""

FORMAT = 1

Entry = tuple[str, str, bool, int, int, CodeType]
"""A module's name, its source's path, whether it is a package, the source's modification
time (ns) and size, and its code."""


def bundle_path(app_module: str) -> Path:
    package = app_module.partition(".")[0]
    return ROOT / package / "__pycache__" / f"launch.{sys.implementation.cache_tag}.bin"


class _Bundled:
    """A finder and loader of the modules of a bundle whose every source was as recorded."""

    def __init__(self, entries: list[Entry]) -> None:
        self.sources = {name: (origin, is_package) for name, origin, is_package, *_ in entries}
        self.code = {entry[0]: entry[5] for entry in entries}
        """Each module's code until it runs (then it is let go, as an import lets go of it)."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if name not in self.code:
            return None  # not bundled, or run already (``importlib.reload`` reads its source)
        origin, is_package = self.sources[name]
        spec = ModuleSpec(name, cast("Loader", self), origin=origin, is_package=is_package)
        if is_package:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        spec.has_location = True  # __file__ and __cached__, as a module read from its folder has them
        return spec

    def create_module(self, spec: ModuleSpec) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        exec(self.code.pop(module.__name__), module.__dict__)

    def get_source(self, name: str) -> str | None:
        """For tracebacks and ``inspect``, as a source loader gives it."""
        return SourceFileLoader(name, self.sources[name][0]).get_source(name)


def _source_stamp(path: str) -> tuple[int, int]:
    stat = os.stat(path)
    return stat.st_mtime_ns, stat.st_size


def read(path: Path) -> list[Entry] | None:
    """The bundle at ``path`` if it is this Python's and every source is as it recorded, else
    None."""
    try:
        data = path.read_bytes()
        magic, version, entries = marshal.loads(data)
        if magic != MAGIC_NUMBER or version != FORMAT:
            return None
        for _, source, _, mtime_ns, size, _ in entries:
            if _source_stamp(source) != (mtime_ns, size):
                return None
    except (OSError, ValueError, TypeError, EOFError):
        return None
    return entries  # type: ignore[no-any-return]


def prepare_launch(app_module: str) -> None:
    """What a console's command does before it imports its app: Python's cyclic collector held
    until the first frame (``BetweenKeys.hold_launch``), and the app's bundle served if it can be."""
    BetweenKeys.hold_launch()
    entries = read(bundle_path(app_module))
    if entries is not None:
        serve(entries)


def serve(entries: list[Entry]) -> None:
    """Import the modules of ``entries`` from their code there (before any other finder)."""
    sys.meta_path.insert(0, _Bundled(entries))


def project_modules() -> list[tuple[str, str, bool]]:
    """The project's modules imported so far: name, source path, whether a package."""
    roots = tuple(str(ROOT / package) + os.sep for package in PACKAGES)
    found = []
    for name, module in list(sys.modules.items()):
        origin = getattr(module, "__file__", None)
        if name != "__main__" and origin and origin.startswith(roots) and origin.endswith(".py"):
            found.append((name, origin, hasattr(module, "__path__")))
    return sorted(found)


def write(path: Path) -> Path:
    """The bundle of the project's modules imported so far, written at ``path``: run it where a
    console's app module was imported (``python -m tui_common.launch_bundle`` does it in a fresh
    interpreter per console)."""
    entries = []
    for name, origin, is_package in project_modules():
        stamp = _source_stamp(origin)
        code = SourceFileLoader(name, origin).get_code(name)
        assert code is not None
        entries.append((name, origin, is_package, *stamp, code))
    path.parent.mkdir(exist_ok=True)
    # Written whole, then moved in place: a launch never reads a half-written file.
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_bytes(marshal.dumps((MAGIC_NUMBER, FORMAT, entries)))
    os.replace(partial, path)
    return path


def main(argv: list[str]) -> int:
    """``python -m tui_common.launch_bundle [APP_MODULE [PATH]]``: each console's bundle (or the
    one given, at ``PATH`` if given), each written by a fresh interpreter that imports that
    console's app."""
    import importlib
    import subprocess

    if argv:
        app_module, *at = argv
        importlib.import_module(app_module)
        print(write(Path(at[0]) if at else bundle_path(app_module)))
        return 0
    for app_module in CONSOLES:
        subprocess.run([sys.executable, "-m", "tui_common.launch_bundle", app_module], check=True, cwd=ROOT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
