"""``FormScreen``: a dialog of fields (sign-in, enrolment, supervisor panel) typed in order.

The app (``TableApp.on_event``) hands such a screen every key itself, one at a time in the
order typed: Textual would deliver a key to the field that has focus when the key is
read, before the ``enter`` typed just ahead of it has moved to the next field, so a fast
«C1 enter 5678 enter» put «C15678» in the first field. Characters are typed into the
focused field at once, ``enter`` calls ``submit`` at once, and other keys run the
bindings they are bound to now.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from textual.screen import ModalScreen
from textual.widget import Widget

ResultType = TypeVar("ResultType")


class FormScreen(ModalScreen[ResultType], Generic[ResultType]):
    def type_character(self, field: Widget | None, character: str) -> bool:
        """Type ``character`` into ``field`` if it is a text field (its own limits apply)."""
        from textual.widgets import Input  # not needed before the first dialog opens

        if not isinstance(field, Input):
            return False
        field.insert_text_at_cursor(character)
        return True

    def submit(self, field: Widget | None) -> None:
        """``enter`` in ``field`` (the focused widget): move on to the next field or act."""
        raise NotImplementedError
