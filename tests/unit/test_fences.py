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
