"""Issue 41, findings 1, 2 and 5 (brainio's side): the one path rule, link-safe sweeping of the cache, and ZIP archives
refused before anything is written (a bomb, a duplicate member, a symbolic-link member)."""

from __future__ import annotations

import os
import time
import warnings
import zipfile
from pathlib import Path

import pytest

from brainio.errors import ArchiveLimitError, PathOutsideRootError, UnsafeArchiveError
from brainio.paths import linked_part, path_inside, remove_inside, walk_files
from brainio.stimulus_cache.extraction import extract_zip, sweep_stale_temporaries

pytestmark = pytest.mark.security


# -- the path rule ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["../results.sqlite", "a/../../x", "/etc/hostname", "", ".", "a\x00b"])
def test_names_that_leave_their_folder_are_refused_naming_name_and_folder(tmp_path, name):
    root = tmp_path / "models"
    with pytest.raises(PathOutsideRootError) as caught:
        path_inside(root, name, what="weight file")
    assert caught.value.name == name and caught.value.root == str(root)
    assert repr(name) in str(caught.value) and str(root) in str(caught.value)


def test_names_inside_are_resolved_and_a_linked_root_is_served(tmp_path):
    elsewhere = tmp_path / "scratch"
    elsewhere.mkdir()
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "models").symlink_to(elsewhere)  # a user keeping a whole cache elsewhere
    assert path_inside(tmp_path / "home" / "models", "net/w.pth") == elsewhere / "net" / "w.pth"
    assert path_inside(tmp_path, "a/./b/../c") == tmp_path.resolve() / "a" / "c"


def test_a_link_inside_the_folder_that_points_out_is_refused(tmp_path):
    root, outside = tmp_path / "cache", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "planted").symlink_to(outside)
    with pytest.raises(PathOutsideRootError, match="planted/file.nc"):
        path_inside(root, "planted/file.nc")


def test_removal_never_goes_through_a_linked_folder_and_removes_a_link_itself(tmp_path):
    root, outside = tmp_path / "cache", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "precious.txt").write_text("keep")
    (root / "linked").symlink_to(outside)
    (root / "link.txt").symlink_to(outside / "precious.txt")
    assert linked_part(root, root / "linked" / "precious.txt") == root / "linked"
    assert [path.name for path in walk_files(root)] == ["link.txt", "linked"]  # listed, not entered
    with pytest.raises(PathOutsideRootError, match="symbolic link"):
        remove_inside(root, root / "linked" / "precious.txt")
    remove_inside(root, root / "link.txt")
    remove_inside(root, root / "linked")
    assert not (root / "link.txt").is_symlink() and not (root / "linked").is_symlink()
    assert (outside / "precious.txt").read_text() == "keep"


# -- finding 2: the sweep of stale temporaries -------------------------------------------------------------------
def _old(path: Path) -> None:
    past = time.time() - 7200
    os.utime(path, (past, past), follow_symlinks=False)


def test_sweep_does_not_enter_a_linked_folder_of_the_cache(tmp_path):
    """Before: ``home.glob('*/.*.part')`` went through ``home/<link>`` and deleted a ``.part`` file outside."""
    home, outside = tmp_path / "brainio", tmp_path / "outside"
    home.mkdir()
    outside.mkdir()
    victim = outside / ".data.nc.abc123.part"
    victim.write_text("someone else's download")
    _old(victim)
    (home / ("a" * 40)).symlink_to(outside)
    assert sweep_stale_temporaries(home) == []
    assert victim.read_text() == "someone else's download"


def test_sweep_removes_a_linked_temporary_itself_not_its_target(tmp_path):
    """Before: a ``.part`` link to a folder was handed to ``rmtree``, which refuses links: the link stayed."""
    home, outside = tmp_path / "brainio", tmp_path / "outside"
    (home / ("b" * 40)).mkdir(parents=True)
    outside.mkdir()
    (outside / "kept.txt").write_text("x")
    link = home / ("b" * 40) / ".stimuli.zip.xyz789.part"
    link.symlink_to(outside)
    _old(link)
    assert sweep_stale_temporaries(home) == [link]
    assert not link.is_symlink() and (outside / "kept.txt").read_text() == "x"


# -- finding 5: archives -----------------------------------------------------------------------------------------
def _zip(path: Path, members: list[tuple[zipfile.ZipInfo | str, bytes]], compression=zipfile.ZIP_STORED) -> Path:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # zipfile warns about the duplicate name we write on purpose
        with zipfile.ZipFile(path, "w", compression=compression) as archive:
            for info, data in members:
                archive.writestr(info, data)
    return path


def _bomb(path: Path, megabytes: int = 24) -> Path:
    """One member of zeros, deflated ~1,000 times (the harness's was 159 KiB -> 160 MiB)."""
    return _zip(path, [("a.png", b"ok"), ("zeros.bin", bytes(megabytes << 20))], zipfile.ZIP_DEFLATED)


def test_a_zip_bomb_is_refused_before_anything_is_written(tmp_path):
    archive = _bomb(tmp_path / "bomb.zip")
    assert archive.stat().st_size < 100_000
    with pytest.raises(ArchiveLimitError) as caught:
        extract_zip(archive, tmp_path / "out", home=tmp_path)
    assert str(archive) in str(caught.value) and "'zeros.bin'" in str(caught.value)
    assert "BRAINIO_ARCHIVE_MAX_RATIO" in str(caught.value)
    assert not (tmp_path / "out").exists()
    assert [path.name for path in tmp_path.iterdir() if path.name.endswith(".part")] == []


def test_the_limits_are_set_through_the_environment(tmp_path, monkeypatch):
    archive = _bomb(tmp_path / "bomb.zip", megabytes=2)
    monkeypatch.setenv("BRAINIO_ARCHIVE_MAX_RATIO", "inf")
    assert (extract_zip(archive, tmp_path / "out", home=tmp_path) / "zeros.bin").stat().st_size == 2 << 20
    monkeypatch.delenv("BRAINIO_ARCHIVE_MAX_RATIO")
    stored = _zip(tmp_path / "big.zip", [("a.bin", bytes(6000)), ("b.bin", bytes(6000))])  # ratio 1: only the total
    monkeypatch.setenv("BRAINIO_ARCHIVE_MAX_GB", str(10_000 / 1024**3))
    with pytest.raises(ArchiveLimitError, match=r"big.zip: member 'b.bin' brings the extracted size to 12,000 bytes.*"
                                                r"BRAINIO_ARCHIVE_MAX_GB"):
        extract_zip(stored, tmp_path / "big", home=tmp_path)
    with pytest.raises(ArchiveLimitError, match="above the limit of 11,000"):
        extract_zip(stored, tmp_path / "big", home=tmp_path, max_bytes=11_000)  # the keyword wins
    assert not (tmp_path / "big").exists()


def test_many_small_members_count_in_the_archive_total(tmp_path):
    """No member is large enough to be judged alone; together they expand beyond the ratio."""
    archive = _zip(tmp_path / "many.zip", [(f"m{i}.txt", bytes(200_000)) for i in range(40)], zipfile.ZIP_DEFLATED)
    with pytest.raises(ArchiveLimitError, match="many.zip: the archive expands"):
        extract_zip(archive, tmp_path / "out", home=tmp_path)


def test_two_members_of_one_name_are_refused(tmp_path):
    """Before: both were accepted and the last one won, silently."""
    archive = _zip(tmp_path / "dup.zip", [("img/a.png", b"first"), ("img/b.png", b"b"), ("img//a.png", b"second")])
    with pytest.raises(UnsafeArchiveError, match=r"dup.zip: member 'img//a.png' appears twice \(also as 'img/a.png'\)"):
        extract_zip(archive, tmp_path / "out", home=tmp_path)
    assert not (tmp_path / "out").exists()


def _link_member(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3  # Unix
    info.external_attr = 0o120777 << 16  # a symbolic link
    return info


def test_a_symbolic_link_member_and_members_under_it_are_refused(tmp_path):
    """Before: the link was written as a file, and the member under it failed with an untyped FileExistsError that
    named no archive."""
    archive = _zip(tmp_path / "link.zip", [(_link_member("escape"), b"../../outside"), ("escape/x.png", b"x")])
    with pytest.raises(UnsafeArchiveError, match=r"link.zip: member 'escape' is a symbolic link"):
        extract_zip(archive, tmp_path / "out", home=tmp_path)
    plain = _zip(tmp_path / "file.zip", [("a", b"a file"), ("a/b.png", b"under it")])
    with pytest.raises(UnsafeArchiveError, match=r"file.zip: member 'a/b.png' lies under the member 'a'"):
        extract_zip(plain, tmp_path / "out2", home=tmp_path)
    assert not (tmp_path / "out").exists() and not (tmp_path / "out2").exists()


def test_a_link_planted_in_an_extracted_folder_is_not_written_through(tmp_path):
    archive = _zip(tmp_path / "set.zip", [("sub/a.png", b"a"), ("b.png", b"b")])
    folder = extract_zip(archive, tmp_path / "set", home=tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    for path in (folder / "sub").iterdir():
        path.unlink()
    (folder / "sub").rmdir()
    (folder / "sub").symlink_to(outside)
    with pytest.raises(PathOutsideRootError, match="sub/a.png"):
        extract_zip(archive, folder, home=tmp_path)
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("umask", [0o002, 0o077])
def test_extracted_folders_follow_the_umask_like_files(tmp_path, umask):
    import stat

    archive = _zip(tmp_path / "set.zip", [("a/b/c.png", b"c"), ("d.png", b"d")])
    previous = os.umask(umask)
    try:
        folder = extract_zip(archive, tmp_path / "set", home=tmp_path / "home")
    finally:
        os.umask(previous)
    for path in (folder, folder / "a", folder / "a" / "b", tmp_path / "home" / ".locks"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o777 & ~umask, path
    assert stat.S_IMODE((folder / "a" / "b" / "c.png").stat().st_mode) == 0o666 & ~umask
