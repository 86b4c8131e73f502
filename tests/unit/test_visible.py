"""Hidden characters are shown escaped in code spans and blocks; GH-123 is set in code."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docsnippets.report.markup import code_span, plain
from docsnippets.visible import VisibleWriter, clipped, hidden, quoted, visible, visible_block, visible_json

EXAMPLES = {
    "\x00": "\\u{0000}",
    "\x1b": "\\u{001B}",  # ESC: a terminal escape
    "\x7f": "\\u{007F}",
    "\x85": "\\u{0085}",  # C1
    "\x9b": "\\u{009B}",  # C1 CSI
    "\u00ad": "\\u{00AD}",  # soft hyphen (Cf)
    "\u034f": "\\u{034F}",  # combining grapheme joiner
    "\u180e": "\\u{180E}",
    "\u200b": "\\u{200B}",
    "\u202e": "\\u{202E}",  # bidi override
    "\u2028": "\\u{2028}",  # Zl
    "\u2029": "\\u{2029}",  # Zp
    "\u2800": "\\u{2800}",  # Braille blank
    "\u3164": "\\u{3164}",  # Hangul filler
    "\ue000": "\\u{E000}",  # private use
    "\ufe0f": "\\u{FE0F}",
    "\ufeff": "\\u{FEFF}",
    "\U000e0001": "\\u{E0001}",  # language tag
    "\U000e0041": "\\u{E0041}",  # tag A
    "\U000e007f": "\\u{E007F}",  # cancel tag
    "\U000e0100": "\\u{E0100}",  # variation selector 17
    "\ud800": "\\u{D800}",  # a lone surrogate (surrogateescape)
    "\U0010fffe": "\\u{10FFFE}",  # unassigned (Cn)
}


@pytest.mark.parametrize("char", sorted(EXAMPLES))
def test_each_hidden_character_is_shown(char):
    shown = EXAMPLES[char]
    assert visible(f"a{char}b") == f"a{shown}b"
    assert visible_block(f"a{char}b") == f"a{shown}b"
    assert shown in code_span(f"x{char}.md")


def test_layout_stays_in_blocks_only():
    assert visible_block("\tx = 1\n") == "\tx = 1\n"
    assert visible("\tx\n") == "\\u{0009}x\\u{000A}"


def test_what_is_seen_stays():
    text = "中文注释 café ñ — “quoted” 🙂 \u3000 x"
    assert visible(text) == text and visible_block(text) == text


# The emoji that are not in the Other Symbol category (Unicode's emoji data): a selector after
# one of them chooses how it looks, as after any symbol.
EMOJI = "‼⁉ℹ↔◻◼◽◾⤴⤵〰〽"


@given(st.text())
def test_nothing_hidden_survives(text):
    shown = visible(text)
    # but one presentation selector right after the symbol it styles (an emoji's)
    left = [
        c
        for i, c in enumerate(shown)
        if not (c in "\ufe0e\ufe0f" and i and (unicodedata.category(shown[i - 1]) == "So" or shown[i - 1] in EMOJI))
    ]
    assert not any(hidden(c) for c in left)
    categories = {"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"}
    assert not any(unicodedata.category(c) in categories for c in shown)
    assert visible(shown) == shown


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("⚠\ufe0f stale", "⚠\ufe0f stale"),  # our own headline's emoji
        ("ℹ\ufe0f", "ℹ\ufe0f"),  # an emoji outside the symbol category (ours too)
        ("ℹ\ufe0e", "ℹ\ufe0e"),
        ("↔\ufe0f ◻\ufe0f 〽\ufe0f ✔\ufe0e", "↔\ufe0f ◻\ufe0f 〽\ufe0f ✔\ufe0e"),
        # after a letter a selector changes nothing seen: two names would look the same
        ("中\ufe0f文", "中\\u{FE0F}文"),
        ("café\ufe0f", "café\\u{FE0F}"),
        ("Ω\ufe0e", "Ω\\u{FE0E}"),
        ("é\ufe0f", "é\\u{FE0F}"),
        ("🏻\ufe0f", "🏻\\u{FE0F}"),  # a skin tone modifies, it takes no selector
        ("\u2800\ufe0f", "\\u{2800}\\u{FE0F}"),  # a blank symbol is shown, and so is what follows it
        ("a\ufe0f", "a\\u{FE0F}"),
        ("⚠\ufe0f\ufe0f", "⚠\ufe0f\\u{FE0F}"),  # a run of selectors can spell hidden data
        ("\u200d\ufe0f", "\\u{200D}\\u{FE0F}"),
        ("\ufe0fx", "\\u{FE0F}x"),
    ],
)
def test_a_presentation_selector_stays_with_its_symbol(text, shown):
    assert visible(text) == shown


def test_every_default_ignorable_code_point_is_hidden():
    # Default_Ignorable_Code_Point (Unicode DerivedCoreProperties), which renders as nothing.
    ranges = [(0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5)]
    ranges += [(0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164)]
    ranges += [(0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3)]
    ranges += [(0x1D173, 0x1D17A), (0xE0000, 0xE0FFF)]
    missed = [hex(c) for lo, hi in ranges for c in range(lo, hi + 1) if c <= sys.maxunicode and not hidden(chr(c))]
    assert missed == []


@pytest.mark.parametrize("ref", ["GH-77", "gh-77", "Gh-1"])
def test_gh_references_are_set_in_code(ref):
    assert plain(f"fixes {ref} now") == f"fixes `{ref}` now"


def test_words_that_only_look_alike_stay_prose():
    assert plain("GH-x and high-5") == "GH\\-x and high\\-5"


@given(
    st.recursive(st.text() | st.integers() | st.none(), lambda kids: st.lists(kids) | st.dictionaries(st.text(), kids))
)
def test_json_keeps_its_data_and_hides_nothing(data):
    import json

    text = visible_json(json.dumps(data, ensure_ascii=False, indent=2))
    assert json.loads(text) == data
    assert not any(hidden(c) for c in text if c != "\n")
    text.encode("utf-8")  # a lone surrogate is written as its escape, so the file can be written


def test_json_escapes_examples():
    assert visible_json('"a\u202eb\U000e0041"') == '"a\\u202eb\\udb40\\udc41"'
    assert visible_json('"中文 café"') == '"中文 café"'


@given(st.text())
def test_every_output_builder_shows_nothing_hidden(text):
    from docsnippets.github.workflow import annotation, one_line, plain_line

    for built in (annotation("error", text, file=text, title=text), plain_line(text), one_line(text, 140)):
        assert not any(hidden(c) for c in built)


def test_quoted_is_repr_in_the_visible_form():
    assert quoted("docs/a.md") == "'docs/a.md'"
    assert quoted("it's\\\x1b") == "'it\\'s\\\\\\u{001B}'"
    assert quoted(3) == "3" and quoted(None) == "None"


@given(st.text(), st.integers(min_value=2, max_value=50))
def test_clipped_never_cuts_an_escape(text, limit):
    shown = clipped(visible(text), limit)
    assert len(shown) <= limit
    core = shown.removesuffix("\u2026")
    assert visible(text).startswith(core)
    assert re.search(r"\\u\{[0-9A-F]*$", core) is None


def test_the_terminal_writer_shows_what_any_caller_prints():
    import io

    out = io.StringIO()
    writer = VisibleWriter(out)
    print("docs/\x1b[31mred\u202e.md", file=writer)  # type: ignore[arg-type]
    writer.write("\tcode\n")
    assert out.getvalue() == "docs/\\u{001B}[31mred\\u{202E}.md\n\tcode\n"


# Each output shows hidden characters by itself, whoever built the text that reaches it: the
# builders above do it too, so each layer is tested alone.
RAW = "docs/\x1b[31m\u202eevil\u200b.md"
SHOWN = "docs/\\u{001B}[31m\\u{202E}evil\\u{200B}.md"


def test_the_log_stream_shows_a_command_built_elsewhere():
    import io

    from docsnippets.github.workflow import LogStream

    out = io.StringIO()
    LogStream(out).command(f"::notice::{RAW}")
    assert out.getvalue() == f"::notice::{SHOWN}\n"


def test_the_job_summary_is_appended_visible(tmp_path):
    from docsnippets.github.workflow import append_summary

    path = tmp_path / "summary.md"
    append_summary(path, f"| {RAW} |\n\tindented\n")
    assert path.read_text(encoding="utf-8") == f"| {SHOWN} |\n\tindented\n"


def test_a_template_renders_visible_whatever_it_does_with_its_values():
    from docsnippets.report import templating

    template = templating.environment().from_string("{{ raw }} and {{ '\\u2066' }}")
    assert templating.render(template, "custom.md.j2", {"raw": RAW}) == f"{SHOWN} and \\u{{2066}}"


def test_the_manifest_text_holds_nothing_hidden_and_reads_back():
    import json

    from docsnippets.manifest.io import dumps

    data = {"files": {RAW: {"snippets": [{"body": "x = '\u2028'\n"}]}}}
    text = dumps(data)
    assert not any(hidden(c) for c in text if c != "\n")
    assert json.loads(text) == data
