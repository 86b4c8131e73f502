"""A file name holding hidden characters is shown the same visible way in every output.

The attacker names a page with an escape sequence, a bidi override, a zero-width joiner and
other characters a reader cannot see (or that rewrite what the reader sees): the log, the
annotations, the step outputs, the job summary, the comment, the commit status and the CLI's
terminal output must each show them in one visible form (``\\u{001B}``), never raw.
"""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata

import pytest
from tests.support.runner_log import obeyed, output_file
from tests.support.scenario import REPO, TOKEN, Result
from tests.support.small_pr import SNIPPET, SmallPR

# ESC [8m (conceal), U+202E (right-to-left override), U+200D (zero-width joiner), and one of
# each other kind: a C1 control, a line separator, a zero-width space, a tag character, BOM,
# a variation selector after a letter (it changes nothing seen there), a Hangul filler.
HIDDEN = "\x1b[8m\u202eevil\u200d\x85\u2028\u200b\U000e0041\ufeff\x7f中\ufe0f\u3164"
EVIL = f"docs/en/{HIDDEN}.md"
SHOWN = (
    "docs/en/\\u{001B}[8m\\u{202E}evil\\u{200D}\\u{0085}\\u{2028}\\u{200B}\\u{E0041}\\u{FEFF}\\u{007F}"
    "中\\u{FE0F}\\u{3164}.md"
)
CLI = (sys.executable, "-c", "from docsnippets.cli.commands import run; run()")  # the console script
_HIDDEN_CATEGORIES = {"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"}


def raw_hidden(text: str, *, layout: str = "\n") -> list[str]:
    """The hidden characters left in ``text`` (``layout``: the line breaks and tabs of the
    output's own layout)."""
    return [f"U+{ord(c):04X}" for c in text if c not in layout and unicodedata.category(c) in _HIDDEN_CATEGORIES]


def assert_all_visible(result: Result, pr) -> None:
    assert raw_hidden(result.stdout) == [], result.stdout
    assert raw_hidden(result.stderr) == [], result.stderr
    assert raw_hidden(result.summary, layout="\n\t") == []
    for key, value in result.outputs.items():
        assert raw_hidden(key + value) == [], (key, value)
    for body in pr.comments():
        assert raw_hidden(body, layout="\n\t") == [], body
    for status in pr.fake.repos[REPO].statuses.values():
        for one in status:
            assert raw_hidden(one["description"] or "") == []


def test_stage_1_shows_a_hidden_name_the_same_way_everywhere(tmp_path, fake):
    pr = SmallPR(tmp_path, fake, head={EVIL: "# Evil\n\n" + SNIPPET})
    scenario = pr.stage1()
    result = scenario.run()
    assert result.code == 1, result.stdout + result.stderr
    assert_all_visible(result, scenario)
    [stale] = [a for a in result.annotations if a.startswith("::error ") and "evil" in a]
    assert f"file={SHOWN}," in stale  # the workflow command's own escaping leaves the form alone
    assert [c.name for c in obeyed(stale)] == ["error"]
    assert SHOWN in result.summary
    [comment] = scenario.comments()
    assert SHOWN in comment
    report = scenario.host_path(result.outputs["report"]).read_text(encoding="utf-8")
    assert raw_hidden(report) == []  # JSON's own escapes: the artifact reads back as the real name
    assert EVIL in {entry["file"] for entry in json.loads(report)["added"]}


def test_stage_2_shows_a_hidden_name_the_same_way_everywhere(tmp_path, fake):
    pr = SmallPR(tmp_path, fake, head={EVIL: "# Evil\n\n" + SNIPPET})
    scenario = pr.stage2()
    result = scenario.run()
    assert result.code == 0, result.stdout + result.stderr  # the failure status delivered
    assert_all_visible(result, scenario)
    [stale] = [a for a in result.annotations if a.startswith("::error ") and "evil" in a]
    assert f"file={SHOWN}," in stale
    [comment] = scenario.comments()
    assert SHOWN in comment and SHOWN in result.summary
    [status] = pr.statuses()
    assert status["state"] == "failure"


def test_stage_1_artifact_names_reach_the_log_visible(tmp_path, fake):
    """Stage 2 reads stage 1's report from a downloaded artifact: its file names are the PR's."""
    pr = SmallPR(tmp_path, fake, head={"docs/en/guide.md": "# Guide\n\nChanged.\n\n" + SNIPPET})
    scenario = pr.stage2()
    scenario.inputs["INPUT_REPORT"] = ".docsnippets-stage1"
    artifact = scenario.workspace / ".docsnippets-stage1"
    artifact.mkdir()
    (artifact / f"{HIDDEN}.json").write_text("{}", encoding="utf-8")
    result = scenario.run()
    assert_all_visible(result, scenario)
    assert "\\u{001B}[8m\\u{202E}evil" in result.stdout


def test_a_hidden_error_message_is_visible_in_the_log(tmp_path, fake):
    """A name in an error (here: a manifest entry the PR made up) is shown the same way."""
    pr = SmallPR(tmp_path, fake)
    data = json.loads(pr.base_manifest)
    data["files"][EVIL] = data["files"].pop("docs/en/guide.md")
    pr = SmallPR(tmp_path / "hostile", fake, manifest=json.dumps(data, ensure_ascii=False))
    scenario = pr.stage1()
    result = scenario.run()
    assert result.code == 2, result.stdout + result.stderr
    assert_all_visible(result, scenario)
    assert SHOWN in result.stderr


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_the_cli_shows_a_hidden_name_visible(tmp_path, write_files, fmt):
    root = write_files(tmp_path / "repo", {"docs/en/guide.md": "# Guide\n\n" + SNIPPET})
    update = [*CLI, "update", "--root", str(root)]
    assert subprocess.run(update, capture_output=True, check=False).returncode == 0
    write_files(root, {EVIL: "# Evil\n\n" + SNIPPET})
    check = [*CLI, "check", "--root", str(root), "--format", fmt]
    done = subprocess.run(check, capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert raw_hidden(done.stdout, layout="\n\t") == [], done.stdout
    assert raw_hidden(done.stderr) == [], done.stderr
    if fmt == "json":  # JSON's own escapes: the data still reads back as the real name
        data = json.loads(done.stdout)
        assert EVIL in {entry["file"] for entry in data["added"]}
    else:
        assert SHOWN in done.stdout


def test_the_cli_names_a_hidden_path_in_its_errors_visible(tmp_path, write_files):
    root = write_files(tmp_path / "repo", {"docs/en/guide.md": "# Guide\n\n" + SNIPPET})
    missing = root / f"{HIDDEN}.json"
    check = [*CLI, "update", "--root", str(root), "--manifest", str(missing / "x")]
    done = subprocess.run(check, capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert raw_hidden(done.stderr) == [] and "\\u{001B}[8m" in done.stderr, done.stderr


def test_outputs_file_stays_parseable(tmp_path, fake):
    pr = SmallPR(tmp_path, fake, head={EVIL: "# Evil\n\n" + SNIPPET})
    scenario = pr.stage1()
    result = scenario.run()
    text = (scenario.runner_dir / "file_commands" / "output").read_text(encoding="utf-8")
    assert output_file(text) == result.outputs and result.outputs["fresh"] == "false"
    assert TOKEN not in text
