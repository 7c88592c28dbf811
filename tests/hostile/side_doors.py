"""Side doors between sandboxes, tried for real by a hostile program (tests/test_sandbox_side_doors.py).

    python side_doors.py ATTACK [ARG...]

Each attack prints one line ``HOSTILE <attack> succeeded|blocked: <detail>`` (and the keyring's
``add`` its key's number), so that the same code run outside a sandbox (the control) shows that
the mechanism works where nothing contains it:

- ``key-add TEXT``: put TEXT in a key of the user keyring, readable by anyone who knows its
  number (which is printed, as a partner would be told it by a convention);
- ``key-read NUMBER``: read the key of that number (another sandbox's, or one left by a sandbox
  that has ended);
- ``watch PATH SECONDS``: an inotify watch on a file that every sandbox sees read-only (one file
  per card: a watcher learns which cards its partner looks at), waiting for an access;
- ``touch PATH``: open and read it;
- ``nested-tmpfs MIB``: a user and mount namespace of its own, a tmpfs there and MIB of data in it
  (past its ``tmp_size``);
- ``widen``: its CPUs, and a forked child's attempt to run on every CPU of the machine;
- ``fill-socket-folder MIB`` (a ``cmd:`` program): MIB of data written into the folder of
  ``$ARENA_BOT_SOCKET``, then it serves the hostile player there;
- ``link-socket TARGET`` (a ``cmd:`` program): ``bot.sock`` made a symbolic link to TARGET (a
  socket the arena may reach and the bot may not), and nothing served.

Only the standard library and ctypes (the ``cmd:`` attacks serve with cmd_bot.py, beside it).
"""

from __future__ import annotations

import ctypes
import errno
import os
import select
import struct
import sys
import tempfile
import time

PREFIX = "HOSTILE"
_libc = ctypes.CDLL(None, use_errno=True)
# x86-64 system-call numbers and constants (linux/keyctl.h, linux/sched.h)
SYS_ADD_KEY, SYS_KEYCTL = 248, 250
KEY_SPEC_USER_KEYRING = -4
KEYCTL_SETPERM, KEYCTL_READ = 5, 11
CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
IN_ACCESS, IN_OPEN = 0x1, 0x20


def report(attack: str, succeeded: bool, detail: str) -> None:
    print(f"{PREFIX} {attack} {'succeeded' if succeeded else 'blocked'}: {detail}", flush=True)


def _error() -> str:
    number = ctypes.get_errno()
    return f"{errno.errorcode.get(number, number)} ({os.strerror(number)})"


def key_add(text: str) -> None:
    data = text.encode()
    key = _libc.syscall(SYS_ADD_KEY, b"user", b"arena-side-door", data, len(data), KEY_SPEC_USER_KEYRING)
    if key < 0:
        return report("key-add", False, f"add_key: {_error()}")
    if _libc.syscall(SYS_KEYCTL, KEYCTL_SETPERM, key, 0x3F3F3F3F) < 0:  # every right to everyone
        return report("key-add", False, f"keyctl(SETPERM): {_error()}")
    print(f"KEY {key}", flush=True)
    report("key-add", True, f"key {key}")


def key_read(number: str) -> None:
    buffer = ctypes.create_string_buffer(4096)
    size = _libc.syscall(SYS_KEYCTL, KEYCTL_READ, int(number), buffer, len(buffer))
    if size < 0:
        return report("key-read", False, f"keyctl(READ {number}): {_error()}")
    report("key-read", True, buffer.raw[:size].decode(errors="replace"))


def watch(path: str, seconds: str) -> None:
    fd = _libc.inotify_init1(0)
    if fd < 0:
        return report("watch", False, f"inotify_init1: {_error()}")
    if _libc.inotify_add_watch(fd, path.encode(), IN_ACCESS | IN_OPEN) < 0:
        return report("watch", False, f"inotify_add_watch: {_error()}")
    print("WATCHING", flush=True)
    ready, _, _ = select.select([fd], [], [], float(seconds))
    if not ready:
        return report("watch", False, "no event")
    _, mask, _, _ = struct.unpack("iIII", os.read(fd, 4096)[:16])
    report("watch", True, f"event mask {mask:#x} on {path}")


def touch(path: str) -> None:
    with open(path) as handle:
        handle.read()
    report("touch", True, path)


def nested_tmpfs(mib: str) -> None:
    target = tempfile.mkdtemp()
    uid, gid = os.getuid(), os.getgid()
    child = os.fork()
    if child == 0:  # in a child, so that the folder can be removed once its mount is gone with it
        if _libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
            report("nested-tmpfs", False, f"unshare(CLONE_NEWUSER|CLONE_NEWNS): {_error()}")
            os._exit(0)
        for name, text in (("uid_map", f"0 {uid} 1"), ("setgroups", "deny"), ("gid_map", f"0 {gid} 1")):
            with open(f"/proc/self/{name}", "w") as handle:  # `unshare -r`: root of its own namespace
                handle.write(text)
        if False:
            pass
        elif _libc.mount(b"none", target.encode(), b"tmpfs", 0, f"size={int(mib) + 8}m".encode()) != 0:
            report("nested-tmpfs", False, f"mount tmpfs: {_error()}")
        else:
            written = _fill(target, int(mib))
            report("nested-tmpfs", written >= int(mib) << 20, f"{written} bytes in a tmpfs of its own")
        os._exit(0)
    os.waitpid(child, 0)
    os.rmdir(target)


def widen() -> None:
    everything = set(range(os.cpu_count() or 1))
    before = sorted(os.sched_getaffinity(0))
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the child tries: it has what its parent had, and no more
        try:
            os.sched_setaffinity(0, everything)
            message = f"ok {sorted(os.sched_getaffinity(0))}"
        except OSError as exc:
            message = f"error {errno.errorcode.get(exc.errno, exc.errno)} {sorted(os.sched_getaffinity(0))}"
        os.write(write, message.encode())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    answer = os.read(read, 1000).decode()
    widened = answer == f"ok {sorted(everything)}" and len(everything) > len(before)
    report("widen", widened, f"CPUs {before}; a child's sched_setaffinity to {sorted(everything)}: {answer}")


def _fill(folder: str, mib: int) -> int:
    """Write up to ``mib`` MiB in files of 1 MiB (each under any file-size limit); bytes written."""
    written = 0
    chunk = b"x" * (1 << 20)
    for index in range(mib):
        try:
            with open(os.path.join(folder, f"fill-{index}"), "wb") as handle:
                handle.write(chunk)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError:
            break
        written += len(chunk)
    return written


def fill_socket_folder(mib: str) -> None:
    folder = os.path.dirname(os.environ["ARENA_BOT_SOCKET"])
    written = _fill(folder, int(mib))
    for name in os.listdir(folder):  # room again for the socket
        if name.startswith("fill-"):
            os.unlink(os.path.join(folder, name))
    report("fill-socket-folder", written >= int(mib) << 20, f"{written} bytes in {folder}")
    sys.argv = sys.argv[:1]
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import cmd_bot

    sys.exit(cmd_bot.main())


def link_socket(target: str) -> None:
    os.symlink(target, os.environ["ARENA_BOT_SOCKET"])
    report("link-socket", True, f"bot.sock -> {target}")
    time.sleep(60)


ATTACKS = {"key-add": key_add, "key-read": key_read, "watch": watch, "touch": touch, "nested-tmpfs": nested_tmpfs,
           "widen": widen, "fill-socket-folder": fill_socket_folder, "link-socket": link_socket}

if __name__ == "__main__":
    ATTACKS[sys.argv[1]](*sys.argv[2:])
