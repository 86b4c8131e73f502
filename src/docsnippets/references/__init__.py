"""Snippets checked against the code of the repository they document, read with ast."""
