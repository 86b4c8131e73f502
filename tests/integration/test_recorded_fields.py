"""Every field the manifest records is a claim about the tree, and a false one is stale.

A table mutates each field of an entry (and of its file group and the top level) in turn: a
field the page decides is stale with a reason naming it; a field derived from others (ids,
hashes, pair ids, permalinks) is an error naming it, since the manifest no longer agrees with
itself. The table must cover every field of the manifest's JSON Schema, so a field added later
without a check fails here.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest

from docsnippets.cli import main
from docsnippets.manifest.validate import SCHEMA_FILE

RUN = "```python\nimport asyncio\n\nasync def main():\n    await asyncio.sleep(1)\n```\n"
BROKEN = "```py\nasync def f(:\n    await x\n```\n"
FILES = {
    "docs/en/guide.md": f"# Guide\n\nRun it:\n\n{RUN}\nBroken:\n\n{BROKEN}",
    "docs/zh/guide.md": f"# 指南\n\n运行：\n\n{RUN}\n坏的：\n\n{BROKEN}",
    "docs/en/solo.md": f"# Solo\n\n{RUN}",
    "docs/zh/solo.md": "# 独\n\n还没有翻译。\n",
}
PAGE = "docs/en/guide.md"
Edit = Callable[[dict[str, Any]], None]


def entry(n: int, file: str = PAGE) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda data: data["files"][file]["snippets"][n]


def setter(n: int, key: str, value: Any, file: str = PAGE) -> Edit:
    return lambda data: entry(n, file)(data).__setitem__(key, value)


def both_relations(relation: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for file in ("docs/en/guide.md", "docs/zh/guide.md"):
            data["files"][file]["snippets"][0]["pair"]["relation"] = relation

    return edit


def line_edit(n: int, key: str, index: int, delta: int) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        entry(n)(data)[key][index] += delta

    return edit


# field -> (edit, the words the reason or error must hold, exit code)
STALE, ERROR = 1, 2
SNIPPET_FIELDS: dict[str, tuple[Edit, str, int]] = {
    "info": (setter(0, "info", 'python title="verified by maintainers"'), "snippet 1: recorded info differs", STALE),
    "markers": (setter(0, "markers", ["await"]), "snippet 1: recorded markers differs", STALE),
    "modules": (setter(0, "modules", ["asyncio", "threading"]), "snippet 1: recorded modules differs", STALE),
    "status": (setter(1, "status", "parses"), "snippet 2: recorded status differs", STALE),
    "status_message": (setter(1, "status_message", "all good"), "snippet 2: recorded status_message differs", STALE),
    "status_line": (setter(1, "status_line", 2), "snippet 2: recorded status_line differs", STALE),
    "fence_lines": (line_edit(0, "fence_lines", 1, 3), "snippet 1: recorded fence_lines differs", STALE),
    "code_lines": (line_edit(0, "code_lines", 1, -1), "snippet 1: recorded code_lines differs", STALE),
    "id": (setter(0, "id", "snip-000000000000"), ".id 'snip-000000000000' is not the one", ERROR),
    "body": (setter(0, "body", "await pwned()\n"), "body_sha256 does not match its body", ERROR),
    "body_sha256": (setter(0, "body_sha256", "0" * 64), "body_sha256 does not match its body", ERROR),
    "pair": (setter(0, "pair", None), "pair partner", ERROR),
    "permalink": (setter(0, "permalink", "https://github.com/o/r/blob/0/x#L1"), ".permalink is not the one", ERROR),
}
MORE_FIELDS: dict[str, tuple[Edit, str, int]] = {
    "a message where the page has none": (
        setter(0, "status_message", "verified"),
        "snippet 1: recorded status_message differs",
        STALE,
    ),
    "both members' pair relation": (both_relations("diverged"), "bilingual pairs changed", STALE),
    "fence and code lines, moved apart": (line_edit(0, "code_lines", 1, -1), "recorded code_lines differs", STALE),
    "a field docsnippets never writes": (
        setter(0, "verified", True),
        "snippet 1: recorded verified is no field docsnippets writes",
        STALE,
    ),
    "the file's counterpart": (
        lambda data: data["files"]["docs/en/solo.md"].__setitem__("counterpart", "docs/zh/guide.md"),
        "docs/en/solo.md: recorded counterpart differs",
        STALE,
    ),
    "a file field docsnippets never writes": (
        lambda data: data["files"][PAGE].__setitem__("reviewed", True),
        f"{PAGE}: recorded reviewed is no field docsnippets writes",
        STALE,
    ),
    "a top-level field docsnippets never writes": (
        lambda data: data.__setitem__("approved", "yes"),
        "recorded approved is no field docsnippets writes",
        STALE,
    ),
    "a source field docsnippets never writes": (
        lambda data: data["source"].__setitem__("verified", True),
        "recorded source.verified is no field docsnippets writes",
        STALE,
    ),
    "the generator": (
        lambda data: data.__setitem__("generator", "verified-by-hand"),
        "recorded generator differs",
        STALE,
    ),
    "the selection": (
        lambda data: data["selection"].__setitem__("languages", ["python"]),
        "the selection settings differ",
        STALE,
    ),
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("recorded")
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    assert main(["update", "--root", str(root)], out=io.StringIO()) == 0
    return root


def check(root, edit: Edit, *args: str) -> tuple[int, str]:
    path = root / "documentation-snippets.json"
    original = path.read_text(encoding="utf-8")
    data = json.loads(original)
    edit(data)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    try:
        out = io.StringIO()
        code = main(["check", "--root", str(root), "--format", "json", *args], out=out)
        return code, out.getvalue()
    finally:
        path.write_text(original, encoding="utf-8")


def test_the_table_covers_every_field_of_an_entry():
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert set(schema["$defs"]["snippet"]["properties"]) == set(SNIPPET_FIELDS)


def test_the_untouched_manifest_is_fresh(tree):
    out = io.StringIO()
    assert main(["check", "--root", str(tree)], out=out) == 0, out.getvalue()


@pytest.mark.parametrize("field", [*SNIPPET_FIELDS, *MORE_FIELDS])
def test_each_false_field_is_named(tree, field, capsys):
    edit, words, expected = {**SNIPPET_FIELDS, **MORE_FIELDS}[field]
    code, out = check(tree, edit)
    err = capsys.readouterr().err
    assert code == expected, (out, err)
    if expected == STALE:
        reasons = json.loads(out)["reasons"]
        assert any(words in r for r in reasons), reasons
    else:
        assert words in err, err


@pytest.mark.parametrize("field", ["info", "status_message", "status_line", "fence_lines"])
def test_a_changed_reading_checks_the_fields_of_the_pages_it_reads(tree, field, capsys):
    edit, words, _ = SNIPPET_FIELDS[field]
    code, out = check(tree, edit, "--changed", PAGE)
    assert code == STALE, (out, capsys.readouterr().err)
    assert any(words in r for r in json.loads(out)["reasons"])


def test_lines_moved_as_a_whole_are_lenient_unless_strict(tree):
    def shift(data: dict[str, Any]) -> None:
        for key in ("fence_lines", "code_lines"):
            entry(0)(data)[key] = [n - 2 for n in entry(0)(data)[key]]
            entry(1)(data)[key] = [n - 2 for n in entry(1)(data)[key]]

    assert check(tree, shift)[0] == 0
    code, out = check(tree, shift, "--strict-lines")
    assert code == STALE and any("moved (--strict-lines)" in r for r in json.loads(out)["reasons"])


def test_the_written_fields_are_the_schemas():
    from docsnippets.manifest.validate import WRITTEN_FIELDS

    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert WRITTEN_FIELDS["top"] == set(schema["properties"])
    assert WRITTEN_FIELDS["source"] == set(schema["properties"]["source"]["properties"])
    assert WRITTEN_FIELDS["file"] == set(schema["$defs"]["file"]["properties"])
    assert WRITTEN_FIELDS["snippet"] == set(schema["$defs"]["snippet"]["properties"])


def test_a_key_written_twice_is_an_error_naming_it(tree, capsys):
    """A reviewer reads the first of two values, a JSON reader the last: the text claims both."""
    path = tree / "documentation-snippets.json"
    original = path.read_text(encoding="utf-8")
    first = '"info": "python",'
    assert first in original
    path.write_text(original.replace(first, '"info": "python title=\\"verified\\"",\n' + first, 1), encoding="utf-8")
    try:
        code = main(["check", "--root", str(tree)], out=io.StringIO())
    finally:
        path.write_text(original, encoding="utf-8")
    err = capsys.readouterr().err
    assert code == ERROR, err
    assert "'info' twice" in err and "docsnippets update" in err, err


@pytest.mark.parametrize("field", ["status_message", "status_line", "status", "markers"])
def test_what_the_compiler_found_is_judged_by_the_declared_python(tree, field, capsys):
    """The compiler's words (and, more rarely, what it and the tokenizer accept) change between
    Python versions, so the record is held to the declared one's reading (the ``python``
    setting, whatever Python runs the check), and the reason names it."""
    from docsnippets.config import DEFAULT_PYTHON

    edit, _, _ = SNIPPET_FIELDS[field]
    code, out = check(tree, edit)
    assert code == STALE, (out, capsys.readouterr().err)
    python = f"as Python {DEFAULT_PYTHON} reads it"
    [reason] = [r for r in json.loads(out)["reasons"] if f"recorded {field}" in r]
    assert reason.endswith(python), reason


def test_where_a_snippet_stands_is_no_question_of_python(tree, capsys):
    code, out = check(tree, SNIPPET_FIELDS["info"][0])
    assert code == STALE, (out, capsys.readouterr().err)
    assert not any("Python" in r for r in json.loads(out)["reasons"])


def test_the_text_report_lists_a_false_record_under_its_file(tree, capsys):
    code, out = check(tree, SNIPPET_FIELDS["info"][0], "--format", "text")
    assert code == STALE, (out, capsys.readouterr().err)
    assert f"  {PAGE}\n    record   " in out and "recorded info differs from the page" in out, out
