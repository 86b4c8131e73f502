"""More pull requests built to exhaust a run, for ``pathological.py``'s bounds table: Markdown
whose parse is costly (markdown-it's own habits), code whose syntax trees are large, bodies
whose diffs or tokens are costly, and heads too large to hold.

Each shape is built with ``hostile_prs``'s helpers: one run of the real entrypoint, in stage
2 (the fake API serving the head) or stage 1 (the head checked out).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from hashlib import sha256
from pathlib import Path

from hostile_prs import BASE, Run, _pages, _stage1, _stage2
from tests.support.fake_github import FakeGitHub
from tests.support.scenario import HEAD_SHA, MANIFEST, REPO

MIB = 1024 * 1024
SNIPPET = "```python\nawait f()\n```\n\n"


def _filled(unit: str, size: int, head: str = SNIPPET) -> str:
    return head + unit * max(1, (size - len(head)) // len(unit))


def _either(tmp: Path, fake: FakeGitHub, stage: int, head: dict[str, str]) -> Run:
    return _stage2(tmp, fake, head) if stage == 2 else _stage1(tmp, fake, head)


def references(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """A link reference definition whose title is left open over 4.9 MiB of short lines."""
    page = _filled("x\n", int(4.9 * MIB * scale), SNIPPET + "[a]: /u '")
    return _either(tmp, fake, stage, {"docs/en/ref.md": page})


def lists(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """4.9 MiB of lines each opening lists nine deep: dozens of markdown-it tokens a line."""
    return _either(tmp, fake, stage, {"docs/en/lists.md": _filled("* * * * * * * * - \n", int(4.9 * MIB * scale))})


_MIXED = ["* * * * * * * * - \n", "> - " * 30 + "```python\n", "- a\n\n\n", "a\n===\n", "> a\nb\n", "[a]: /u\n"]


def mixed(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """Six distinct pages of costly block structure, together just under the parsed-bytes bound."""
    size = int(8 * MIB * scale / len(_MIXED)) - 4096
    return _either(tmp, fake, stage, {f"docs/en/mixed{k}.md": _filled(u, size) for k, u in enumerate(_MIXED)})


def newlines(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """A snippet and 4.9 MiB of empty lines: markdown-it keeps five numbers a line."""
    return _either(tmp, fake, stage, {"docs/en/lines.md": SNIPPET + "\n" * int(4.9 * MIB * scale)})


def held(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """90 pages of 4.9 MiB of prose (the archive holds 450 MB of Markdown without an example)
    and the page of empty lines, read before them."""
    prose = "Words and no code, line after line after line, page after page.\n"
    head = {f"docs/en/prose{k:02}.md": prose * int(4.9 * MIB * scale / len(prose)) + f"{k}\n" for k in range(90)}
    head["docs/en/lines.md"] = SNIPPET + "\n" * int(4.9 * MIB * scale)
    return _stage2(tmp, fake, head)


def dense(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """A module just under the code bound whose syntax tree is as large as trees get (a list of ones)."""
    module = "X = [" + "1," * int((1.5 * MIB - 64) * scale / 2) + "]\nasync def f1(x):\n    return x\n"
    page = "```python\nfrom pkg.big import f1, nothing\nawait f1(1)\n```\n"
    return _either(tmp, fake, stage, {"pkg/__init__.py": "", "pkg/big.py": module, "docs/en/api.md": page})


def module(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """One 20 MiB module of the head, imported by a snippet."""
    definition = "def f{}(a, b=1, *c, **d):\n    return a + b * (c[0] if c else 2)\n"
    body = "".join(definition.format(i) for i in range(int(20 * MIB * scale) // 64))
    page = "```python\nfrom pkg.big import f1, nothing\nawait f1(1)\n```\n"
    return _stage2(tmp, fake, {"pkg/__init__.py": "", "pkg/big.py": body, "docs/en/api.md": page})


def near(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """2,999 pages of 60 snippets, each one byte apart (no two are the same blob)."""
    pages = {f"docs/en/near{k:04}.md": _pages("copy", 60) + f"<!-- {k} -->\n" for k in range(int(2_999 * scale))}
    return _stage2(tmp, fake, pages)


def expressions(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """Bodies of one long line: a chain of 200,000 operands, 300,000 strings side by side."""
    chain = "await f(" + "+".join("a" for _ in range(int(200_000 * scale))) + ")\n"
    strings = "await f(" + " ".join("'s'" for _ in range(int(300_000 * scale))) + ")\n"
    return _stage2(tmp, fake, {"docs/en/exprs.md": "".join(f"```python\n{b}```\n\n" for b in (chain, strings) * 3)})


def repeated(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """A recorded body of one line 40,000 times, changed in its middle: the report diffs it."""
    n = int(40_000 * scale)
    old = "```python\n" + "await x()\n" * n + "```\n"
    new = "```python\n" + "await x()\n" * (n // 2) + "await y()\n" + "await x()\n" * (n // 2) + "```\n"
    recorded = {**BASE, "docs/en/long.md": old, "docs/zh/long.md": old}
    return _stage2(tmp, fake, {"docs/en/long.md": new, "docs/zh/long.md": old}, recorded=recorded)


def manifest(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """The PR commits a manifest of about 60 MiB recording 150,000 snippets of pages it does not hold."""
    files = {}
    for f in range(int(3_000 * scale)):
        path = f"docs/en/gone{f}.md"
        entries = []
        for k in range(50):
            body = f"await f{f}_{k}()\n"
            digest = sha256(body.encode()).hexdigest()
            entries.append(
                {
                    "id": "snip-" + sha256(f"{path}\0{digest}\0{0}".encode()).hexdigest()[:12],
                    "fence_lines": [3 * k + 1, 3 * k + 3],
                    "code_lines": [3 * k + 2, 3 * k + 2],
                    "info": "python",
                    "markers": ["await"],
                    "modules": [],
                    "status": "needs-async-wrapper",
                    "body": body,
                    "body_sha256": digest,
                    "pair": None,
                }
            )
        files[path] = {"counterpart": None, "snippets": entries}
    run = _stage1(tmp, fake, {}) if stage == 1 else _stage2(tmp, fake, {})
    recorded = json.loads((run.cwd / MANIFEST).read_text(encoding="utf-8"))
    text = json.dumps({**recorded, "files": {**recorded["files"], **files}}, indent=2)
    if stage == 1:
        (run.cwd / MANIFEST).write_text(text, encoding="utf-8")
    else:
        fake.repos[REPO].add_file(HEAD_SHA, MANIFEST, text)
    return run


SHAPES: dict[str, tuple[Callable[[Path, FakeGitHub, float, int], Run], int, str]] = {
    "references-5mib": (references, 2, "a reference title left open over 4.9 MiB of lines"),
    "lists-5mib": (lists, 2, "4.9 MiB of lines each opening lists nine deep"),
    "lists-5mib-stage1": (lists, 1, "the same page, stage 1 on its checkout"),
    "mixed-8mib": (mixed, 2, "six pages of costly block structure, just under 8 MiB"),
    "newlines-5mib": (newlines, 2, "a snippet and 4.9 MiB of empty lines"),
    "held-450mib": (held, 2, "450 MB of prose pages and the page of empty lines (archive)"),
    "dense-code": (dense, 2, "a module just under the code bound: a list of ones"),
    "dense-code-stage1": (dense, 1, "the same module, stage 1 on its checkout"),
    "module-20mib": (module, 2, "one 20 MiB module imported by a snippet"),
    "near-copies-2999": (near, 2, "2,999 pages of 60 snippets, each one byte apart"),
    "long-lines": (expressions, 2, "bodies of one line: 200,000 operands, 300,000 strings"),
    "repeated-lines": (repeated, 2, "a recorded body of one line 40,000 times, changed in the middle"),
    "manifest-60mib": (manifest, 1, "a committed manifest of 150,000 snippets of absent pages"),
}
