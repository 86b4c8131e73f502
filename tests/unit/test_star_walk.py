"""The reference check's walk through ``from X import *``: each module's star imports resolved
once, cycles ended, and a bounded walk per question, counted in module resolutions."""

from __future__ import annotations

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
