"""Writing an output file so that a failure never leaves it half written or destroys the old one.

`atomic_output` hands out a temporary file beside the target and renames it over the target
only when the block that writes it ends without an error: a reader sees the old file or the
new one, never a truncated one, and the output may be far larger than memory (a corpus of
100,000 episodes is written line by line). `write_text_atomically` writes a whole text (a page,
an export) that way.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from tau_env.utils.surrogates import without_surrogates

__all__ = ["atomic_output", "write_text_atomically"]


@contextlib.contextmanager
def atomic_output(path: str | Path) -> Iterator[BinaryIO]:
    """A binary file to write `path`'s new content to (its folder is created).

    The file keeps the permissions of the one it replaces (a new one: those the umask allows).
    When the block raises, the temporary file is removed and `path` is left as it was.

    Raises:
        OSError: The folder cannot be created or written; the target is left as it was.
    """
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "wb") as file:
            yield file
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_text_atomically(path: str | Path, text: str) -> Path:
    """Write `text` as UTF-8 to `path` (its folder is created) with `atomic_output`.

    A lone surrogate (half an emoji that came from a model) cannot be written as UTF-8: it is
    written as U+FFFD, the replacement character, as a decoder shows an invalid sequence.

    Returns:
        The path written.

    Raises:
        OSError: The folder cannot be created or written; the target is left as it was.
    """
    with atomic_output(path) as file:
        file.write(without_surrogates(text).encode("utf-8"))
    return Path(path).expanduser()


def _mode_for(target: Path) -> int:
    """The permission bits of the file `target` replaces, else a new file's under the umask."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
