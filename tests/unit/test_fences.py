import pytest

from docsnippets.snippets.fences import extract_fences, normalize


def one(text: str):
    fences = extract_fences(text)
    assert len(fences) == 1, fences
    return fences[0]


def test_backtick_fence_lines_and_body():
    f = one("# t\n\n```python\nasync def f():\n    pass\n```\n")
    assert f.fence_lines == (3, 6)
    assert f.code_lines == (4, 5)
    assert f.body == "async def f():\n    pass\n"
    assert f.language == "python" and f.closed


def test_tilde_fence_and_info_words():
    f = one("~~~~ PY title=x\nawait x\n~~~~\n")
    assert f.language == "py" and f.info == "PY title=x"
    assert f.body == "await x\n"


def test_list_indentation_is_kept_in_body():
    text = "1. step\n\n    ```python\n    async def f():\n        pass\n    ```\n"
    f = one(text)
    assert f.body == "    async def f():\n        pass\n"
    assert f.code_lines == (4, 5)


def test_blockquote_markers_are_removed():
    f = one("> note\n>\n> ```py\n> await go()\n>     x = 1\n> ```\n")
    assert f.body == "await go()\n    x = 1\n"
    assert f.fence_lines == (3, 6)


def test_nested_blockquote_in_list():
    f = one("- item\n\n  > > ```py\n  > > await a\n  > > ```\n")
    assert f.body == "await a\n"


def test_unclosed_fence_runs_to_end_of_document():
    f = one("text\n\n```python\nawait x\ny = 2\n")
    assert not f.closed
    assert f.code_lines == (4, 5)
    assert f.fence_lines == (3, 5)
    assert f.body == "await x\ny = 2\n"


def test_unclosed_fence_ends_with_its_container():
    fences = extract_fences("> ```py\n> await x\n\nafter\n")
    assert len(fences) == 1
    assert fences[0].body == "await x\n"
    assert fences[0].code_lines == (2, 2)


def test_crlf_and_bom():
    f = one("\ufeff```py\r\nawait x\r\n```\r\n")
    assert f.body == "await x\n"
    assert f.fence_lines == (1, 3)
    assert normalize("a\r\nb\rc") == "a\nb\nc"


def test_empty_fence():
    f = one("```py\n```\n")
    assert f.body == "" and f.code_lines == (2, 1) and f.fence_lines == (1, 2)


def test_indented_code_block_is_not_a_fence():
    assert extract_fences("para\n\n    await x\n") == []


def test_longer_closing_fence_and_inner_shorter_run():
    f = one("````py\n```\nawait x\n```\n````\n")
    assert f.body == "```\nawait x\n```\n"


def test_last_line_without_newline():
    f = one("```py\nawait x")
    assert f.body == "await x\n" and f.code_lines == (2, 2)


def test_the_built_in_sha256_gives_hashlib_digests():
    import hashlib

    from docsnippets.snippets.digest import sha256

    for data in (b"", b"abc", "中文 body\n".encode(), bytes(range(256)) * 300):
        assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()


def test_a_long_line_of_list_markers_is_not_read_again_at_every_level(monkeypatch):
    """``- - - ... x`` opens a list a level, a hundred levels deep, and markdown-it asks at each
    level whether the rest of the line is a thematic break. The characters that question
    reads are counted: at most a few readings of the line, not one a level."""
    import importlib

    hr_rule = importlib.import_module("markdown_it.rules_block.hr")

    read = 0
    real = hr_rule.isStrSpace

    def counting(ch):
        nonlocal read
        read += 1
        return real(ch)

    monkeypatch.setattr(hr_rule, "isStrSpace", counting)
    line = "- " * 10_000 + "x"
    fences = extract_fences("```python\nawait f()\n```\n\n" + line + "\n")
    assert [f.body for f in fences] == ["await f()\n"]
    assert read <= 3 * len(line), read
    # A line that is a break still is one, at whatever depth it stands.
    assert [f.body for f in extract_fences("- - - -\n\n```python\nawait f()\n```\n")] == ["await f()\n"]


@pytest.mark.parametrize("seed", range(300))
def test_the_break_rule_answers_as_markdown_its_own(seed):
    import random

    from markdown_it import MarkdownIt

    from docsnippets.snippets.fences import MAX_NESTING, _parser

    rng = random.Random(seed)
    pieces = ["- ", "* ", "_ ", "  ", "\t", "-", "*", "_", "x", "> ", "1. ", "```", "\n", "\n\n", "    "]
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 120)))
    plain = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).disable(["inline", "text_join"], ignoreInvalid=True)

    def shape(md):
        return [(t.type, t.map, t.level, t.markup, t.info, t.content) for t in md.parse(text)]

    assert shape(_parser()) == shape(plain)
