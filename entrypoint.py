"""Container entry: with arguments it is the CLI (``docker run IMAGE check``), without them the
GitHub Action, configured by the runner's environment."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "src"))


def main(argv: list[str]) -> int:
    if argv:
        from docsnippets.cli import main as cli

        return cli(argv)
    from docsnippets.github.action import main as action

    return action()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
