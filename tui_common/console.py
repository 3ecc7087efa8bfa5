"""What the app base's collaborators (start-up, supervisor panel, amount entry, key path) ask of
the console they serve: ``TableApp`` as they see it, named here so they need not import it
(``tui_common.app`` imports them)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.screen import Screen

    from shared.engine import TableEngine
    from shared.errors import ConsoleError
    from shared.journal import Event
    from tui_common.collector import BetweenKeys
    from tui_common.supervisor import SupervisorResult
    from tui_common.training.graded import GradedTable
    from tui_common.widgets.message_line import MessageLine

class Console(Protocol):
    lang: str
    training: bool
    duty_confirmed: bool
    last_supervisor: SupervisorResult | None
    collector: BetweenKeys

    @property
    def engine(self) -> TableEngine: ...

    @property
    def graded(self) -> GradedTable | None: ...

    @property
    def table_screen(self) -> Screen[None] | None: ...

    @property
    def screen(self) -> Screen[object]: ...

    @property
    def message_line(self) -> MessageLine: ...

    def t(self, key: str, /, **values: object) -> str: ...

    def show_info(self, message: str) -> None: ...

    def show_error(self, error: ConsoleError) -> None: ...

    def refresh_table(self) -> None: ...

    def describe_entry(self, entry: Event) -> str: ...

    def place_amount(self, tag: Any, amount: Decimal) -> None: ...

    def last_amount(self, tag: Any) -> Decimal | None: ...

    def unbound_key(self, key: str, character: str | None) -> None: ...

    def action_quit_table(self) -> None: ...

    async def run_action(self, action: str, default_namespace: Any = None) -> bool: ...

    def batch_update(self) -> AbstractContextManager[None]: ...

    def push_screen(self, screen: Screen[Any], callback: Callable[[Any], Any] | None = None) -> Any: ...

    def exit(self, result: Any = None, return_code: int = 0, message: Any = None) -> None: ...

    def call_after_refresh(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool: ...
