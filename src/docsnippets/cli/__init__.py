"""The command line: ``docsnippets update | check | diff | render | merge-driver``."""

from docsnippets.cli.commands import build_parser, main

__all__ = ["build_parser", "main"]
