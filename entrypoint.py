"""Container entry: with arguments it is the CLI, without them the GitHub Action."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "src"))

from docsnippets.action import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
