"""`write_text_atomically`: the old file or the new one, never a truncated one."""

from __future__ import annotations

import os
import stat

import pytest

from tau_env.utils.files import write_text_atomically


def test_write__replaces_the_file_whole(tmp_path):
    target = tmp_path / "deep" / "page.html"
    assert write_text_atomically(target, "<p>new</p>") == target
    assert target.read_text() == "<p>new</p>"
    assert [p.name for p in target.parent.iterdir()] == ["page.html"]


def test_write__a_failure_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "page.html"
    target.write_text("old")

    def full_disk(source: str, destination: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError, match="No space left"):
        write_text_atomically(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]


def test_write__a_lone_surrogate_becomes_the_replacement_character(tmp_path):
    target = tmp_path / "page.html"
    target.write_text("old")
    write_text_atomically(target, "half \ud83d emoji")
    assert target.read_text(encoding="utf-8") == "half \ufffd emoji"


def test_write__keeps_the_permissions_of_the_file_it_replaces(tmp_path):
    target = tmp_path / "page.html"
    target.write_text("old")
    target.chmod(0o640)
    write_text_atomically(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
