"""The shipped JSON Schema: what other tools see, what messages it yields, and the validator generated from it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.manifest_helpers import entry_objects
from tests.support.scripts import load_script

from docsnippets.manifest import build as mf
from docsnippets.manifest import schema_validator
from docsnippets.manifest import validate as manifest_validate

REPO = Path(__file__).resolve().parents[2]
gen_validator = load_script(".ci/gen_validator.py", "gen_validator")

DOC = "# x\n\n```python\nasync def f():\n    return await g()\n```\n"


@pytest.fixture
def data(inventory_of, config):
    return mf.build(inventory_of({"docs/en/a.md": DOC, "docs/zh/a.md": DOC}), config, "o/r", "c" * 40)


def _schema():
    return json.loads(manifest_validate.SCHEMA_FILE.read_text(encoding="utf-8"))


def test_the_schema_is_a_valid_draft_2020_12_schema_that_describes_what_build_writes(data):
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(_schema())
    assert _schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    # A plain validator, as an editor would use it, accepts a written manifest and rejects a broken one.
    plain = Draft202012Validator(_schema())
    assert list(plain.iter_errors(json.loads(mf.dumps(data)))) == []
    entry_objects(data)[0]["status"] = "fine"
    assert list(plain.iter_errors(data))


def test_the_schema_lists_every_status_and_relation():
    from docsnippets.constants import PAIR_RELATIONS, Status

    defs = _schema()["$defs"]
    assert defs["snippet"]["properties"]["status"]["enum"] == [str(s) for s in Status]
    assert defs["pair"]["properties"]["relation"]["enum"] == [str(r) for r in PAIR_RELATIONS]


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        (["files"], "'files'"),
        (["files", "docs/a.md", "snippets", 0, "body"], "files['docs/a.md'].snippets[0].body"),
        (["source", "commit"], "source.commit"),
        ([], "the top level"),
    ],
)
def test_json_paths_read_like_the_file(path, shown):
    assert manifest_validate.json_path(path) == shown


def test_a_float_line_number_is_refused(data):
    entry_objects(data)[0]["fence_lines"] = [1.0, 5]
    with pytest.raises(mf.ManifestError, match=r"fence_lines\[0\] 1\.0 must be a line number"):
        mf.parse(json.dumps(data), "m.json")


def test_a_long_value_is_cut_in_the_message(data):
    entry_objects(data)[0]["status"] = "x" * 500
    with pytest.raises(mf.ManifestError) as err:
        mf.parse(json.dumps(data), "m.json")
    assert "x" * 100 not in str(err.value) and "must be one of parses" in str(err.value)


def test_a_trailing_newline_in_the_commit_is_refused(data):
    data["source"]["commit"] = "abcdef1\n"
    with pytest.raises(mf.ManifestError, match="hex commit"):
        mf.parse(json.dumps(data), "m.json")


def test_the_committed_validator_is_what_the_schema_gives():
    done = subprocess.run(
        [sys.executable, str(REPO / ".ci" / "gen_validator.py"), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert gen_validator.generate() == gen_validator.TARGET.read_text(encoding="utf-8")


def test_a_schema_edit_without_regenerating_is_caught(tmp_path, monkeypatch):
    schema = json.loads(gen_validator.SCHEMA.read_text(encoding="utf-8"))
    schema["$defs"]["line"]["minimum"] = 0
    edited = tmp_path / "schema.json"
    edited.write_text(json.dumps(schema), encoding="utf-8")
    monkeypatch.setattr(gen_validator, "SCHEMA", edited)
    assert gen_validator.main(["--check"]) == 1
    monkeypatch.setattr(gen_validator, "TARGET", tmp_path / "out.py")
    assert gen_validator.main([]) == 0 and gen_validator.main(["--check"]) == 0
    assert "< 0" in (tmp_path / "out.py").read_text(encoding="utf-8")


def test_the_generated_validator_imports_no_schema_library():
    code = (
        "import sys; import docsnippets.manifest.validate; "
        "print(sorted(m for m in ('jsonschema', 'fastjsonschema') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _mutations(data):
    """Broken copies of a written manifest, one per rule the schema states."""
    yield {**data, "files": []}
    yield {**data, "files": {"../x.md": next(iter(data["files"].values()))}}
    for field, value in [
        ("id", "snip-XYZ"),
        ("fence_lines", [1]),
        ("code_lines", [0, 2]),
        ("status", "fine"),
        ("body_sha256", "A" * 64),
        ("markers", [1]),
        ("pair", {"id": "p"}),
        ("status_line", True),
    ]:
        broken = json.loads(mf.dumps(data))
        entry_objects(broken)[0][field] = value
        yield broken


def test_the_inlined_schema_the_generator_uses_says_what_the_file_says(data):
    from jsonschema import Draft202012Validator

    flat = gen_validator.inline_refs(_schema(), _schema()["$defs"])
    assert "$ref" not in json.dumps(flat) and "$defs" not in flat
    Draft202012Validator.check_schema(flat)
    plain, inlined = Draft202012Validator(_schema()), Draft202012Validator(flat)
    assert inlined.is_valid(json.loads(mf.dumps(data)))
    for broken in _mutations(data):
        want = [(list(e.absolute_path), e.validator) for e in plain.iter_errors(broken)]
        assert want and [(list(e.absolute_path), e.validator) for e in inlined.iter_errors(broken)] == want


def test_the_generated_validator_agrees_with_jsonschema(data):
    """Same verdict as a reference implementation, and the first error is one jsonschema names too."""
    from jsonschema import Draft202012Validator

    plain = Draft202012Validator(_schema())
    schema_validator.validate(json.loads(mf.dumps(data)))
    for broken in _mutations(data):
        want = {
            (tuple(e.absolute_path), "propertyNames" if "propertyNames" in e.schema_path else e.validator)
            for e in plain.iter_errors(broken)
        }
        with pytest.raises(schema_validator.SchemaViolation) as raised:
            schema_validator.validate(broken)
        assert (tuple(raised.value.path), raised.value.rule) in want


def test_a_ref_beside_other_keywords_keeps_both():
    flat = gen_validator.inline_refs({"$ref": "#/$defs/n", "maximum": 3}, {"n": {"type": "integer"}})
    assert flat == {"maximum": 3, "allOf": [{"type": "integer"}]}
