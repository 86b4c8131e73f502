"""README's sample comment, regenerated from the real Slime change (44d29ee59 -> 624b824a8).

The author is taken to have forgotten the manifest: the branch still carries the base's, so
the comment shows what the PR changed and that the manifest is stale. Reads ../shared.

    python bench/sample_comment.py            # print the comment
    python bench/sample_comment.py --readme   # write it into README.md's "A sample comment"

In the README the comment is quoted (each line behind ``> ``), so that it shows there as the
pull request shows it, set apart from the page around it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from docsnippets.config import Config
from docsnippets.judge.compare import compare
from docsnippets.judge.inventory import whole
from docsnippets.manifest import build as mf
from docsnippets.report import render
from docsnippets.sources.worktree import WorkTree

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
REPO = "THUDM/slime"
BASE_SHA = "44d29ee59dfa1489c369937779cbbdb1798ce701"
HEAD_SHA = "624b824a898ab0ec1fcb4d373004c7f3852bf515"
MARKER = "<!-- docsnippets:sticky-comment -->"


def slime_comment(base: Path, head: Path) -> str:
    config = Config()
    recorded = mf.to_inventory(mf.build(whole(WorkTree(base), config)[0], config, REPO, BASE_SHA))
    current = whole(WorkTree(head), config)[0]
    report = compare(recorded, current)
    ctx = render.CommentContext(
        marker=MARKER,
        links=render.Links("https://github.com", REPO, HEAD_SHA),
        changes=report,
        inventory=current,
    )
    return render.comment(report, ctx)


BEGIN = "<!-- sample comment: written by python bench/sample_comment.py --readme -->\n"
END = "<!-- end of the sample comment -->\n"


def quoted(comment: str) -> str:
    """The comment as a Markdown block quote: every line behind ``> `` (an empty one: ``>``)."""
    return "".join(f"> {line}\n" if line else ">\n" for line in comment.removesuffix("\n").split("\n"))


def into_readme(readme: str, comment: str) -> str:
    """The README with the quoted sample between its two marker lines replaced."""
    start = readme.find(BEGIN)
    end = readme.find(END, start + len(BEGIN)) if start >= 0 else -1
    if start < 0 or end < 0:
        raise SystemExit(f"README.md: no sample comment between {BEGIN.strip()!r} and {END.strip()!r}")
    return readme[: start + len(BEGIN)] + quoted(comment) + readme[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readme", action="store_true", help="write the sample into README.md")
    args = parser.parse_args(argv)
    base, head = CORPUS / "slime-docs-44d29ee59", CORPUS / "slime-docs-624b824a8"
    if not base.is_dir() or not head.is_dir():
        print(f"sample_comment: {CORPUS} is absent; it needs the Slime corpus", file=sys.stderr)
        return 2
    comment = slime_comment(base, head)
    if args.readme:
        readme = ROOT / "README.md"
        readme.write_text(into_readme(readme.read_text(encoding="utf-8"), comment), encoding="utf-8")
    else:
        sys.stdout.write(comment)
    return 0


if __name__ == "__main__":
    sys.exit(main())
