"""The judge: one pure function from a tree, its manifests and a change to a verdict.

``snippets`` (fences → classify → extract → pairs) → ``manifest`` → ``judge`` → ``report``:
this package compares inventories (compare.py), finds the pairs a change lost (lost.py), runs
the code check (code.py), sets apart what a change's base already held out of sync or broken
(debts.py), and builds the verdict (verdict.py), all from :func:`judge`.
"""

from docsnippets.judge.judgement import Base, Case, Judgement, Scope, judge

__all__ = ["Base", "Case", "Judgement", "Scope", "judge"]
