"""Count the mutants of a ``bench/mutation.sh`` or ``bench/mutation_madero.sh`` run and sort the survivors
that change logic and those that only change the text of a message.

    .venv/bin/python bench/mutation_classify.py WORKDIR [--list]

A survivor changes only message text when its diff differs from the original only inside
string literals, each of which is a sentence (it holds a space) and not an article citation
("Art. …"): the croupier reads it, no rule depends on it. Anything else — an operator, a
number, a name, a dictionary key, a string turned into None, an article — changes logic.
``--list`` prints each logic survivor's diff lines.
"""

from __future__ import annotations

import ast
import difflib
import io
import json
import sys
import tokenize
from collections import Counter
from pathlib import Path

RESULT = {0: "survived", 1: "killed", 33: "no tests", 34: "skipped", 35: "suspicious", 36: "timeout",
          None: "not checked"}


def _tokens(lines: list[str]) -> list[tuple[int, str]]:
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO("\n".join(line.strip() for line in lines)).readline):
            if tok.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT):
                out.append((tok.type, tok.string))
    except (tokenize.TokenError, IndentationError):
        pass  # a line of a longer call: the tokens read so far are what the diff holds
    return out


def _sentence(literal: str) -> bool:
    body = literal.lstrip("rbfuRBFU").strip("'\"")
    return " " in body and not body.startswith("Art.")


def text_only(diff: str) -> bool:
    minus = [line[1:] for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")]
    plus = [line[1:] for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    before, after = _tokens(minus), _tokens(plus)
    if len(before) != len(after):
        return False
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    return bool(changed) and all(a[0] == b[0] == tokenize.STRING and _sentence(a[1]) for a, b in changed)


def _functions(path: Path) -> dict[str, list[str]]:
    """Every function of a mutated module as mutmut wrote it (``x_f__mutmut_orig``, ``x_f__mutmut_3``…)."""
    lines = path.read_text().splitlines()
    return {node.name: lines[node.lineno:node.end_lineno]  # the body: the def line names the mutant
            for node in ast.walk(ast.parse("\n".join(lines)))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and "__mutmut_" in node.name}


def _diff(functions: dict[str, list[str]], key: str) -> str:
    name = key.rsplit(".", 1)[-1]
    original = functions[name.rsplit("__mutmut_", 1)[0] + "__mutmut_orig"]
    return "\n".join(difflib.unified_diff(original, functions[name], lineterm="", n=0))


def main() -> None:
    work = Path(sys.argv[1])
    for meta in sorted((work / "mutants").rglob("*.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        functions = _functions(meta.with_suffix(""))
        counts = Counter(RESULT.get(code, str(code)) for code in codes.values())
        logic, text = [], 0
        for key, code in sorted(codes.items()):
            if code != 0:
                continue
            diff = _diff(functions, key)
            if text_only(diff):
                text += 1
            else:
                logic.append((key, diff))
        killed = counts["killed"]
        print(f"{meta.relative_to(work / 'mutants')}: {len(codes)} mutants, {dict(counts)}; survivors: "
              f"{len(logic)} change logic, {text} only message text; logic killed "
              f"{killed}/{killed + len(logic)} = {100 * killed / max(1, killed + len(logic)):.1f} %")
        if "--list" in sys.argv:
            for key, diff in logic:
                lines = [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("---", "+++")]
                print(f"  {key}\n    " + "\n    ".join(lines))


if __name__ == "__main__":
    main()
