"""The prompt line: what the croupier announces now, in the regulation's words."""

from __future__ import annotations

from rich.text import Text
from tui_common.widgets.quiet_static import QuietStatic

from shared.midi.table import Prompt


class PromptLine(QuietStatic):
    """``show(prompt, lang)``: each announcement in «quotes», the last one highlighted."""

    def show(self, prompt: Prompt, lang: str, call_only: bool = False, hidden: frozenset[str] = frozenset()) -> None:
        """``call_only``: the last announcement alone (the card called for), while a graded
        coup is dealt: the totals announced before it are asked once the coup is decided;
        ``hidden``: the codes of announcements a graded table asks about instead."""
        out = Text("▶ ", style="bold")
        anns = prompt.announcements[-1:] if call_only else prompt.announcements
        anns = tuple(ann for ann in anns if ann.code not in hidden) or anns[-1:]
        for i, ann in enumerate(anns):
            if i:
                out.append("  ·  ")
            text = ann.render(lang)
            out.append(f"«{text}»", style="bold reverse" if i == len(anns) - 1 else "bold")
        self.show_text(out)
