"""The system-call filter of every sandbox: the calls a card bot never needs, denied.

bubblewrap loads it (``--seccomp FD``) into the sandbox's process just before that becomes the
bot's command, so the bot and everything it starts run under it (a seccomp filter is inherited and
can never be removed). The filter is built with libseccomp (the ``pyseccomp`` bindings, see
pyproject.toml) and exported as a BPF program, which the arena writes into an anonymous file
(``memfd``) whose descriptor bwrap reads: nothing runs between the arena's ``fork`` and ``exec``.

A denied call fails with ``EPERM`` (the bot's own error, "Operation not permitted"), not a kill:
a bot whose library probes one of them learns why it failed and may go on. ``clone3`` fails with
``ENOSYS`` instead, whose meaning to the C library is "use ``clone``", which the filter can check
(``clone3``'s flags are in memory a filter cannot read). Any call through another architecture's
entry (a 32-bit ``int 0x80`` on x86-64) kills the process: the list below is of native numbers.
Why each group is denied is said beside it (and in docs/security.md, "Side doors between sandboxes").
"""

from __future__ import annotations

import errno
import functools
import os

# Each group: (why, calls). Names unknown to this machine's libseccomp (an old one, another
# architecture) are skipped: a call the kernel does not have cannot be made either.
DENIED: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the kernel keyring: keys outlive the sandbox and are found by number from any other one",
     ("keyctl", "add_key", "request_key")),
    ("file-change notification: a watch on a shared read-only file sees another sandbox open it",
     ("inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch", "fanotify_init", "fanotify_mark")),
    ("new namespaces (a user namespace of its own would let it mount a tmpfs past tmp_size) and "
     "joining others'", ("unshare", "setns")),
    ("mounts and the root: the sandbox's view is made once, by bubblewrap",
     ("mount", "umount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen", "fsconfig",
      "fsmount", "fspick", "mount_setattr")),
    ("other processes' memory and state",
     ("ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd")),
    ("kernel programs, counters and page-fault handling: large kernel attack surfaces, and "
     "precise timers for side channels", ("bpf", "perf_event_open", "userfaultfd")),
    ("asynchronous I/O rings: a large kernel attack surface (callers fall back to plain I/O)",
     ("io_uring_setup", "io_uring_enter", "io_uring_register")),
    ("widening its CPUs: the bots of a match are kept to one CPU together",
     ("sched_setaffinity",)),
    ("the machine's own settings: kernel images and modules, clocks, swap, accounting, reboot, "
     "the kernel log, quotas, file handles (open_by_handle_at reaches files outside any mount)",
     ("kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "settimeofday",
      "clock_settime", "clock_adjtime", "adjtimex", "swapon", "swapoff", "acct", "reboot", "syslog", "quotactl",
      "quotactl_fd", "name_to_handle_at", "open_by_handle_at", "lookup_dcookie", "vhangup", "iopl", "ioperm",
      "uselib", "ustat", "sysfs", "nfsservctl", "migrate_pages", "move_pages")),
)

# clone's flags that make new namespaces (linux/sched.h): denied, the other flags (threads,
# fork) allowed
CLONE_NAMESPACES = {
    "CLONE_NEWNS": 0x00020000, "CLONE_NEWCGROUP": 0x02000000, "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000, "CLONE_NEWUSER": 0x10000000, "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000, "CLONE_NEWTIME": 0x00000080,
}


def denied_calls() -> list[str]:
    """Every call the filter denies outright (clone with a namespace flag, and clone3, besides)."""
    return [name for _, names in DENIED for name in names]


class FilterUnavailable(Exception):
    """libseccomp (or its Python bindings) is missing: what to install."""


@functools.lru_cache(maxsize=1)
def program() -> bytes:
    """The filter as a BPF program for bubblewrap's ``--seccomp`` (built once per process)."""
    try:
        import pyseccomp as seccomp
    except Exception as exc:  # ImportError, or the bindings' own error when libseccomp.so is missing
        raise FilterUnavailable(f"the sandbox's system-call filter needs libseccomp: install the Debian package "
                                f"`libseccomp2` and the Python package `pyseccomp` ({exc})") from None
    deny = seccomp.ERRNO(errno.EPERM)
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in denied_calls():
        try:
            rules.add_rule(deny, name)
        except (ValueError, OSError):  # not a call of this architecture
            continue
    for flag in CLONE_NAMESPACES.values():
        rules.add_rule(deny, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    fd = os.memfd_create("arena-seccomp-export", 0)
    try:
        with os.fdopen(fd, "w+b", closefd=False) as handle:
            rules.export_bpf(handle)
        os.lseek(fd, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)


def filter_fd() -> int:
    """A fresh descriptor, at offset 0, of an anonymous file holding :func:`program` (bwrap reads
    it to its end): pass it to bwrap in ``pass_fds`` and close it once bwrap is started."""
    fd = os.memfd_create("arena-seccomp", os.MFD_CLOEXEC)
    data = program()
    written = 0
    while written < len(data):
        written += os.write(fd, data[written:])
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
