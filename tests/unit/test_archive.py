"""The head commit's archive read as data: only what the commit's listing vouches for is kept,
and a hostile archive is a one-line error, never a read outside it nor a memory blow-up."""

from __future__ import annotations

import gzip
import hashlib
import io
import tarfile
import tracemalloc
import zlib

import pytest

from docsnippets.github.archive import ArchiveBounds, ArchiveError, read_archive
from docsnippets.github.listing import CommitListing, ListingEntry

SHA = "c" * 40
TOP = "owner-repo-ccccccc"
BOUNDS = ArchiveBounds(max_bytes=64 * 1024 * 1024, max_members=1000)


def blob_sha(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def listing(files: dict[str, bytes], **extra: ListingEntry) -> CommitListing:
    entries = {p: ListingEntry(p, "100644", "blob", blob_sha(d), len(d)) for p, d in files.items()}
    return CommitListing(SHA, {**entries, **extra}, False)


def member(name: str, kind: bytes = tarfile.REGTYPE, data: bytes = b"", **fields: object) -> tuple:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = len(data)
    for key, value in fields.items():
        setattr(info, key, value)
    return info, data


def archive(members: list[tuple], comment: str | None = SHA) -> bytes:
    buffer = io.BytesIO()
    headers = {"comment": comment} if comment is not None else {}
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT, pax_headers=headers) as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if info.type == tarfile.REGTYPE else None)
    return buffer.getvalue()


def chunks(data: bytes, size: int = 1000) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def everything(path: str) -> bool:
    return True


def test_a_member_is_kept_only_when_its_bytes_are_the_listed_blob():
    files = {"docs/a.md": b"# A\n", "docs/b.md": b"# B\n", "pkg/m.py": b"x = 1\n"}
    members = [member(TOP, tarfile.DIRTYPE), member(f"{TOP}/docs", tarfile.DIRTYPE)]
    members += [member(f"{TOP}/docs/a.md", data=files["docs/a.md"])]
    members += [member(f"{TOP}/docs/b.md", data=b"# B, rewritten by export-subst\n")]
    members += [member(f"{TOP}/pkg/m.py", data=files["pkg/m.py"])]
    members += [member(f"{TOP}/unlisted.md", data=b"not in the commit\n")]
    members += [member(f"{TOP}/docs/link.md", tarfile.SYMTYPE, linkname="../../etc/passwd")]
    kept = read_archive(chunks(archive(members)), listing(files), everything, BOUNDS)
    assert kept == {"docs/a.md": files["docs/a.md"], "pkg/m.py": files["pkg/m.py"]}
    only_md = read_archive(chunks(archive(members)), listing(files), lambda p: p.endswith(".md"), BOUNDS)
    assert only_md == {"docs/a.md": files["docs/a.md"]}


@pytest.mark.parametrize(
    ("members", "said"),
    [
        ([member(f"{TOP}/../evil.md", data=b"x")], "leaving its directory"),
        ([member(f"{TOP}/docs/../../evil.md", data=b"x")], "leaving its directory"),
        ([member("/etc/passwd", data=b"x")], "absolute"),
        ([member(TOP, tarfile.DIRTYPE), member("other-top/a.md", data=b"x")], "second top directory"),
        ([member(f"{TOP}/docs/a.md", tarfile.LNKTYPE, linkname=f"{TOP}/x")], "link or device"),
        ([member(f"{TOP}/dev", tarfile.CHRTYPE)], "link or device"),
        ([member(f"{TOP}/fifo", tarfile.FIFOTYPE)], "link or device"),
    ],
    ids=["dotdot", "dotdot-inside", "absolute", "two-tops", "hardlink", "device", "fifo"],
)
def test_a_hostile_member_is_a_one_line_error(members, said):
    with pytest.raises(ArchiveError, match=said) as caught:
        read_archive(chunks(archive(members)), listing({"docs/a.md": b"# A\n"}), everything, BOUNDS)
    assert "\n" not in str(caught.value)


def test_an_archive_of_another_commit_is_refused():
    data = archive([member(TOP, tarfile.DIRTYPE)], comment="d" * 40)
    with pytest.raises(ArchiveError, match="not " + SHA[:12]):
        read_archive(chunks(data), listing({}), everything, BOUNDS)


def test_a_member_larger_than_its_blob_is_an_error():
    listed = listing({"docs/a.md": b"# A\n"})
    huge = member(f"{TOP}/docs/a.md", data=b"#" * (3 * 1024 * 1024))
    with pytest.raises(ArchiveError, match="larger in the archive than its blob"):
        read_archive(chunks(archive([huge]), 1 << 16), listed, everything, BOUNDS)


def test_more_members_than_the_commit_has_is_an_error():
    many = [member(f"{TOP}/f{i}.txt", data=b"") for i in range(200)]
    with pytest.raises(ArchiveError, match="more than 17 members"):
        read_archive(chunks(archive(many)), listing({"a.md": b"x"}), everything, BOUNDS)
    small = ArchiveBounds(max_bytes=BOUNDS.max_bytes, max_members=50)
    with pytest.raises(ArchiveError, match="more than 50 members"):
        read_archive(chunks(archive(many)), listing({f"f{i}.txt": b"" for i in range(200)}), everything, small)


def _bomb(inflated: int) -> bytes:
    """A tar holding one member of ``inflated`` zero bytes (not a file the commit lists), gzipped
    a chunk at a time, so that reading past it means inflating it all."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    info = tarfile.TarInfo(f"{TOP}/padding.bin")
    info.size = inflated
    out = [compressor.compress(info.tobuf(tarfile.PAX_FORMAT))]
    block = b"\0" * (1 << 20)
    out += [compressor.compress(block) for _ in range(inflated // len(block))]
    return b"".join([*out, compressor.flush()])


def test_a_gzip_bomb_stops_at_the_bound_with_memory_bounded():
    data = _bomb(256 * 1024 * 1024)  # 256 MiB of zeros in a few hundred KB
    assert len(data) < 1024 * 1024
    tracemalloc.start()
    try:
        with pytest.raises(ArchiveError, match="inflates past"):
            read_archive(chunks(data, 1 << 16), listing({"docs/a.md": b"# A\n"}), everything, BOUNDS)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024, peak


def test_a_download_larger_than_the_bound_stops_before_it_is_all_read():
    listed = listing({"docs/a.md": b"# A\n"})
    read = []

    def endless():
        chunk = gzip.compress(b"x" * 100)  # valid gzip members, one after the other
        while True:
            read.append(len(chunk))
            yield chunk

    with pytest.raises(ArchiveError):
        read_archive(endless(), listed, everything, ArchiveBounds(max_bytes=1 << 20, max_members=1000))
    assert sum(read) < 4 * 1024 * 1024


@pytest.mark.parametrize(
    "data", [b"", b"not gzip at all", gzip.compress(b"not a tar")[:-8]], ids=["empty", "junk", "cut"]
)
def test_what_is_no_archive_is_a_one_line_error(data):
    with pytest.raises(ArchiveError) as caught:
        read_archive(chunks(data), listing({"a.md": b"x"}), everything, BOUNDS)
    assert "\n" not in str(caught.value)


def test_the_bounds_say_whether_a_listing_fits_before_anything_is_downloaded():
    files = {f"f{i}.md": b"x" * 1000 for i in range(10)}
    assert ArchiveBounds(max_bytes=1 << 20, max_members=100).fits(listing(files))
    assert not ArchiveBounds(max_bytes=5000, max_members=100).fits(listing(files))
    assert not ArchiveBounds(max_bytes=1 << 20, max_members=5).fits(listing(files))


def test_copies_of_one_blob_are_kept_once():
    """A PR may hold one page under thousands of paths: memory holds its bytes once."""
    page = b"```python\nawait step()\n```\n" * 2000
    files = {f"docs/en/copy{k}.md": page for k in range(40)}
    members = [member(TOP, tarfile.DIRTYPE)] + [member(f"{TOP}/{p}", data=d) for p, d in files.items()]
    kept = read_archive(chunks(archive(members), 1 << 16), listing(files), everything, BOUNDS)
    assert kept == files
    assert len({id(data) for data in kept.values()}) == 1


def test_the_bytes_kept_are_bounded_and_later_files_are_left_to_be_read_as_blobs(monkeypatch):
    """What the archive keeps stays in memory to the end of the run: past MAX_KEPT_BYTES of
    distinct blobs, a wanted file is passed over (its reader downloads it, a request counted
    against the budget), so that the pages kept and the parse of one page fit the run."""
    import docsnippets.github.archive as archive_module

    monkeypatch.setattr(archive_module, "MAX_KEPT_BYTES", 2500)
    files = {f"docs/p{k}.md": bytes([65 + k]) * 1000 for k in range(5)}
    files["docs/copy.md"] = files["docs/p0.md"]  # a blob kept already costs nothing more,
    files["docs/q-copy.md"] = files["docs/p1.md"]  # even once the bound is reached
    members = [member(TOP, tarfile.DIRTYPE)] + [member(f"{TOP}/{p}", data=d) for p, d in sorted(files.items())]
    kept = read_archive(chunks(archive(members), 1 << 16), listing(files), everything, BOUNDS)
    assert sorted(kept) == ["docs/copy.md", "docs/p0.md", "docs/p1.md", "docs/q-copy.md"]
