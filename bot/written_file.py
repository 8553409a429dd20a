"""Writing a file the user named (`-o OUT`), all or nothing (issue 34.3).

The bytes go to `OUT.part` beside it first and are renamed over `OUT`, so a reader never sees
half a file; the folder is created if missing, as the README's `-o lexicons/…` expects. A
refusal names `OUT`, the file the user asked for: the temporary `.part` is ours, not his.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path


def _as_out(error: OSError, out: Path) -> OSError:
    """The same refusal (errno, reason) said about `out`."""
    return OSError(error.errno, error.strerror, str(out))


def ensure_folder(out: Path) -> None:
    """Create `out`'s folder (and its parents) if missing; an OSError names `out`."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file stands where the folder should be: say that, not "exists"
        raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(out)) from None
    except OSError as exc:
        raise _as_out(exc, out) from None


def write_replacing(out: Path, data: bytes) -> None:
    """Write `data` to `out` (see the module's docstring); an OSError names `out`."""
    ensure_folder(out)
    partial = out.with_name(out.name + ".part")
    try:
        partial.write_bytes(data)
        os.replace(partial, out)
    except OSError as exc:
        with contextlib.suppress(OSError):  # nothing half-written stays behind
            partial.unlink(missing_ok=True)
        raise _as_out(exc, out) from None
