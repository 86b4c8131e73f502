"""What ``init`` found, said before what it set up: that there is nothing to check yet, or that
examples exist and none pairs with its translation, with the evidence and the config that
would pair them. Setting up a gate that checks nothing must never look like success."""

from __future__ import annotations

from collections.abc import Sequence

from docsnippets.config import Config
from docsnippets.snippets.layouts import hints, rules_yaml
from docsnippets.snippets.records import Inventory

# At most this many suggested rules are shown: past a few, names are noise, not evidence.
MAX_HINTS = 3


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def nothing_to_check(inventory: Inventory, markdown_files: int) -> str | None:
    if inventory.snippets:
        return None
    return f"found 0 async examples in {markdown_files} Markdown files; nothing will be checked until one appears"


def unpaired(inventory: Inventory, markdown: Sequence[str], config: Config) -> tuple[str, ...]:
    """Lines saying that no example pairs, why, and what would pair them; none when one does."""
    if not inventory.snippets or any(other is not None for _, other in inventory.counterparts):
        return ()
    pages = len({s.file for s in inventory.snippets})
    rules = "; ".join(f"{rule.en} <-> {rule.zh}" for rule in config.pair_rules) or "none"
    lines = [
        f"{_count(len(inventory.snippets), 'async example')} in {_count(pages, 'Markdown file')}, none paired: "
        "no file has a "
        f"counterpart under the pair rules {rules}"
    ]
    found = hints(markdown, config.pair_rules)[:MAX_HINTS]
    for layout, (en, zh) in found:
        count = "one file pair" if layout.pairs == 1 else f"{layout.pairs} file pairs"
        lines.append(
            f"the names suggest {layout.rule.en} <-> {layout.rule.zh} ({en} and {zh}: {count}, too few to "
            "settle on); if that is the layout, add this to .docsnippets.yml:"
        )
        lines += rules_yaml([layout.rule]).splitlines()
    if not found:
        lines.append("no file names suggest a layout; write pair_rules in .docsnippets.yml (docs/cli.md)")
    return tuple(lines)
