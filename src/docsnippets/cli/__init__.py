"""The command line: ``docsnippets update | check | diff | render | merge-driver``."""

import gc

# A command runs once in a short-lived process. Parsing allocates many small objects that all
# live until the end of their file; collecting them every 700 allocations (the default) only
# walks them again and again. A larger first generation keeps collections rare while still
# bounding what cyclic garbage can pile up between two of them.
gc.set_threshold(20_000, 10, 10)

from docsnippets.cli.commands import build_parser, main, run  # noqa: E402  (after the collector is set)

# The objects the imports made (modules, classes, functions) live until exit, yet every full
# collection during the run would walk them all again; moving them out of the collector's
# generations keeps those passes to what the run itself allocates.
gc.freeze()

__all__ = ["build_parser", "main", "run"]
