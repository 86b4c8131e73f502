from docsnippets.judge.compare import compare

A = "async def alpha(x):\n    return await fetch(x, 1)\n"
B = "async def beta(y):\n    value = compute(y)\n    return await store(y, 'k', value)\n"


def doc(*bodies: str, lead: int = 0) -> str:
    return "\n" * lead + "".join(f"```python\n{b}```\n\n" for b in bodies)


def test_same_tree_is_fresh(inventory_of):
    a = inventory_of({"x.md": doc(A, B)})
    r = compare(a, a)
    assert r.fresh and not (r.added or r.removed or r.changed or r.moved)


def test_edit_in_place_is_changed_not_added_removed(inventory_of):
    before = inventory_of({"x.md": doc(A, B)})
    after = inventory_of({"x.md": doc(A, B.replace("'k'", "'key'"))})
    r = compare(before, after)
    assert not r.fresh
    assert len(r.changed) == 1 and not r.added and not r.removed
    assert r.changed[0].before.body == B


def test_moved_is_fresh_unless_strict(inventory_of):
    before = inventory_of({"x.md": doc(A, B)})
    after = inventory_of({"x.md": doc(A, B, lead=3)})
    r = compare(before, after)
    assert r.fresh and len(r.moved) == 2
    assert not compare(before, after, strict_lines=True).fresh


def test_added_and_removed(inventory_of):
    before = inventory_of({"x.md": doc(A)})
    after = inventory_of({"x.md": doc("import threading\nthreading.Thread(target=f).start()\n")})
    r = compare(before, after)
    assert len(r.added) == 1 and len(r.removed) == 1 and not r.changed


def test_rename_is_a_move_and_stale_with_or_without_strict_lines(inventory_of):
    for strict in (False, True):
        r = compare(inventory_of({"old.md": doc(A)}), inventory_of({"new.md": doc(A)}), strict_lines=strict)
        assert not r.fresh and len(r.moved) == 1 and r.moved[0].after.file == "new.md"
        assert r.reasons == ("1 snippet moved to another file: old.md → new.md",)
        assert r.moved[0].before_id != r.moved[0].after_id  # the id names the file


def test_a_renamed_tree_is_one_reason_not_one_per_page(inventory_of):
    pages = {f"docs/en-us/p{n}.md": doc(A.replace("1)", f"{n})")) for n in range(4)}
    pages["other/x.md"] = doc(B)
    after = {k.replace("docs/en-us/", "docs/en/"): v for k, v in pages.items()}
    r = compare(inventory_of(pages), inventory_of(after))
    assert r.reasons == ("4 snippets moved to 4 other files: docs/en-us/ → docs/en/",)


def test_ids_do_not_depend_on_position(inventory_of):
    before = inventory_of({"x.md": doc(A, B), "y.md": doc(B)})
    after = inventory_of({"x.md": doc(B.replace("'k'", "'kk'"), A, B, lead=5), "y.md": doc(B)})
    old, new = dict(zip(before.snippets, before.ids, strict=True)), dict(zip(after.snippets, after.ids, strict=True))
    by_body = lambda ids: {(s.file, s.body): i for s, i in ids.items()}  # noqa: E731
    assert by_body(old).items() <= by_body(new).items()  # A, B of x.md and B of y.md kept their ids
    r = compare(before, after)
    assert [sid for sid, _ in r.added] == [after.ids[0]]
    assert {c.before_id for c in r.moved} == {c.after_id for c in r.moved}


def test_identical_bodies_in_one_file_are_told_apart_by_occurrence(inventory_of):
    ids = inventory_of({"x.md": doc(A, A, B)}).ids
    assert len(set(ids)) == 3
    assert inventory_of({"x.md": doc(A, A)}).ids == ids[:2]
    assert inventory_of({"x.md": doc(B, A, A)}).ids[1:] == ids[:2]


def test_desync_new_and_resync(inventory_of):
    synced = inventory_of({"docs/en/p.md": doc(A), "docs/zh/p.md": doc(A)})
    diverged = inventory_of({"docs/en/p.md": doc(A), "docs/zh/p.md": doc(A.replace("1)", "2)"))})
    r = compare(synced, diverged)
    assert [d.relation for d in r.desynchronized] == ["diverged"] and r.desynchronized[0].new
    assert "changed" in r.reasons[0]
    back = compare(diverged, synced)
    assert len(back.resynchronized) == 1 and not back.desynchronized


def test_relation_change_alone_is_stale(inventory_of):
    # Creating an empty counterpart file turns the snippet into "missing": stale.
    before = inventory_of({"docs/en/p.md": doc(A)})
    after = inventory_of({"docs/en/p.md": doc(A), "docs/zh/p.md": "# 空\n"})
    r = compare(before, after)
    assert not r.fresh and r.reasons == (
        "bilingual pairs changed: docs/en/p.md:2 now has no example to pair with in docs/zh/p.md",
    )
    assert [d.relation for d in r.desynchronized] == ["missing"]


def test_a_record_is_false_field_by_field_and_lines_may_only_move_as_a_whole(inventory_of):
    from dataclasses import replace

    from docsnippets.judge.compare import false_fields

    [s] = inventory_of({"docs/en/p.md": doc(A)}).snippets

    def moved(by: int, fence_end: int = 0):
        return replace(
            s,
            fence_lines=(s.fence_lines[0] + by, s.fence_lines[1] + by + fence_end),
            code_lines=(s.code_lines[0] + by, s.code_lines[1] + by),
        )

    assert false_fields(s, s) == ()
    assert false_fields(moved(-1), s) == false_fields(moved(7), s) == ()  # the same snippet, lines above it changed
    assert false_fields(moved(0, fence_end=2), s) == ("fence_lines",)
    assert false_fields(moved(3, fence_end=2), s) == ("fence_lines", "code_lines")
    assert false_fields(replace(s, info="py title=x", status_message="ok"), s) == ("info", "status_message")
    assert false_fields(replace(moved(5), file="docs/en/q.md"), s) == ()  # another file: a move, reported as one
