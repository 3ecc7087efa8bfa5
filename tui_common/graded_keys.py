"""A graded table's keys: while a question waits every key answers it (but the hint, the
F-keys and the priority keys), ``?`` shows the hint, and leaving stores the session and shows
its score card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui_common.i18n import t

if TYPE_CHECKING:
    from tui_common.console import Console
    from tui_common.training.graded import GradeLine


def function_key(key: str) -> bool:
    return key[:1] == "f" and key[1:].isdigit()


class GradedKeys:
    def __init__(self, app: Console) -> None:
        self.app = app

    def key(self, key: str, character: str | None) -> bool:
        """A key the waiting question takes (False: no question waits, or a key it leaves)."""
        app = self.app
        graded = app.graded
        if graded is None or graded.question is None or key == "question_mark" or function_key(key):
            return False
        taken, text = graded.entry.press(graded.question, key, character, app.lang)
        if not taken:
            app.show_info(t("graded_answer_first", app.lang))
            return True
        if text is not None and graded.submit(text) is not None:
            self._grade_line().show_grade(graded)
            app.message_line.clear()
        app.refresh_table()
        return True

    def _grade_line(self) -> GradeLine:
        from tui_common.training.graded import GradeLine

        screen = self.app.table_screen
        assert screen is not None
        return screen.query_one(GradeLine)

    def hint(self) -> None:
        graded = self.app.graded
        if graded is None or graded.question is None:
            return
        self._grade_line().show_grade(graded, hint=graded.dealing.hint().render(self.app.lang))

    def finish(self) -> bool:
        """Store the graded session and show its score card; False if nothing was answered."""
        from tui_common.training.screens.score_card import ScoreCardScreen

        app = self.app
        graded = app.graded
        if graded is None or graded.saved or not graded.dealing.grades:
            return False
        session_id = graded.save()
        card = graded.dealing.score_card()
        graded.context.leave = app.exit
        app.push_screen(ScoreCardScreen(graded.context, card, graded.last, card.game, card.drill,
                                        grades=graded.dealing.grades, session_id=session_id))
        return True
