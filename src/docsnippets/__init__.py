"""docsnippets: a manifest of async Python examples in bilingual Markdown."""

__version__ = "0.1.0"
