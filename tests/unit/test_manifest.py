import json

import pytest
from tests.support.manifest_helpers import entry_objects, rename_file

from docsnippets import fileio
from docsnippets.fileio import write_atomic
from docsnippets.manifest import build as mf
from docsnippets.snippets.extract import snippets_from_text
from docsnippets.snippets.pairs import pair_up
from docsnippets.snippets.records import pair_id_of

DOC = "# x\n\n```python\nasync def f():\n    return await g()  # 注释\n```\n"


@pytest.fixture
def build(inventory_of, config):
    """A small linked manifest: one snippet in each language, identical."""
    return lambda: mf.build(inventory_of({"docs/en/a.md": DOC, "docs/zh/a.md": DOC}), config, "o/r", "c" * 40)


def test_dump_is_deterministic_and_unescaped(build):
    text = mf.dumps(build())
    assert text == mf.dumps(json.loads(text))
    assert "注释" in text and text.endswith("}\n")
    data = json.loads(text)
    assert list(data["files"]) == ["docs/en/a.md", "docs/zh/a.md"]
    en, zh = entry_objects(data)
    assert en["id"].startswith("snip-") and len(en["id"]) == 17 and en["id"] != zh["id"]
    pair = {"id": pair_id_of(en["id"], zh["id"]), "relation": "identical", "en": en["id"], "zh": zh["id"]}
    assert en["pair"] == zh["pair"] == pair
    assert en["permalink"].endswith("/o/r/blob/" + "c" * 40 + "/docs/en/a.md#L4-L5")
    assert '"code_lines": [4, 5],' in text  # short lists on one line
    assert "summary" not in data and "file_sha256" not in text


def test_roundtrip_through_inventory(build, config):
    data = build()
    again = mf.build(mf.to_inventory(data), config, "o/r", "c" * 40)
    assert mf.dumps(again) == mf.dumps(data)


@pytest.mark.parametrize(
    ("mutate", "needle"),
    [
        (lambda d: d.update(schema=4), "newer"),
        (lambda d: d.update(schema=0), "unknown schema"),
        (lambda d: d.pop("files"), "'files'"),
        (lambda d: rename_file(d, "docs/en/a.md", "/etc/passwd"), "relative path"),
        (lambda d: rename_file(d, "docs/en/a.md", "../x.md"), "relative path"),
        (lambda d: entry_objects(d)[1].update(id=entry_objects(d)[0]["id"]), "not the one its file and body give"),
        (lambda d: entry_objects(d)[0].update(id="snip-000000000000"), "not the one its file and body give"),
        (lambda d: entry_objects(d)[0].update(code_lines="4-5"), "code_lines"),
        (lambda d: entry_objects(d)[0].pop("body"), "body"),
        (lambda d: entry_objects(d)[0].update(status="fine"), "status"),
        (lambda d: entry_objects(d)[0]["pair"].update(zh="snip-404"), "pair partner"),
        (lambda d: entry_objects(d)[1].update(pair=None), "pair partner"),
        (lambda d: [e["pair"].update(relation="twins") for e in entry_objects(d)], "relation"),
        (lambda d: [e["pair"].update(id="pair-0") for e in entry_objects(d)], "pair relation or id"),
        (lambda d: d["files"]["docs/en/a.md"].update(counterpart=None), "counterpart"),
        (lambda d: d["source"].update(commit="main"), "hex commit"),
    ],
)
def test_validation_rejects(build, mutate, needle):
    data = build()
    mutate(data)
    with pytest.raises(mf.ManifestError) as err:
        mf.parse(json.dumps(data), "m.json")
    assert needle in str(err.value) and str(err.value).startswith("m.json: ")
    assert "\n" not in str(err.value)


def test_not_json_reports_line_and_column():
    with pytest.raises(mf.ManifestError, match=r"line 2, column 1"):
        mf.parse('{"schema": 2,\n}', "m.json")
    with pytest.raises(mf.ManifestError, match="not a JSON object"):
        mf.parse("[1]", "m.json")


def test_atomic_write_keeps_old_file_on_failure(tmp_path, monkeypatch):
    target = tmp_path / "m.json"
    target.write_text("old\n")

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(fileio.os, "replace", boom)
    with pytest.raises(OSError):
        write_atomic(target, "new\n", root=tmp_path)
    assert target.read_text() == "old\n"
    assert list(tmp_path.iterdir()) == [target]


def test_two_snippets_at_one_fence_are_refused(build):
    data = build()
    group = data["files"]["docs/en/a.md"]["snippets"]
    group.append(dict(group[0], pair=None))
    with pytest.raises(mf.ManifestError, match="document order, one per fence"):
        mf.validate(data, "m.json")


def test_schema_1_is_read_into_the_same_inventory(config):
    from tests.support.manifest_helpers import schema1

    inv = pair_up(
        snippets_from_text("docs/en/a.md", DOC, config) + snippets_from_text("docs/zh/a.md", DOC + DOC, config),
        {"docs/en/a.md", "docs/zh/a.md"},
        config,
    )
    old = mf.parse(json.dumps(schema1(inv)), "base.json")
    again = mf.to_inventory(old)
    assert again.snippets == inv.snippets and again.pairs == inv.pairs and again.ids == inv.ids
    assert again.counterparts == inv.counterparts
    upgraded = mf.upgrade(old, config)
    mf.validate(upgraded, "upgraded")
    assert mf.dumps(upgraded) == mf.dumps(mf.build(inv, config))


@pytest.mark.parametrize("schema", [0, -1, "2"])
def test_an_unknown_schema_names_every_schema_this_version_reads(schema):
    with pytest.raises(mf.ManifestError) as raised:
        mf.parse(json.dumps({"schema": schema}), "m.json")
    assert f"from 1 to {mf.NEWEST}" in str(raised.value)
