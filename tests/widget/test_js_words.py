"""The table's own words in the browser (buttons, the key, headings, controls, what a
screen reader reads) are in one module, js/words.ts, so that a teacher can read them or
translate them in one place: none of the analyst's words there outside its
``DETAILS_WORDS`` (shown with *Details* on), and no other TypeScript file holds a sentence
of its own (the generated protocol aside)."""

from __future__ import annotations

import re
from pathlib import Path

from .test_default_words import BANNED

JS = Path(__file__).resolve().parents[2] / "js"

# a string literal ("...", or a template literal's text, its ${...} parts left out)
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`')
# words a person reads: two words of letters in a row
PROSE = re.compile(r"[A-Za-z]{2,}[ ,:;'’]+[A-Za-z]{2,}")
# code that looks like words: class lists, CSS, font lists, media queries, event names
CODE = re.compile(r"\btl-|var\(|sans-serif|prefers-color-scheme|^msg:|stroke|fill:")


def literals(text: str) -> list[tuple[int, str]]:
    """Each string literal of TypeScript `text` outside comments, with its line (an
    error's message, for a developer, left out)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    found = []
    for n, line in enumerate(text.split("\n"), 1):
        code = re.sub(r"^\s*//.*|\s//.*$", "", line)
        if "Error(" in code:
            continue
        for m in LITERAL.finditer(code):
            s = m.group(1) if m.group(1) is not None else re.sub(r"\$\{[^}]*\}", " ", m.group(2))
            found.append((n, s))
    return found


def test_the_words_module_holds_none_of_the_analysts_words() -> None:
    text = (JS / "words.ts").read_text()
    plain, _, details = text.partition("export const DETAILS_WORDS")
    said = [s for _, s in literals(plain)]
    assert len(said) > 100, "the module's words are read"
    bad = [s for s in said if BANNED.search(s)
           or (re.search(r"\baccuracy\b", s, re.IGNORECASE) and "out of 100" not in s)]
    assert bad == []
    assert details and BANNED.search(details), "the Details words are the analyst's"


def test_no_other_typescript_file_holds_a_sentence_of_its_own() -> None:
    found = []
    for path in sorted(JS.rglob("*.ts")):
        if path.name in ("words.ts", "protocol.ts"):  # protocol.ts: generated from Python
            continue
        for n, s in literals(path.read_text()):
            if PROSE.search(s) and not CODE.search(s):
                found.append(f"{path.relative_to(JS)}:{n}: {s[:80]}")
    assert found == []


def test_a_sentence_outside_the_module_is_found(tmp_path: Path) -> None:
    bad = tmp_path / "x.ts"
    bad.write_text('// a comment with words in it\nbutton("end", "End turn", go, "tl-end");\n'
                   'throw new Error("no such table");\n')
    found = [s for _, s in literals(bad.read_text()) if PROSE.search(s) and not CODE.search(s)]
    assert found == ["End turn"]
