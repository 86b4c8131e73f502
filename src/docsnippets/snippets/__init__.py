"""Markdown to snippet records: fences, classify, extract, then bilingual pairs."""
