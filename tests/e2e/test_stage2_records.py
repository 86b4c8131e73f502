"""Stage 2 holds a pull request's hand-edited manifest metadata against the pages.

The PR touches only the manifest and makes an entry claim something the page does not say
(an info string, a compiler message, a line): the status is a failure naming the field.
"""

from __future__ import annotations

import json

import pytest
from tests.support.small_pr import SmallPR, manifest_with

PAGE = "docs/en/guide.md"


def _entry(data: dict) -> dict:
    return data["files"][PAGE]["snippets"][0]


EDITS = {
    "info": lambda e: e.__setitem__("info", 'python title="verified by maintainers"'),
    "status_message": lambda e: e.__setitem__("status_message", "all good"),
    "status_line": lambda e: e.__setitem__("status_line", 1),
    "fence_lines": lambda e: e["fence_lines"].__setitem__(1, e["fence_lines"][1] + 2),
}


@pytest.mark.parametrize("field", sorted(EDITS))
def test_stage_2_fails_a_false_record(tmp_path, fake, field):
    base = SmallPR(tmp_path / "base", fake)
    pr = SmallPR(tmp_path, fake, manifest=manifest_with(base.base_manifest, lambda d: EDITS[field](_entry(d))))
    scenario = pr.stage2()
    result = scenario.run()
    assert result.code == 0, result.stdout + result.stderr  # the failure status delivered
    [status] = pr.statuses()
    assert status["state"] == "failure", status
    report = json.loads(scenario.host_path(result.outputs["report"]).read_text(encoding="utf-8"))
    said = f"{PAGE} snippet 1: recorded {field} differs from the page"
    assert any(r.startswith(said) for r in report["reasons"]), report["reasons"]
    [annotation] = [a for a in result.annotations if f"recorded {field} differs" in a]
    assert f"file={PAGE}," in annotation
