"""Adopting docsnippets in a repository: ``docsnippets init`` and the files it writes."""
