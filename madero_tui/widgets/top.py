"""The table's top row: the bank's hand, the community cards and the Jackpot's paytable."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content

from madero_tui.widgets.bank import bank_lines
from madero_tui.widgets.board import board_lines
from madero_tui.widgets.paytable import Line, paytable_lines
from tui_common.widgets.drawn_boxes import BoxRows, DrawnBoxes, boxes_of

BANK_WIDTH = 25
PAYTABLE_WIDTH = 54
BANK, BOARD, PAYTABLE = range(3)


class TopRow(DrawnBoxes):
    """The bank (``BANK_WIDTH`` wide), the board (what is left) and the paytable
    (``PAYTABLE_WIDTH``) side by side, each in the row's border with its title, drawn as one
    widget (``DrawnBoxes``: three widgets in a band were four of the table's nodes). Each
    ``show_*`` redraws its box only when what it shows changed."""

    bank_text = ""
    """What the bank's box shows, as plain text (tests read it)."""
    paytable_text = ""
    """What the paytable's box shows at its width, as plain text (tests read it)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._bank: tuple[Text, str] | None = None
        self._board: tuple[tuple[Text, ...], Text] | None = None
        self._paytable: list[Line] | None = None
        self._title_text: list[str | None] = [None, None, None]
        self.titles: list[Content | None] = [None, None, None]

    def _retitled(self, box: int, title: str) -> None:
        if title != self._title_text[box]:
            self._title_text[box], self.titles[box] = title, self.titled(title)

    def show_bank(self, cards: Text, combination: str, title: str) -> None:
        if ((cards, combination), title) != (self._bank, self._title_text[BANK]):
            self._bank = (cards, combination)
            self._retitled(BANK, title)
            self.bank_text = "\n".join(line.plain for line in bank_lines(cards, combination))
            self.redraw_boxes([BANK])

    def show_board(self, community: tuple[Text, ...], burns: Text, title: str) -> None:
        if ((community, burns), title) != (self._board, self._title_text[BOARD]):
            self._board = (community, burns)
            self._retitled(BOARD, title)
            self.redraw_boxes([BOARD])

    def show_paytable(self, rows: list[Line], title: str) -> None:
        if (rows, title) != (self._paytable, self._title_text[PAYTABLE]):
            self._paytable = list(rows)
            self._retitled(PAYTABLE, title)
            self.redraw_boxes([PAYTABLE])

    def box_layout(self) -> BoxRows:
        width, height = self.outer_size
        return [(height, boxes_of((BANK, BOARD, PAYTABLE), (BANK_WIDTH, width - BANK_WIDTH - PAYTABLE_WIDTH, PAYTABLE_WIDTH),
                                 self.styles.gutter.width))]

    def box(self, box: int, content_width: int) -> tuple[list[Text], Content | None, tuple[str, ...]]:
        lines: list[Text] = []
        if box == BANK and self._bank is not None:
            lines = bank_lines(*self._bank)
        elif box == BOARD and self._board is not None:
            lines = board_lines(*self._board, content_width)
        elif box == PAYTABLE and self._paytable is not None:
            lines = paytable_lines(self._paytable, content_width, self.app.console)
            self.paytable_text = "\n".join(line.plain for line in lines)
        return lines, self.titles[box], ()
