"""The command line: ``docsnippets update | check | diff | render | merge-driver``."""

import gc

from docsnippets.cli.commands import build_parser, main

# A command runs once in a short-lived process. The objects its imports made (modules,
# classes, functions) live until exit, yet every full collection during the run would walk
# them all again; moving them out of the collector's generations keeps those passes to what
# the run itself allocates.
gc.freeze()

__all__ = ["build_parser", "main"]
