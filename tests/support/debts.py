"""A small bilingual repository whose base already holds debts: a diverged pair and a broken
call, on the same page, in both languages. A change either leaves them as they were (it may
touch the page: prose, a comment, lines shifted) or makes one of them worse."""

from __future__ import annotations

CODE: dict[str, str | bytes] = {
    "pkg/__init__.py": "",
    "pkg/api.py": "async def fetch(url, *, retries):\n    return url\n",
}

DIVERGED = 'from pkg.api import fetch\n\nasync def main():\n    await fetch("a", retries={n}){note}\n'
BROKEN = 'from pkg.api import fetch\n\nasync def other():\n    await fetch("b"){more}\n'
NEW_BROKEN = '\n    await fetch("c", retry=1)'


def page(title: str, n: int, *, prose: str = "", note: str = "", more: str = "") -> str:
    """A guide page: the example that diverges between the languages (``retries={n}``), then
    the one whose call misses its required keyword (``retries``)."""
    return (
        f"# {title}\n\n{prose}Run it:\n\n```python\n{DIVERGED.format(n=n, note=note)}```\n\n"
        f"Another one:\n\n```python\n{BROKEN.format(more=more)}```\n"
    )


BASE: dict[str, str | bytes] = {
    **CODE,
    "docs/en/guide.md": page("Guide", 3),
    "docs/zh/guide.md": page("指南", 5),
}

# The change touches the page holding both debts and makes neither worse: prose added above
# (every line shifts), a comment on the diverged line, the Chinese prose reworded.
TOUCHED: dict[str, str | bytes] = {
    **CODE,
    "docs/en/guide.md": page("Guide", 3, prose="A new paragraph.\n\nAnd another.\n\n", note="  # three tries"),
    "docs/zh/guide.md": page("指南", 5, prose="新的一段。\n\n"),
}

# Worse: the English side's code changed and the pair still differs, differently.
WORSE_DESYNC: dict[str, str | bytes] = {**TOUCHED, "docs/en/guide.md": page("Guide", 4)}

# Worse: a second broken call, in both languages (the pair stays as it was).
WORSE_CALL: dict[str, str | bytes] = {
    **CODE,
    "docs/en/guide.md": page("Guide", 3, more=NEW_BROKEN),
    "docs/zh/guide.md": page("指南", 5, more=NEW_BROKEN),
}

# Worse without a new finding's kind: the old broken call fixed, the same mistake written on
# another line of the same example (the count of findings alike stays the same).
REBROKEN: dict[str, str | bytes] = {
    **CODE,
    **{
        path: str(text).replace('await fetch("b")', 'await fetch("b", retries=1)\n    await fetch("c")')
        for path, text in BASE.items()
        if path.endswith(".md")
    },
}

# Worse: the example that was broken copied, as a new example, on both pages.
COPIED: dict[str, str | bytes] = {
    **CODE,
    **{
        path: str(text) + f"\nOnce more:\n\n```python\n{BROKEN.format(more='')}```\n"
        for path, text in BASE.items()
        if path.endswith(".md")
    },
}

# The English page renamed, the Chinese one kept: the pair holding the old debts is lost.
RENAMED_ONE_SIDE: dict[str, str | bytes] = {
    **{p: t for p, t in BASE.items() if p != "docs/en/guide.md"},
    "docs/en/guide-renamed.md": BASE["docs/en/guide.md"],
}

# Both pages renamed alike: the debts move with them and stay the old ones.
RENAMED_BOTH: dict[str, str | bytes] = {
    **CODE,
    "docs/en/howto.md": BASE["docs/en/guide.md"],
    "docs/zh/howto.md": BASE["docs/zh/guide.md"],
}
