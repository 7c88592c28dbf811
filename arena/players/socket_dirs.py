"""The folders in which sandboxed ``cmd:`` programs make their Unix socket (``bot.sock``).

A folder is the one place a sandboxed program shares with the arena and may write, so, as root,
each is a tmpfs of its own capped at :data:`SIZE` bytes and :data:`INODES` files (a socket takes
no room: a program that fills its folder fills a few pages of memory, never the host's disk),
mounted under a root-only directory (:data:`ROOT`) and owned by the bot's uid. Not as root (no
mount allowed), a plain directory under the system's temporary directory: the bot then runs as the
arena's own user, whose disk it is anyway.

A folder is named ``PID-N`` after the arena process that made it, so that the folders left by an
arena killed with ``kill -9`` are removed (unmounted) by the next one that makes a folder.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import shutil
import stat
import tempfile

from arena.players.limits import _alive

SIZE = 64 * 1024  # bytes of a folder's tmpfs (a socket needs none)
INODES = 16  # files and folders in it
ROOT = "/run/trick-arena/sockets"  # as root: only root may enter it
_MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 2, 4, 8
_MNT_DETACH = 2
_serial = itertools.count()
_swept = False


def root() -> str:
    return ROOT if os.geteuid() == 0 else os.path.join(tempfile.gettempdir(), f"trick-arena-sockets-{os.getuid()}")


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _parent() -> str:
    """The folders' parent: made 0700, and refused if it is not a directory of the arena's user
    (someone else may have made it first, in a world-writable temporary directory)."""
    parent = root()
    os.makedirs(parent, mode=0o700, exist_ok=True)
    info = os.lstat(parent)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
        raise OSError(f"{parent} is not a private directory of uid {os.geteuid()}: refusing to make bot sockets there")
    return parent


def make(uid: int) -> str:
    """A new empty folder for one sandboxed program of ``uid``, mode 0700, that uid's; a capped
    tmpfs as root. Sweeps the folders of dead arenas first (once per process)."""
    global _swept
    if not _swept:
        _swept = True
        sweep()
    path = os.path.join(_parent(), f"{os.getpid()}-{next(_serial)}")
    os.mkdir(path, 0o700)
    if os.geteuid() == 0:
        options = f"size={SIZE},nr_inodes={INODES},mode=0700,uid={uid},gid={uid}".encode()
        if _libc().mount(b"tmpfs", path.encode(), b"tmpfs", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, options) != 0:
            error = ctypes.get_errno()
            os.rmdir(path)
            raise OSError(error, f"cannot mount the socket folder's tmpfs at {path}: {os.strerror(error)}")
    return path


def remove(path: str) -> None:
    """Unmount (as root) and remove a folder; what is already gone is no error."""
    if os.geteuid() == 0:
        _libc().umount2(path.encode(), _MNT_DETACH)  # EINVAL where nothing is mounted: then a plain folder
    shutil.rmtree(path, ignore_errors=True)


def sweep() -> list[str]:
    """Remove the folders of arena processes that are gone (killed, so they could not); those of
    live arenas are left. The removed paths."""
    try:
        parent = root()
        names = os.listdir(parent)
    except OSError:
        return []
    removed = []
    for name in names:
        owner = name.split("-")
        if len(owner) == 2 and owner[0].isdigit() and not _alive(int(owner[0])):
            path = os.path.join(parent, name)
            remove(path)
            if not os.path.lexists(path):
                removed.append(path)
    return removed


def pin_socket(path: str, uid: int) -> int:
    """An ``O_PATH`` descriptor of the socket at ``path``, which must be a socket owned by ``uid``
    and not a symbolic link (it is not followed); connecting to ``/proc/self/fd/N`` then reaches
    that socket and no other, whatever the program renames later. FileNotFoundError until it
    exists; ValueError (what it is instead) when it is not such a socket."""
    fd = os.open(path, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC)
    info = os.fstat(fd)
    if stat.S_ISSOCK(info.st_mode) and info.st_uid == uid:
        return fd
    os.close(fd)
    kind = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "a socket" if stat.S_ISSOCK(info.st_mode) else \
        "a directory" if stat.S_ISDIR(info.st_mode) else "a file"
    raise ValueError(f"{kind} owned by uid {info.st_uid}, not a socket of the bot's uid {uid}")
