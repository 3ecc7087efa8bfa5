"""``FormScreen``: a dialog of fields (sign-in, enrolment, supervisor panel) typed in order.

The app (``TableApp.on_event``) hands such a screen every key itself, one at a time in the
order typed: Textual would deliver a key to the field that has focus when the key is
read, before the ``enter`` typed just ahead of it has moved to the next field, so a fast
«C1 enter 5678 enter» put «C15678» in the first field. Characters are typed into the
focused field at once, ``enter`` calls ``submit`` at once, and other keys run the
bindings they are bound to now.

A PIN check (scrypt: ~35 ms here, more on a table terminal) runs in a worker thread
(``off_loop``): the key that asked for it waits, so the keys typed after it still come in
order, while the event loop goes on drawing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from textual.screen import ModalScreen
from textual.widget import Widget
from textual.worker import WorkerFailed

from tui_common import textual_classes  # noqa: F401  (sets up the classes below from their parents')

ResultType = TypeVar("ResultType")
T = TypeVar("T")


class FormScreen(ModalScreen[ResultType], Generic[ResultType]):
    async def off_loop(self, work: Callable[[], T]) -> T:
        """``work`` (a call that checks a PIN) in a worker thread; its refusal is raised here."""
        worker = self.run_worker(work, thread=True, exit_on_error=False)
        try:
            return await worker.wait()
        except WorkerFailed as failed:
            raise failed.error from None

    async def take_key(self, key: str, character: str | None) -> bool:
        """``enter`` submits the focused field; a character is typed into it (its own limits
        apply). Anything else is left to the bindings."""
        from textual.widgets import Input  # not needed before the first dialog opens

        field = self.focused
        if key == "enter":
            await self.submit(field)
            return True
        if isinstance(field, Input) and character is not None and character.isprintable():
            field.insert_text_at_cursor(character)
            return True
        return False

    async def submit(self, field: Widget | None) -> None:
        """``enter`` in ``field`` (the focused widget): move on to the next field or act."""
        raise NotImplementedError
