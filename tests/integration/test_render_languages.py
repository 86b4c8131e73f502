"""``docsnippets render --lang`` under the translations setting: any configured language, the
catalogue of the source and that translation, said as a source and its translations."""

from __future__ import annotations

import io

from tests.support.corpus import write

from docsnippets.cli import main

CONFIG = "translations:\n  pages:\n" + "".join(f"    {c}: docs/{c}/{{path}}\n" for c in ("en", "de", "ja", "zh"))
BODY = "async def main():\n    await run()\n"


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


def _tree(tmp_path):
    files = {f"docs/{c}/guide.md": f"# {c}\n\n```python\n{BODY}```\n" for c in ("en", "de", "ja", "zh")}
    root = write(tmp_path / "t", {".docsnippets.yml": CONFIG, **files})
    assert run("update", "--root", str(root))[0] == 0
    return root


def test_render_takes_any_configured_language_and_pairs_the_source_with_it(tmp_path, capsys):
    root = _tree(tmp_path)
    code, ja = run("render", "--root", str(root), "--lang", "ja")
    assert code == 0
    assert "`docs/ja/guide.md:4–5`" in ja and "docs/de/guide.md" not in ja and "docs/zh/guide.md" not in ja
    assert "## Translation pairs" in ja and "1 pair of a source example and a translation" in ja
    code, zh = run("render", "--root", str(root), "--lang", "zh")
    assert code == 0 and "## 原文与译文对应关系" in zh and "1 对源语言示例与译文" in zh and "docs/de" not in zh
    code, en = run("render", "--root", str(root), "--lang", "en")
    assert code == 0 and all(f"docs/{c}/guide.md" in en for c in ("en", "de", "ja", "zh"))
    assert "3 pairs of a source example and a translation" in en


def test_render_refuses_a_language_not_configured_in_one_line(tmp_path, capsys):
    root = _tree(tmp_path)
    assert run("render", "--root", str(root), "--lang", "fr<x>")[0] == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "choose one of de, en, ja, zh" in err and "<x>" not in err.replace("fr<x>", "")
