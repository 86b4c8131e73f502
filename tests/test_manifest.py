import json

import pytest

from docsnippets import manifest as mf
from docsnippets.config import Config
from docsnippets.extract import snippets_from_text
from docsnippets.pairs import pair_up

CFG = Config()
DOC = "# x\n\n```python\nasync def f():\n    return await g()  # 注释\n```\n"


def build():
    snippets = snippets_from_text("docs/en/a.md", DOC, CFG) + snippets_from_text("docs/zh/a.md", DOC, CFG)
    return mf.build(pair_up(snippets, {"docs/en/a.md", "docs/zh/a.md"}, CFG), CFG, "o/r", "c" * 40)


def test_dump_is_deterministic_and_unescaped():
    text = mf.dumps(build())
    assert text == mf.dumps(json.loads(text))
    assert "注释" in text and text.endswith("}\n")
    data = json.loads(text)
    assert [s["id"] for s in data["snippets"]] == ["DOC-001", "DOC-002"]
    assert data["pairs"] == [{"id": "PAIR-01", "relation": "identical", "snippets": ["DOC-001", "DOC-002"]}]
    assert data["snippets"][0]["permalink"].endswith("/o/r/blob/" + "c" * 40 + "/docs/en/a.md#L4-L5")


def test_roundtrip_through_inventory():
    data = build()
    again = mf.build(mf.to_inventory(data), CFG, "o/r", "c" * 40)
    assert mf.dumps(again) == mf.dumps(data)


@pytest.mark.parametrize(
    ("mutate", "needle"),
    [
        (lambda d: d.update(schema=2), "newer"),
        (lambda d: d.update(schema=0), "unknown schema"),
        (lambda d: d.pop("snippets"), "'snippets'"),
        (lambda d: d["snippets"][0].update(file="/etc/passwd"), "relative path"),
        (lambda d: d["snippets"][0].update(file="../x.md"), "relative path"),
        (lambda d: d["snippets"][1].update(id="DOC-001"), "duplicated id"),
        (lambda d: d["snippets"][0].update(code_lines="4-5"), "code_lines"),
        (lambda d: d["snippets"][0].pop("body"), "body"),
        (lambda d: d["snippets"][0].update(status="fine"), "status"),
        (lambda d: d["pairs"][0].update(snippets=["DOC-001", "DOC-404"]), "two snippet ids"),
    ],
)
def test_validation_rejects(mutate, needle):
    data = build()
    mutate(data)
    with pytest.raises(mf.ManifestError) as err:
        mf.parse(json.dumps(data), "m.json")
    assert needle in str(err.value) and str(err.value).startswith("m.json: ")
    assert "\n" not in str(err.value)


def test_not_json_reports_line_and_column():
    with pytest.raises(mf.ManifestError, match=r"line 2, column 1"):
        mf.parse('{"schema": 1,\n}', "m.json")
    with pytest.raises(mf.ManifestError, match="not a JSON object"):
        mf.parse("[1]", "m.json")


def test_atomic_write_keeps_old_file_on_failure(tmp_path, monkeypatch):
    target = tmp_path / "m.json"
    target.write_text("old\n")

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(mf.os, "replace", boom)
    with pytest.raises(OSError):
        mf.write_atomic(target, "new\n")
    assert target.read_text() == "old\n"
    assert list(tmp_path.iterdir()) == [target]


def test_two_snippets_at_one_fence_are_refused():
    data = build()
    twin = dict(data["snippets"][0], id="DOC-009", pair=None)
    data["snippets"].append(twin)
    with pytest.raises(mf.ManifestError, match="same fence"):
        mf.validate(data, "m.json")
