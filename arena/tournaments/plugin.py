"""The bundled executors (``local``, ``inline``, ``ray``), registered through the plugin hooks
like a third party's."""

from __future__ import annotations

from typing import Any, Mapping

from arena.errors import ArenaError
from arena.plugins import hookimpl
from arena.tournaments.executors import Executor, ExecutorKind, InlineExecutor, LocalPoolExecutor


def _local(workers: int, options: Mapping[str, Any]) -> Executor:
    return LocalPoolExecutor(workers)


def _inline(workers: int, options: Mapping[str, Any]) -> Executor:
    return InlineExecutor()


def _ray(workers: int, options: Mapping[str, Any]) -> Executor:
    try:
        import ray  # noqa: F401
    except ImportError:
        raise ArenaError("the Ray executor needs Ray, an optional extra: pip install -e '.[ray]' "
                         "in the arena's checkout") from None
    from arena.tournaments.ray_executor import RayExecutor

    return RayExecutor(workers, options.get("ray_address"))


@hookimpl
def arena_register_executors() -> list[ExecutorKind]:
    return [
        ExecutorKind("local", "a process pool on this machine (the default)", _local),
        ExecutorKind("inline", "one match at a time in this process (for debugging)", _inline),
        ExecutorKind("ray", "Ray tasks, on a local Ray instance or the cluster of --ray-address", _ray, arguments=(
            (("--ray-address",), {"metavar": "ADDRESS", "help": "join this Ray cluster (HOST:PORT of its head, "
                                  "ray://HOST:PORT, or auto); implies --executor ray"}),
        )),
    ]
