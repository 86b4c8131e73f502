"""A page the manifest records that can no longer be read is an error, not the page's removal:
``check`` exits 2 naming it and the fix, and ``update`` refuses to drop its records (the
manifest is left as it was). A page with no records that cannot be read stays a warning."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.corpus import write

from docsnippets.cli import main

PAGE = "# A\n\n```python\nasync def f():\n    await g()\n```\n"
CONFIG = "max_file_bytes: 4096\n"


def _damaged(kind: str) -> tuple[bytes, str]:
    """A recorded page's new bytes, and what the error says of them."""
    if kind == "latin-1":
        return (PAGE + "café\n").encode("latin-1"), "not valid UTF-8"
    if kind == "utf-16":
        return PAGE.encode("utf-16"), "UTF-16"
    if kind == "binary":
        return PAGE.encode() + b"\x00\x01", "binary"
    return (PAGE + "filler line\n" * 1000).encode(), "max_file_bytes"


def _adopted(tmp_path: Path) -> Path:
    root = write(tmp_path / "t", {".docsnippets.yml": CONFIG, "docs/en/a.md": PAGE, "docs/zh/a.md": PAGE})
    assert main(["update", "--root", str(root)]) == 0
    return root


@pytest.mark.parametrize("kind", ["latin-1", "utf-16", "binary", "too large"])
def test_check_says_a_recorded_page_cannot_be_read_and_exits_2(tmp_path, capsys, kind):
    root = _adopted(tmp_path)
    data, said = _damaged(kind)
    (root / "docs/en/a.md").write_bytes(data)
    capsys.readouterr()
    assert main(["check", "--root", str(root)]) == 2
    out, err = capsys.readouterr()
    assert "removed" not in out and "missing" not in out, out
    [verdict] = [line for line in out.splitlines() if line.startswith("check failed")]
    assert "(error)" in verdict and "docs/en/a.md" in verdict and said in verdict, out
    assert "Traceback" not in err


@pytest.mark.parametrize("kind", ["latin-1", "utf-16", "binary", "too large"])
def test_update_keeps_the_records_of_a_page_it_cannot_read(tmp_path, capsys, kind):
    root = _adopted(tmp_path)
    before = (root / "documentation-snippets.json").read_bytes()
    (root / "docs/en/a.md").write_bytes(_damaged(kind)[0])
    capsys.readouterr()
    assert main(["update", "--root", str(root)]) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("docsnippets: error")]
    assert len(errors) == 1 and "docs/en/a.md" in errors[0] and "records" in errors[0], err
    assert (root / "documentation-snippets.json").read_bytes() == before


def test_a_page_without_records_that_cannot_be_read_stays_a_warning(tmp_path, capsys):
    root = _adopted(tmp_path)
    (root / "docs/en/b.md").write_bytes(_damaged("latin-1")[0])
    capsys.readouterr()
    assert main(["update", "--root", str(root)]) == 0
    assert main(["check", "--root", str(root)]) == 0
    err = capsys.readouterr().err
    assert "docs/en/b.md" in err and "error" not in err


@pytest.mark.parametrize(("damaged", "said"), [(2, " (1 more such page);"), (3, " (2 more such pages);")])
def test_update_counts_the_other_pages_it_cannot_read(tmp_path, capsys, damaged, said):
    """The error names the first page it cannot read and counts the rest, in the right number."""
    names = [f"docs/{lang}/{n}.md" for n in "abc" for lang in ("en", "zh")]
    root = write(tmp_path / "t", {".docsnippets.yml": CONFIG, **dict.fromkeys(names, PAGE)})
    assert main(["update", "--root", str(root)]) == 0
    for name in names[:damaged]:
        (root / name).write_bytes(_damaged("binary")[0])
    capsys.readouterr()
    assert main(["update", "--root", str(root)]) == 2
    [error] = [line for line in capsys.readouterr().err.splitlines() if line.startswith("docsnippets: error")]
    assert said in error, error
