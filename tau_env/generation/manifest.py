"""The manifest of a generated task set: how it was made, and a hash of what it holds.

``tau-env generate`` writes ``manifest.json`` beside the task file, in
``<data_dir>/domains/<domain>/``. Its ``content_hash`` covers every other file of the folder,
so two sets with the same hash hold the same bytes; runs that play the set record the
manifest's identity (`identity`) with their task set, and reports show it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "GENERATOR_VERSION",
    "MANIFEST_FILE",
    "content_hash",
    "folder_files",
    "folder_hash",
    "folder_identity",
    "identity",
    "read_manifest",
]

MANIFEST_FILE = "manifest.json"
"""The manifest's file name, in the generated domain folder."""

GENERATOR_VERSION = 1
"""Bumped whenever the same request would give other bytes."""


def content_hash(files: Mapping[str, bytes]) -> str:
    """SHA-256 (hex) of the files' paths and contents, in path order."""
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(files[path]).digest())
    return digest.hexdigest()


def folder_hash(folder: Path) -> str:
    """`content_hash` of `folder_files`, each file read in chunks (never a whole set at once)."""
    digest = hashlib.sha256()
    paths = {
        path.relative_to(folder).as_posix(): path
        for path in folder.rglob("*")
        if path.is_file() and path.relative_to(folder).as_posix() != MANIFEST_FILE
    }
    for name in sorted(paths):
        digest.update(name.encode("utf-8") + b"\0")
        inner = hashlib.sha256()
        with paths[name].open("rb") as data:
            while chunk := data.read(1 << 20):
                inner.update(chunk)
        digest.update(inner.digest())
    return digest.hexdigest()


def identity(manifest: Mapping[str, Any]) -> str:
    """One line naming the set: ``generated airline seed=7 tasks=1000 v1 hash=0123abcd...``."""
    return (
        f"generated {manifest.get('domain')} seed={manifest.get('seed')} "
        f"tasks={manifest.get('tasks')} v{manifest.get('generator_version')} "
        f"hash={str(manifest.get('content_hash', ''))[:16]}"
    )


def read_manifest(data_dir: str | Path | None, domain: str) -> dict[str, Any] | None:
    """The manifest of `domain` in a data folder, or None (built-in or official data).

    A manifest that cannot be read counts as none: it only documents the set.
    """
    if data_dir is None:
        return None
    path = Path(data_dir).expanduser() / "domains" / domain / MANIFEST_FILE
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def folder_files(folder: Path) -> dict[str, bytes]:
    """Every file of a domain folder but the manifest, by path relative to it."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.relative_to(folder).as_posix() != MANIFEST_FILE
    }


def folder_identity(folder: str | Path) -> str | None:
    """The identity of the generated set in a domain folder; None when it has no manifest.

    The folder's files are hashed again: a set edited since it was generated is named so
    (``... (modified since generated)``), since the manifest no longer describes it.
    """
    path = Path(folder)
    try:
        manifest = json.loads((path / MANIFEST_FILE).read_text(encoding="utf-8"))
        files = folder_files(path)
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict):
        return None
    if content_hash(files) != manifest.get("content_hash"):
        return identity(manifest) + " (modified since generated)"
    return identity(manifest)
