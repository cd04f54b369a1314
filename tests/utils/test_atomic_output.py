from __future__ import annotations

import os
import stat

import pytest

from tau_env.utils.atomic_output import atomic_output


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
