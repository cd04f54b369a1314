from __future__ import annotations

import os
import stat

import pytest

from tau_env.utils.atomic_output import atomic_output, write_text_atomically


def test_atomic_output__replaces_the_file_only_when_the_block_ends(tmp_path):
    target = tmp_path / "new" / "corpus.jsonl"
    with atomic_output(target) as file:
        file.write(b"one\n")
        assert not target.exists()  # nothing visible mid-write
        file.write(b"two\n")
    assert target.read_bytes() == b"one\ntwo\n"
    assert os.listdir(target.parent) == ["corpus.jsonl"]


def test_atomic_output__a_failure_leaves_the_old_file_and_no_temporary_one(tmp_path):
    target = tmp_path / "corpus.jsonl"
    target.write_bytes(b"old\n")
    target.chmod(0o640)
    with pytest.raises(ValueError, match="bad example"), atomic_output(target) as file:
        file.write(b"half")
        raise ValueError("bad example")
    assert target.read_bytes() == b"old\n"
    assert os.listdir(tmp_path) == ["corpus.jsonl"]
    with atomic_output(target) as file:
        file.write(b"new\n")
    assert target.read_bytes() == b"new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the replaced file's permissions


def test_write_text_atomically__replaces_the_file_whole(tmp_path):
    target = tmp_path / "deep" / "page.html"
    assert write_text_atomically(target, "<p>new</p>") == target
    assert target.read_text() == "<p>new</p>"
    assert [p.name for p in target.parent.iterdir()] == ["page.html"]


def test_write_text_atomically__a_failure_leaves_the_old_file_and_no_temporary(
    tmp_path, monkeypatch
):
    target = tmp_path / "page.html"
    target.write_text("old")

    def full_disk(source: str, destination: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError, match="No space left"):
        write_text_atomically(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]


def test_write_text_atomically__a_lone_surrogate_becomes_the_replacement_character(tmp_path):
    target = tmp_path / "page.html"
    target.write_text("old")
    write_text_atomically(target, "half \ud83d emoji")
    assert target.read_text(encoding="utf-8") == "half \ufffd emoji"


def test_write_text_atomically__keeps_the_permissions_of_the_file_it_replaces(tmp_path):
    target = tmp_path / "page.html"
    target.write_text("old")
    target.chmod(0o640)
    write_text_atomically(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
