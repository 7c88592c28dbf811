"""Start a program that dies with the arena, without running Python in a fork of the arena.

The arena's process has threads, gRPC's C-core among them. ``subprocess.Popen`` with a
``preexec_fn`` cannot use ``vfork``: it makes a plain ``fork()`` of that process, which runs gRPC's
fork handlers in the child; they restart its poller, which then finds its descriptors closed by
subprocess (``close_fds``) and aborts the child before ``exec`` (SIGABRT, "epoll_wait error: Bad file
descriptor"): whatever the program was, Python or Node.js, it "exited with code -6 before serving".
Without ``preexec_fn`` subprocess uses ``vfork`` and ``exec`` at once, and no handler runs.

So what used to be done between ``fork`` and ``exec`` is done by this small program instead, in a
fresh interpreter started with ``python -I -S`` (no site, no environment, nothing of the arena
imported), which then replaces itself by the program (same pid)::

    python -I -S launch.py PARENT_PID [--cgroup PROCS_FILE]... [--rlimit RESOURCE:SOFT:HARD]... [--cpu N] -- ARGV...

It moves itself into each cgroup (``cgroup.procs``), sets the rlimits, keeps itself (and so
everything the program starts) to CPU N, asks for SIGKILL when its
parent dies (``PR_SET_PDEATHSIG``), exits at once if its parent (the arena, by pid) already died
before that request, and ``exec``\\ s ARGV. A program that cannot be run is said on its standard
error, with exit code 127 (as a shell does).

The arena builds the command line with :func:`launcher`.
"""

from __future__ import annotations

import os
import sys

CANNOT_RUN = 127  # the exit code of a program that could not be run


def launcher(argv: list[str], *, parent: int | None = None, cgroups: list[str] | tuple[str, ...] = (),
             rlimits: list[tuple[int, tuple[int, int]]] | tuple = (), cpu: int | None = None) -> list[str]:
    """The command line that runs ``argv`` through this launcher (see the module's docstring)."""
    words = [os.path.realpath(sys.executable), "-I", "-S", os.path.abspath(__file__),
             str(os.getpid() if parent is None else parent)]
    for path in cgroups:
        words += ["--cgroup", path]
    for which, (soft, hard) in rlimits:
        words += ["--rlimit", f"{which}:{soft}:{hard}"]
    if cpu is not None:
        words += ["--cpu", str(cpu)]
    return [*words, "--", *argv]


def die_with_parent(parent: int | None = None) -> None:
    """Where the platform allows it (Linux), ask to be killed when the parent process dies. With
    ``parent`` (its pid, as the parent knew it) a process whose parent died before the request was
    made, while it was starting, exits at once instead of living on as an orphan."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass
    if parent is not None and os.getppid() != parent:  # it died before the request: nobody would signal us
        os._exit(1)


def main(args: list[str]) -> None:
    import resource

    end = args.index("--")
    parent, options, argv = int(args[0]), args[1:end], args[end + 1:]
    try:
        for flag, value in zip(options[::2], options[1::2]):
            if flag == "--cgroup":
                with open(value, "w") as procs:
                    procs.write("0")  # this process, and so the program it becomes
            elif flag == "--rlimit":
                which, soft, hard = (int(part) for part in value.split(":"))
                resource.setrlimit(which, (soft, hard))
            elif flag == "--cpu":
                os.sched_setaffinity(0, {int(value)})
    except (OSError, ValueError) as exc:
        os.write(2, f"cannot set up {argv[0]!r}: {flag} {value}: {exc}\n".encode("utf-8", "replace"))
        os._exit(CANNOT_RUN)
    die_with_parent(parent)
    try:
        os.execvp(argv[0], argv)
    except OSError as exc:
        os.write(2, f"cannot run {argv[0]!r}: {exc.strerror}\n".encode("utf-8", "replace"))
        os._exit(CANNOT_RUN)


if __name__ == "__main__":
    main(sys.argv[1:])
