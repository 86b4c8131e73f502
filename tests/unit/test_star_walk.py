"""The reference check's walk through ``from X import *``: each module's star imports resolved
once, cycles ended, and a bounded walk per question, counted in module resolutions."""

from __future__ import annotations

import importlib

from tests.support.memory import MemoryTree

from docsnippets.config import Config
from docsnippets.judge import Case, judge
from docsnippets.references import resolve


def _web(n: int, *, everyone: bool) -> dict[str, str]:
    """``n`` modules of a package star-importing each other: all of them, or the next in a ring."""
    files = {"pkg/__init__.py": ""}
    for i in range(n):
        others = [j for j in range(n) if j != i] if everyone else [(i + 1) % n]
        files[f"pkg/m{i}.py"] = (
            "".join(f"from pkg.m{j} import *\n" for j in others) + f"\nasync def f{i}(x):\n    return x\n"
        )
    return files


def _pages(n: int, snippets: int) -> str:
    return "".join(
        f"```python\nfrom pkg.m{k % n} import f{(k * 7) % n}, nothere{k}\nawait f{(k * 7) % n}(1, 2)\n```\n\n"
        for k in range(snippets)
    )


def _judged(files: dict[str, str], monkeypatch) -> tuple[list[str], int]:
    resolutions = 0
    real = resolve.ModuleIndex.module

    def counting(self, dotted):
        nonlocal resolutions
        resolutions += 1
        return real(self, dotted)

    monkeypatch.setattr(resolve.ModuleIndex, "module", counting)
    found = judge(Case(MemoryTree(files), Config(), None))
    return sorted(b.reason for _, b in found.freshness.broken_references), resolutions


def test_modules_star_importing_each_other_are_walked_in_bounded_steps(monkeypatch):
    n = 60  # 3,540 star imports: walking all of them for every name asked is n**3 resolutions
    reasons, resolutions = _judged({**_web(n, everyone=True), "docs/en/a.md": _pages(n, n)}, monkeypatch)
    assert resolutions <= 10 * n * n, resolutions
    # Whatever is judged is true: no name a module binds is said to be missing.
    assert not any(f"defines no name f{i}" in r for r in reasons for i in range(n))


def test_a_ring_of_star_imports_is_followed_all_the_way_round(monkeypatch):
    n = 12
    reasons, _ = _judged({**_web(n, everyone=False), "docs/en/a.md": _pages(n, n)}, monkeypatch)
    missing = [r for r in reasons if "defines no name" in r]
    assert sorted(missing) == sorted(f"pkg.m{k} defines no name nothere{k}" for k in range(n))
    calls = [r for r in reasons if "positional" in r]
    assert len(calls) == n  # each f is found round the ring, and called with one argument too many


def _steps(monkeypatch) -> list[int]:
    """How many star imports the walks follow: each module's targets, counted as they are read."""
    from docsnippets.references import namespaces

    steps = [0]

    class Followed(tuple):
        def __iter__(self):
            for target in super().__iter__():
                steps[0] += 1
                yield target

    for owner, name in ((resolve.ModuleIndex, "star_targets"), (namespaces.Namespaces, "_star_targets")):
        real = getattr(owner, name)
        monkeypatch.setattr(owner, name, lambda self, *args, real=real: Followed(real(self, *args)))
    return steps


def test_one_question_follows_at_most_max_star_steps(monkeypatch):
    """In a web of modules that all star-import each other, a name none of them binds is
    looked for through every star import of every module: n * n steps a question, unless
    the walk stops at MAX_STAR_STEPS."""
    n = 60
    monkeypatch.setattr(resolve, "MAX_STAR_STEPS", 100)
    from docsnippets.references import namespaces

    monkeypatch.setattr(namespaces, "MAX_STAR_STEPS", 100)
    steps = _steps(monkeypatch)
    found = judge(Case(MemoryTree({**_web(n, everyone=True), "docs/en/a.md": _pages(n, n)}), Config(), None))
    questions = 3 * n  # per snippet: two imported names, one call
    assert steps[0] <= questions * (100 + n), steps[0]
    reasons = [b.reason for _, b in found.freshness.broken_references]
    assert not any(f"defines no name f{i}" in r for r in reasons for i in range(n))


def test_a_walk_that_stops_says_so_and_finds_nothing_it_did_not_reach(monkeypatch):
    """A ring of 12 modules, each star-importing the next; f11 is defined eleven star imports
    from pkg.m0. With the walk stopped after five, whether pkg.m0 binds f11 and what it is
    are not judged: no finding either way, and one notice naming the module."""
    for module in (resolve, importlib.import_module("docsnippets.references.namespaces")):
        monkeypatch.setattr(module, "MAX_STAR_STEPS", 5)
    page = "```python\nfrom pkg.m0 import f11\nawait f11(1, 2)\n```\n"
    found = judge(Case(MemoryTree({**_web(12, everyone=False), "docs/en/a.md": page}), Config(), None))
    assert found.freshness.broken_references == ()
    (notice,) = [n for n in found.freshness.notices if "star imports" in n]
    assert "pkg.m0" in notice and "5" in notice and "not judged" in notice


def test_the_notice_counts_the_other_modules_whose_walk_stopped(monkeypatch):
    """Two walks stopped (from pkg.m0 and from pkg.m1, each eleven star imports from the name):
    the notice names the first module and counts the other in the right number."""
    for module in (resolve, importlib.import_module("docsnippets.references.namespaces")):
        monkeypatch.setattr(module, "MAX_STAR_STEPS", 5)
    page = "```python\nfrom pkg.m0 import f11\nfrom pkg.m1 import f0\nawait f11(1)\n```\n"
    found = judge(Case(MemoryTree({**_web(12, everyone=False), "docs/en/a.md": page}), Config(), None))
    (notice,) = [n for n in found.freshness.notices if "star imports" in n]
    assert notice.startswith("pkg.m0 (and 1 other module): "), notice
