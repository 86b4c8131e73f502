import pytest
from tests.support.manifest_helpers import entry_objects

from docsnippets.config import Config, PairRule
from docsnippets.snippets.extract import snippets_from_text
from docsnippets.snippets.pairs import align, file_pairs, pair_up


def fence(code: str) -> str:
    return f"```python\n{code}```\n\n"


def test_default_file_rules(config):
    files = {
        "docs/en/a.md",
        "docs/zh/a.md",
        "README.md",
        "README_zh.md",
        "x/y.md",
        "docs/en/only.md",
    }
    pairs = file_pairs(files, config)
    assert pairs["docs/en/a.md"] == ("docs/en/a.md", "docs/zh/a.md")
    assert pairs["docs/zh/a.md"] == ("docs/en/a.md", "docs/zh/a.md")
    assert pairs["README_zh.md"] == ("README.md", "README_zh.md")
    assert "x/y.md" not in pairs and "docs/en/only.md" not in pairs


def test_custom_rules_fall_through_to_an_existing_counterpart():
    cfg = Config(
        pair_rules=(
            PairRule("en/{path}", "zh-CN/{path}"),
            PairRule("{dir}{name}.md", "{dir}{name}.zh.md"),
        )
    )
    pairs = file_pairs({"en/a.md", "zh-CN/a.md", "en/b.md", "en/b.zh.md"}, cfg)
    assert pairs["en/a.md"] == ("en/a.md", "zh-CN/a.md")
    assert pairs["en/b.md"] == ("en/b.md", "en/b.zh.md")


def test_alignment_survives_an_insertion():
    left = ["aaaa", "bbbb", "cccc"]
    right = ["aaaa", "zzzz", "bbbb", "cccc"]
    score = lambda a, b: 1.0 if a == b else 0.0  # noqa: E731
    assert align(left, right, score) == [(0, 0), (1, 2), (2, 3)]


@pytest.fixture
def inventory(inventory_of):
    """`inventory(en, zh)`: the inventory of one English page and its Chinese counterpart."""
    return lambda en, zh: inventory_of({"docs/en/p.md": en, "docs/zh/p.md": zh})


A = "async def alpha(x):\n    # first\n    return await fetch(x, 1)\n"
B = "async def beta(y):\n    return await store(y, 'k', 2)\n"
C = "import asyncio\nasyncio.run(main())\n"


def test_relations(inventory):
    inv = inventory(
        fence(A) + fence("  " + B.replace("\n    ", "\n      ")) + fence(C),
        fence(A.replace("# first", "# 第一")) + fence(B) + fence(C.replace("main()", "other()")),
    )
    rel = [p.relation for p in inv.pairs]
    assert rel == ["comments", "indentation", "diverged"]


NESTED = "async def main():\n    async with lock:\n        await step()\n        await done()  # {c}\n"
UNNESTED = "async def main():\n    async with lock:\n        await step()\n    await done()  # {c}\n"
SAID = 'async def main():\n    async with lock:\n        await say("{s}")\n        await done()\n'
UNSAID = 'async def main():\n    async with lock:\n        await say("{s}")\n    await done()\n'


@pytest.mark.parametrize(
    ("en", "zh", "expected"),
    [
        (NESTED.format(c="done"), NESTED.format(c="完成"), "comments"),
        (NESTED.format(c="done"), UNNESTED.format(c="完成"), "diverged"),
        (SAID.format(s="Hello, world"), SAID.format(s="你好，世界"), "strings"),
        (SAID.format(s="Hello, world"), UNSAID.format(s="你好，世界"), "diverged"),
    ],
    ids=["comments", "comments and a line out of its block", "strings", "strings and a line out of its block"],
)
def test_a_line_moved_out_of_its_block_is_other_code(inventory, en, zh, expected):
    """Python's blocks are its syntax: the same tokens at another depth run at another time."""
    [pair] = inventory(fence(en), fence(zh)).pairs
    assert pair.relation == expected


@pytest.mark.parametrize(
    ("en", "zh", "expected"),
    [
        ("if ready: await go()\n", "if ready:  # 就绪\n    await go()\n", "comments"),
        (
            "while x: await go()\nelse: await stop()\n",
            "while x:\n    await go()\nelse:\n    await stop()\n",
            "comments",
        ),
        ("match x:\n    case 1: await go()\n", "match x:\n    case 1:\n        await go()  # 走\n", "comments"),
        ('async def go():\n    "Go."\n', 'async def go(): "走。"\n', "comments"),
        (
            "async with lock: await go()\nawait done()\n",
            "async with lock:\n    await go()\n    await done()\n",
            "diverged",
        ),
    ],
    ids=["if", "while-else", "case", "docstring", "a line moved into the block"],
)
def test_a_simple_statement_on_its_headers_line_is_in_its_block(inventory, en, zh, expected):
    """``if x: y`` and ``y`` on the next line, indented, are one program: layout, not code."""
    [pair] = inventory(fence(en), fence(zh)).pairs
    assert pair.relation == expected


@pytest.mark.parametrize(
    ("en", "zh"),
    [
        ("await start()\nawait stop()\n", "await start() await stop()  # 一行\n"),
        ("total = await count()\n-1\n", "total = await count() -1  # 减一\n"),
        ('await say("Hi")\nawait stop()\n', 'await say("你好") await stop()\n'),
    ],
    ids=["two statements joined", "a statement that became an operand", "strings"],
)
def test_where_a_statement_ends_is_code(inventory, en, zh):
    """The same tokens as one statement or two are other code (one of them may not even compile)."""
    [pair] = inventory(fence(en), fence(zh)).pairs
    assert pair.relation == "diverged"


def test_a_translated_f_string_may_move_its_placeholder(inventory):
    """Python 3.12 splits an f-string into tokens, as many as its text and fields make: a
    translation that puts the field first has fewer, and is still only a translation."""
    en = 'async def main(name):\n    async with lock:\n        await say(f"Hello, {name}!")\n'
    zh = 'async def main(name):\n    async with lock:\n        await say(f"{name}，你好")\n'
    [pair] = inventory(fence(en), fence(zh)).pairs
    assert pair.relation == "strings"


def test_inserted_example_does_not_shift_pairs_and_is_missing(inventory):
    inv = inventory(fence(A) + fence(B) + fence(C), fence(A) + fence(C))
    assert [p.relation for p in inv.pairs] == ["identical", "identical"]
    missing = [inv.snippets[i] for i in inv.missing()]
    assert [s.body for s in missing] == [B]


def test_counterpart_without_snippets_makes_missing(config):
    snippets = snippets_from_text("docs/en/p.md", fence(A), config)
    inv = pair_up(snippets, {"docs/en/p.md", "docs/zh/p.md"}, config)
    assert inv.missing() == [0]
    inv = pair_up(snippets, {"docs/en/p.md"}, config)
    assert inv.missing() == []


def test_a_partial_check_aligns_only_the_touched_file_pairs(config, make_tree, monkeypatch):
    """--changed costs what the change costs: untouched file pairs keep the manifest's pairs."""
    from tests.support import judging

    from docsnippets.judge.compare import limit_desync
    from docsnippets.snippets import grammar

    def page(n: int, comment: str, arg: int) -> str:
        return fence(f"async def a{n}():\n    await x()  # {comment}\n") + fence(f"await y{n}({arg})\n")

    files = {}
    for n in range(3):
        files[f"docs/en/p{n}.md"] = page(n, "one", 1)
        files[f"docs/zh/p{n}.md"] = page(n, "一", 2)
    files["docs/en/alone.md"] = fence("await alone()\n")
    files["docs/zh/alone.md"] = "no code here\n"
    root = make_tree(files).resolve()
    manifest = root / "m.json"
    judging.update(root, config, manifest, repository=None, commit=None)
    edited = "docs/zh/p1.md"
    (root / edited).write_text(page(1, "一", 3), encoding="utf-8")

    seen: list[str] = []
    python = grammar.judge(config.python)

    class Recording:  # every body the declared Python is asked about
        version = python.version
        identity = python.identity

        def prepare(self) -> None:
            python.prepare()

        def facts(self, body: str, modules: tuple[str, ...]) -> grammar.Facts:
            seen.append(body)
            return python.facts(body, modules)

        def comparable(self, body: str) -> grammar.Comparable:
            seen.append(body)
            return python.comparable(body)

    recording = Recording()
    monkeypatch.setattr(grammar, "judge", lambda version: recording)
    partial = judging.check(root, config, manifest, changed=[edited])
    assert seen and all("a1()" in body or "y1(" in body for body in seen), seen
    monkeypatch.undo()
    full = judging.check(root, config, manifest)
    assert partial.freshness == limit_desync(full.freshness, partial.touched)
    assert partial.inventory.pairs == full.inventory.pairs
    assert [p.relation for p in full.inventory.pairs] == ["comments", "diverged"] * 3
    assert not partial.freshness.fresh


@pytest.mark.parametrize(("relation", "caught"), [("identical", True), ("indentation", True), ("comments", False)])
def test_a_partial_check_does_not_take_an_impossible_relation_on_trust(config, make_tree, relation, caught):
    """A relation the bodies contradict makes the pair be aligned again (and the check stale).

    ``comments`` against ``diverged`` cannot be told without tokenizing, so that one edit is
    taken on trust by --changed, like every other entry of an untouched file; a full check
    (and the Action, whenever a PR touches the manifest) still catches it.
    """
    import json

    from tests.support import judging

    files = {
        "docs/en/a.md": fence("await a(1)\n"),
        "docs/zh/a.md": fence("await a(2)\n"),
        "docs/en/b.md": fence("await b()\n"),
        "docs/zh/b.md": fence("await b()\n"),
    }
    root = make_tree(files).resolve()
    manifest = root / "m.json"
    judging.update(root, config, manifest, repository=None, commit=None)
    data = json.loads(manifest.read_text(encoding="utf-8"))
    members = [e for e in entry_objects(data) if e["pair"] and e["pair"]["relation"] == "diverged"]
    assert len(members) == 2
    for entry in members:
        entry["pair"]["relation"] = relation
    manifest.write_text(json.dumps(data), encoding="utf-8")
    assert not judging.check(root, config, manifest).freshness.fresh
    partial = judging.check(root, config, manifest, changed=["docs/en/b.md"])
    assert partial.freshness.fresh is not caught


def test_exact_matching_stops_when_the_file_pairs_budget_is_spent(config):
    from docsnippets.snippets.grammar import judge
    from docsnippets.snippets.pairs import Budget, similarity

    python = judge(config.python)
    (a,) = snippets_from_text("a.md", fence("await f()\n" + "x = 1\ny = 2\n" * 20), config)
    (b,) = snippets_from_text("b.md", fence("await f()\n" + "y = 2\nx = 1\n" * 20), config)
    exact = similarity(a, b, python)
    budget = Budget()
    assert similarity(a, b, python, budget) == exact < 1.0
    assert budget.cells < Budget().cells
    spent = Budget(0)
    assert similarity(a, b, python, spent) == 1.0  # the multiset bound: same lines, other order
