"""Stage 2 judges what the head commit holds, not what the PR says about it: the forgeries that
once reached a green status through its choice of files, and hostile archives, end to end."""

from __future__ import annotations

import io
import tarfile

import pytest
from tests.support.fake_github import changed
from tests.support.scenario import BASE_SHA, HEAD_SHA, MANIFEST
from tests.support.stage2_pr import page, small_pr

BASE = {"docs/en/a.md": page(1), "docs/zh/a.md": page(1, zh=True), "README.md": "hi\n"}
MODES = pytest.mark.parametrize("archive", [True, False], ids=["archive", "file-by-file"])


def _mode(pr, archive: bool) -> None:
    if not archive:  # past the archive's bounds: the head is read blob by blob
        pr.scenario.inputs["DOCSNIPPETS_ARCHIVE_MAX_BYTES"] = "1"


@MODES
@pytest.mark.parametrize("base_manifest", [None, "{not json"], ids=["no-base-manifest", "unparsable"])
def test_a_base_without_a_usable_manifest_trusts_no_record_of_the_pr(tmp_path, fake, archive, base_manifest):
    """The PR commits a manifest recording nothing; with no base manifest to trust, every page is
    read, and the untouched page's snippets make it stale."""
    pr = small_pr(tmp_path, fake, BASE, BASE, [changed(MANIFEST)], recorded={"README.md": "hi\n"})
    if base_manifest is None:
        del pr.repo.contents[(BASE_SHA, MANIFEST)]
    else:
        pr.repo.add_file(BASE_SHA, MANIFEST, base_manifest)
    _mode(pr, archive)
    result = pr.scenario.run()
    assert [s["state"] for s in pr.statuses()] == ["failure"], result.stdout + result.stderr
    assert result.outputs["fresh"] == "false"


@MODES
def test_a_file_list_from_another_head_cannot_hide_a_lying_manifest(tmp_path, fake, archive):
    """The branch is force-pushed to B (only README changed) while its files are listed, and back
    to A, whose manifest lies about a page A did not change: the trees show the manifest changed."""
    head = {**BASE, "README.md": "hello\n"}
    lie = {**BASE, "docs/en/a.md": page(7), "docs/zh/a.md": page(7, zh=True)}
    pr = small_pr(tmp_path, fake, BASE, head, recorded=lie)
    files_of_a = list(pr.repo.pulls[42]["files"])
    assert {f["filename"] for f in files_of_a} == {"README.md", MANIFEST}

    def force_push(method: str, path: str) -> None:
        if path.endswith("/pulls/42/files"):
            pr.repo.pulls[42].update(head_sha="e" * 40, files=[changed("README.md")])
        elif "/git/trees/" in path:
            pr.repo.pulls[42].update(head_sha=HEAD_SHA, files=files_of_a)

    fake.on_request = force_push
    _mode(pr, archive)
    result = pr.scenario.run()
    assert [s["state"] for s in pr.statuses()] == ["failure"], result.stdout + result.stderr


def _tar(members: list[tuple[str, bytes, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT, pax_headers={"comment": HEAD_SHA}) as tar:
        for name, kind, data in members:
            info = tarfile.TarInfo(name)
            info.type = kind
            info.size = len(data) if kind == tarfile.REGTYPE else 0
            if kind == tarfile.LNKTYPE:
                info.linkname = "top/README.md"
            tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("members", "said"),
    [
        ([("top/../../escape.md", tarfile.REGTYPE, b"x")], "leaving its directory"),
        ([("/etc/passwd", tarfile.REGTYPE, b"x")], "absolute"),
        ([("top/docs/en/a.md", tarfile.LNKTYPE, b"")], "link or device"),
        ([("top/docs/en/a.md", tarfile.REGTYPE, b"#" * (3 << 20))], "larger in the archive than its blob"),
        ([(f"top/f{i}", tarfile.REGTYPE, b"") for i in range(40)], "more than"),
    ],
    ids=["dotdot", "absolute", "hardlink", "larger-than-declared", "too-many-members"],
)
def test_a_hostile_archive_is_a_one_line_error_status(tmp_path, fake, members, said):
    pr = small_pr(tmp_path, fake, BASE, {**BASE, "docs/en/a.md": page(2), "docs/zh/a.md": page(2, zh=True)})
    pr.repo.archives[HEAD_SHA] = _tar(members)
    result = pr.scenario.run()
    assert result.code == 2, result.stdout + result.stderr
    [status] = pr.statuses()
    assert status["state"] == "error" and "archive" in status["description"], status
    assert "\n" not in status["description"] and said in result.stdout
    assert not (tmp_path / "escape.md").exists() and not (tmp_path.parent / "escape.md").exists()


def test_a_fork_head_the_base_repository_does_not_serve_is_downloaded_from_the_fork(tmp_path, fake):
    head = {**BASE, "docs/en/a.md": page(2), "docs/zh/a.md": page(2, zh=True)}
    pr = small_pr(tmp_path, fake, BASE, head)
    fork = fake.add_repo("someone/repo")
    for (ref, path), data in pr.repo.contents.items():
        if ref == HEAD_SHA:
            fork.add_file(ref, path, data)
    fake.fail("GET", r"^/repos/THUDM/slime/tarball/", 404, times=None)
    result = pr.scenario.run()
    assert result.code == 0, result.stdout + result.stderr
    assert [s["state"] for s in pr.statuses()] == ["success"]
    assert len(fake.requests("GET", r"^/repos/someone/repo/tarball/")) == 1
    assert fake.requests("GET", r"/git/blobs/") == []
