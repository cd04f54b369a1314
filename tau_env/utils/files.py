"""Writing an output file so that a failure never leaves it half written or destroys the old one.

`write_text_atomically` writes the whole text to a temporary file beside the target and renames
it over the target only when the write succeeded: a reader sees the old file or the new one,
never a truncated page, and a crash (or a refused value) mid-write leaves the old file intact.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from tau_env.utils.surrogates import without_surrogates

__all__ = ["write_text_atomically"]


def write_text_atomically(path: str | Path, text: str) -> Path:
    """Write `text` as UTF-8 to `path` (its folder is created); returns the path.

    A lone surrogate (half an emoji that came from a model) cannot be written as UTF-8: it is
    written as U+FFFD, the replacement character, as a decoder shows an invalid sequence. The
    file keeps the permissions of the one it replaces (a new one: those the umask allows).

    Raises:
        OSError: The folder cannot be created or written; the target is left as it was.
    """
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    data = without_surrogates(text).encode("utf-8")
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return target


def _mode_for(target: Path) -> int:
    """The permission bits of the file `target` replaces, else a new file's under the umask."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
