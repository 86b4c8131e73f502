"""A repository's own comment template: it gets only escaped Markdown, and its errors are one line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import cmarkgfm
import pytest

from docsnippets.cli import main
from docsnippets.judge.compare import compare
from docsnippets.report import render

SHA = "d" * 40
HOSTILE_NAMES = (
    "docs/en/<img src=x onerror=alert(1)> @octocat #1.md",
    "docs/en/a`` <b>x</b> ``b.md",
    "docs/en/](javascript:alert(1)).md",
    "docs/en/\u202eevil.md",
)
# Prints every variable as it is, the way a careless template would.
CARELESS = """{{ marker }}
{{ headline }}
{{ counts }}
{% for section in sections %}
## {{ section.title }} {{ section.count }}
{% for entry in section.entries %}
{{ entry }}
{% endfor %}
{% endfor %}
{% for fix in fixes %}{{ fix }}
{% endfor %}
"""


@pytest.fixture
def hostile_change(inventory_of):
    before = {name: "```python\nawait old()\n```\n" for name in HOSTILE_NAMES}
    after = {name: "```python\nawait new()  # <script>@octocat</script>\n```\n" for name in HOSTILE_NAMES}
    after["docs/en/added <b>@team</b>.md"] = "```python\nawait f()\n```\n"
    return compare(inventory_of(before), inventory_of(after))


def _html_outside_code(html: str) -> str:
    return re.sub(r"<code>.*?</code>|<pre[^>]*>.*?</pre>", "", html, flags=re.S)


def test_a_careless_custom_template_cannot_inject_html_or_mentions(tmp_path: Path, hostile_change):
    template = tmp_path / "comment.md.j2"
    template.write_text(CARELESS, encoding="utf-8")
    report = hostile_change
    assert report.changed and report.added
    ctx = render.CommentContext(
        marker="<!-- m -->",
        links=render.Links("https://github.com", "o/r", SHA),
        changes=report,
        template=template,
    )
    text = render.comment(report, ctx)
    assert text.startswith("<!-- m -->\n### ❌") and "## Changed 4" in text
    html = cmarkgfm.github_flavored_markdown_to_html(text, options=cmarkgfm.Options.CMARK_OPT_UNSAFE)
    outside = _html_outside_code(html)
    for bad in ("<img", "<b>", "<script", "javascript:"):
        assert bad not in outside, bad
    assert "@octocat" not in outside and "@team" not in outside
    assert "\u202e" not in text
    for href in re.findall(r'href="([^"]*)"', html):
        assert href.startswith(f"https://github.com/o/r/blob/{SHA}/docs/"), href


def test_the_packaged_template_and_an_equal_custom_one_agree(tmp_path: Path, hostile_change):
    from docsnippets.report import templating

    copy = tmp_path / "mine.j2"
    copy.write_text((templating.TEMPLATES / "comment.md.j2").read_text(encoding="utf-8"), encoding="utf-8")
    report = hostile_change
    ctx = render.CommentContext(marker="", changes=report)
    assert render.comment(report, ctx) == render.comment(
        report, render.CommentContext(marker="", changes=report, template=copy)
    )


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("{% for x in sections %}", "line 1"),
        ("{{ no_such_variable }}", "no_such_variable"),
        ("{{ ''.__class__.__mro__ }}", "unsafe"),
        ("{{ headline.format.__globals__ }}", "unsafe"),
        (b"\xff\xfe", "UTF-8"),
    ],
)
def test_a_broken_template_is_one_line_and_exit_2(tmp_path: Path, capsys, body, words):
    (tmp_path / "a.md").write_text("```python\nawait f()\n```\n", encoding="utf-8")
    assert main(["update", "--root", str(tmp_path)]) == 0
    template = tmp_path / "bad.j2"
    if isinstance(body, bytes):
        template.write_bytes(body)
    else:
        template.write_text(body, encoding="utf-8")
    capsys.readouterr()
    code = main(["check", "--root", str(tmp_path), "--format", "markdown", "--comment-template", str(template)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and str(template) in err and words in err and "Traceback" not in err, err


def test_a_missing_template_names_the_file(tmp_path: Path, capsys):
    (tmp_path / "a.md").write_text("```python\nawait f()\n```\n", encoding="utf-8")
    main(["update", "--root", str(tmp_path)])
    capsys.readouterr()
    missing = tmp_path / "nope.j2"
    code = main(["check", "--root", str(tmp_path), "--format", "markdown", "--comment-template", str(missing)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and str(missing) in err and "cannot read" in err


def test_a_custom_template_is_used_by_check_markdown(tmp_path: Path, capsys):
    (tmp_path / "a.md").write_text("```python\nawait f()\n```\n", encoding="utf-8")
    main(["update", "--root", str(tmp_path)])
    template = tmp_path / "t.j2"
    template.write_text("verdict line: {{ headline }}\n", encoding="utf-8")
    capsys.readouterr()
    code = main(["check", "--root", str(tmp_path), "--format", "markdown", "--comment-template", str(template)])
    assert code == 0 and capsys.readouterr().out.startswith("verdict line: ### ✅ docsnippets:")


def test_the_text_check_does_not_import_jinja2(tmp_path: Path):
    (tmp_path / "a.md").write_text("```python\nawait f()\n```\n", encoding="utf-8")
    probe = (
        "import sys; from docsnippets.cli import main; code = main(sys.argv[1:]); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jinja2', 'markupsafe', 'yaml')))"
    )
    run = [sys.executable, "-c", probe]
    subprocess.run([*run, "update", "--root", str(tmp_path)], check=True, capture_output=True)
    text = subprocess.run([*run, "check", "--root", str(tmp_path)], capture_output=True, text=True, check=True)
    assert "jinja2" not in text.stdout.splitlines()[-1]
    md = subprocess.run(
        [*run, "check", "--root", str(tmp_path), "--format", "markdown"], capture_output=True, text=True, check=True
    )
    assert "jinja2" in md.stdout.splitlines()[-1]  # the probe sees the import when a comment is rendered
