"""What ``init`` found, said before what it set up: that there is nothing to check yet, or that
examples exist and none pairs with its translation, with the evidence and the config that
would pair them. Setting up a gate that checks nothing must never look like success."""

from __future__ import annotations

from collections.abc import Sequence

from docsnippets.config import Config
from docsnippets.snippets.layouts import hints, rules_yaml
from docsnippets.snippets.records import Inventory
from docsnippets.words import counted

# At most this many suggested rules are shown: past a few, names are noise, not evidence.
MAX_HINTS = 3


def nothing_to_check(inventory: Inventory, markdown_files: int) -> str | None:
    if inventory.snippets:
        return None
    return f"found 0 async examples in {markdown_files} Markdown files; nothing will be checked until one appears"


def unpaired(inventory: Inventory, markdown: Sequence[str], config: Config) -> tuple[str, ...]:
    """Lines saying that no example pairs, why, and what would pair them; none when one does."""
    if not inventory.snippets or any(other is not None for _, other in inventory.counterparts):
        return ()
    pages = len({s.file for s in inventory.snippets})
    shown = (" <-> ".join(template for _, template in rule.templates) for rule in config.page_rules)
    rules = "; ".join(shown) or "none"
    lines = [
        f"{counted(len(inventory.snippets), 'async example')} in {counted(pages, 'Markdown file')}, none paired: "
        f"none of these files has a counterpart under the pair rules {rules}"
    ]
    paired = paired_files(markdown, config)
    if paired:
        # The rules fit the tree: the pages with examples are simply written in one language,
        # and asking for other rules would send the user to break a layout that is right.
        lines.append(
            f"the pair rules pair {counted(paired, 'other file')}, none with an async example: the pages with "
            "examples are untranslated (`docsnippets check` lists them; never a failure)"
        )
    # The hints are pair rules: under translations the setting to edit is that one.
    found = hints(markdown, config.pair_rules)[:MAX_HINTS] if config.translations is None else []
    for layout, (en, zh) in found:
        count = "one file pair" if layout.pairs == 1 else f"{layout.pairs} file pairs"
        lines.append(
            f"the names suggest {layout.rule.en} <-> {layout.rule.zh} ({en} and {zh}: {count}, too few to "
            "settle on); if that is the layout, add this to .docsnippets.yml:"
        )
        lines += rules_yaml([layout.rule]).splitlines()
    if not found and not paired:
        setting = "pair_rules" if config.translations is None else "translations"
        lines.append(f"no file names suggest a layout; write {setting} in .docsnippets.yml (docs/cli.md)")
    return tuple(lines)


def paired_files(markdown: Sequence[str], config: Config) -> int:
    """How many of the Markdown files have a counterpart that exists under the configured rules."""
    present = set(markdown)
    return sum(1 for path in markdown if any(other in present for _, _, other in config.counterparts(path)))
