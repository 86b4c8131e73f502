"""What the reviewer sees is what is there: a hostile pull request's names and code reach the
sticky comment and the job summary of both stages with nothing linked and nothing hidden.

GitHub links ``GH-77`` as it links ``#77``, and renders tag characters, fillers, soft hyphens,
variation selectors and terminal escapes as nothing at all; each must be set in code or shown
escaped.
"""

from __future__ import annotations

import re

import pytest
from tests.support.gfm import assert_structure, gfm
from tests.support.scenario import REPO
from tests.support.small_pr import BASE_FILES, SmallPR

# The snippet moves to a file whose name holds an issue reference without '.', '/' or '#'.
MOVED = "docs/en/fix GH-77 now.md"
HIDDEN = {
    "\U000e0041": "\\u{E0041}",  # TAG LATIN CAPITAL LETTER A
    "\u3164": "\\u{3164}",  # HANGUL FILLER
    "\u2800": "\\u{2800}",  # BRAILLE PATTERN BLANK
    "\u00ad": "\\u{00AD}",  # SOFT HYPHEN
    "\u034f": "\\u{034F}",  # COMBINING GRAPHEME JOINER
    "\ufe0f": "\\u{FE0F}",  # VARIATION SELECTOR-16
    "\u180e": "\\u{180E}",  # MONGOLIAN VOWEL SEPARATOR
    "\x1b": "\\u{001B}",  # ESC
    "\x85": "\\u{0085}",  # NEXT LINE (C1)
}
CODE = "async def main():\n    await step()  # ok" + "".join(HIDDEN) + "\n"
HEAD = {
    "docs/en/guide.md": None,
    MOVED: BASE_FILES["docs/en/guide.md"],
    "docs/en/hidden.md": "# Hidden\n\n```python\n" + CODE + "```\n",
}


def check(text: str) -> None:
    # No text node outside code holds GH-77 (nor #77, @name, a URL); stage 2 adds a note of
    # its own in a blockquote.
    assert_structure(text, allowed=frozenset({"blockquote"}))
    assert "`GH-77`" in text or "GH-77 now.md" in "".join(n.text() for n in gfm(text).walk() if n.tag == "code")
    code = "".join(n.text() for n in gfm(text).walk() if n.tag in ("code", "pre"))
    for char, shown in HIDDEN.items():  # (our own emoji carry U+FE0F outside code)
        assert char not in code, repr(char)
        assert shown in code, shown


@pytest.mark.parametrize("stage", ["stage1", "stage2"])
def test_hostile_names_and_code_are_shown_as_they_are(tmp_path, fake, stage):
    pr = SmallPR(tmp_path, fake, head=dict(HEAD))
    result = getattr(pr, stage)().run()
    if stage == "stage1":
        assert result.code == 1, result.stdout + result.stderr
    else:  # stage 2 answers with the commit status
        assert [s["state"] for s in pr.statuses()] == ["failure"], result.stdout + result.stderr
    [comment] = [c.body for c in fake.comments(REPO, 42)]
    for text in (comment, result.summary):
        check(text)
    # The stale headline quotes the move in prose: the reference is in code there too.
    headline = next(line for line in comment.splitlines() if "stale" in line)
    assert re.search(r"`GH-77`|`[^`]*GH-77[^`]*`", headline), headline
