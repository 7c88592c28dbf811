"""The Ray executor: each match is a Ray task, on a local Ray instance or on a cluster.

``RayExecutor(workers)`` starts a Ray instance of its own on this machine with ``workers`` CPUs;
``RayExecutor(workers, address="HOST:PORT")`` joins a running cluster (``ray start --head``), and
``address="ray://HOST:10001"`` joins one through the Ray Client. Either way it has the interface of
every executor: ``run(specs)`` yields ``(spec, outcome)`` as matches finish, ``close()`` ends it.

Each task plays one match with ``play_spec`` from the match's self-contained specification, so
launched bots start on the worker that plays the match. A worker (or a node) that dies mid-match
has its task run again by Ray (``max_retries``); the deal set and every bot are seeded, so the rerun
is the same match. Results are handed back as they finish and stored one by one, and the store rates
them in schedule order: the board is that of a local run of the same file.

What a user of a plain ``ray.init()`` meets on a machine like ours, and what this module does
instead:

- Ray writes under the default temporary folder (``/tmp/ray``) and, for a new local instance with
  token authentication, a token to ``~/.ray/auth_token``. The local instance here gets a temporary
  directory of the run's own (short: Ray's socket paths have a length limit), removed at ``close``;
  its token is made for the run and handed to Ray's processes through the environment, never
  written to the home folder.
- A ``ray_current_cluster`` file left by ``ray stop`` makes a plain ``ray.init()`` try to join a
  cluster that is gone. The local start here never reads it (``address="local"``), and
  ``address="auto"`` checks that the cluster it names answers before joining it.
- Ray replaces 127.0.0.1 by the host's address and may listen on it. The local instance listens
  on loopback only (node address 127.0.0.1, no dashboard), and a loopback cluster address is kept.
- Joining a cluster that is unreachable hangs in Ray for minutes, and one whose token is missing or
  wrong fails after 20 s with "Failed to connect". The address is probed first (two seconds at
  most) and the error says which it is and what to do.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable, Iterator

from arena.errors import ArenaError
from arena.plugins.manager import ENV_PLUGINS
from arena.matches import MatchSpec
from arena.tournaments.executors import play_spec

IN_FLIGHT_PER_CPU = 8  # tasks submitted per CPU: the queued ones keep every worker busy (see docs/performance.md)
MAX_RETRIES = 3  # how many times Ray runs a match again whose worker or node died
LOCAL_OBJECT_STORE_BYTES = 256 * 1024**2  # results are small; Ray's default takes 30% of the memory
PROBE_TIMEOUT = 2.0  # seconds to reach a cluster's address before ray.init is tried
TEMP_PREFIX = "arena-ray-"
SOCKET_PATH_ROOM = 30  # longest temporary root that leaves Ray's socket paths under their limit
GCS_PROBE = "/ray.rpc.NodeInfoGcsService/GetClusterId"  # a head's address: its GCS
CLIENT_PROBE = "/ray.rpc.RayletDriver/ClusterInfo"  # a ray:// address: the Ray Client server
TOKEN_HELP = (
    "give the cluster's token (on the head, `ray get-auth-token` prints it) in RAY_AUTH_TOKEN, "
    "or in a file named by RAY_AUTH_TOKEN_PATH, or in ~/.ray/auth_token"
)


class RayClusterError(ArenaError):
    """Ray cannot be started or the cluster cannot be joined."""


def _import_ray():
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - the runner checks first
        raise RayClusterError(
            "the Ray executor needs Ray: pip install -e '.[ray]' in the arena's checkout"
        ) from exc
    return ray


class RayExecutor:
    """Matches as Ray tasks, on a Ray instance of this run's own or on a running cluster."""

    def __init__(self, workers: int, address: str | None = None, *, max_retries: int = MAX_RETRIES):
        self.ray = _import_ray()
        self.workers = max(1, int(workers or 1))
        self.address = address
        self.max_retries = max_retries
        self.temp_dir: Path | None = None
        self._keep_temp_dir = False
        self._saved_env: dict[str, str | None] = {}
        self._saved_cluster_flag: Any = None
        self._capacity = self.workers
        self._capacity_checked = 0.0
        if self.ray.is_initialized():
            raise RayClusterError("Ray is already initialised in this process; the Ray executor starts its own")
        try:
            if address is None or address == "local":
                self._start_local()
            else:
                self._join(address)
        except BaseException:
            self._teardown()
            raise
        self._task = self.ray.remote(num_cpus=1, max_retries=max_retries, retry_exceptions=False)(play_in_worker)

    # -- running ------------------------------------------------------------------------------
    def run(self, specs: Iterable[MatchSpec]) -> Iterator[tuple[MatchSpec, dict[str, Any]]]:
        """Submit the matches (a bounded number at a time) and yield each as it finishes."""
        ray = self.ray
        queue = list(specs)
        queue.reverse()  # pop() from the end submits in schedule order
        running: dict[Any, MatchSpec] = {}
        failure: tuple[MatchSpec, BaseException] | None = None
        while queue or running:
            if failure is None:
                limit = IN_FLIGHT_PER_CPU * self._cluster_cpus()
                while queue and len(running) < limit:
                    spec = queue.pop()
                    ref = self._task.options(name=f"match-{spec.index}").remote(spec)
                    running[ref] = spec
            if not running:
                break
            done, rest = ray.wait(list(running), num_returns=1, timeout=1.0)
            if done and rest:  # take every other finished one too: one round trip for many
                more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
                done += more
            for ref in done:
                spec = running.pop(ref)
                try:
                    outcome = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    # no new match is started; the ones running still finish and are stored
                    if failure is None:
                        failure = (spec, exc)
                    continue
                yield spec, outcome
        if failure is not None:
            failed, error = failure
            raise RayClusterError(
                f"match {failed.index} failed on the Ray cluster: {_describe(error)}. Every finished match "
                "is stored: running the same command again resumes with the matches not played yet"
            ) from error

    def _cluster_cpus(self) -> int:
        """The CPUs that can play matches: the local instance's, or the cluster's (it may grow)."""
        if self.address is None or self.address == "local":
            return self.workers
        now = time.monotonic()
        if now - self._capacity_checked > 10.0:
            self._capacity_checked = now
            try:
                self._capacity = max(1, int(self.ray.cluster_resources().get("CPU", 1)))
            except Exception:
                pass
        return self._capacity

    def close(self) -> None:
        """Disconnect (a local instance is stopped: its processes end, its folder is removed)."""
        self._teardown()

    # -- a local instance ---------------------------------------------------------------------
    def _start_local(self) -> None:
        ray = self.ray
        self.temp_dir = _make_temp_dir()
        self._keep_loopback()
        self._set_env("RAY_TMPDIR", str(self.temp_dir))  # any default-temp lookup lands in ours
        self._set_env("RAY_USAGE_STATS_ENABLED", "0")  # no prompt, no report: only loopback here
        self._set_env("RAY_ADDRESS", None)  # never join whatever RAY_ADDRESS names
        self._use_run_token()
        try:
            ray.init(
                address="local",  # a new instance: never a ray_current_cluster left by `ray stop`
                num_cpus=self.workers,
                num_gpus=0,
                object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                include_dashboard=False,
                dashboard_host="127.0.0.1",
                _node_ip_address="127.0.0.1",
                _temp_dir=str(self.temp_dir),
                log_to_driver=False,
                logging_level="WARNING",
                namespace="trick-arena",
            )
        except Exception as exc:
            self._keep_temp_dir = True  # for its logs; the next local start removes it
            raise RayClusterError(
                f"could not start a local Ray instance ({_describe(exc)}); its logs are in {self.temp_dir}"
            ) from exc

    def _use_run_token(self) -> None:
        """Token authentication with a token made for this run, passed through the environment
        (a plain local ray.init() would write one to ~/.ray/auth_token)."""
        if not _has_token_auth():
            return
        self._set_env("RAY_AUTH_TOKEN_PATH", None)
        self._set_env("RAY_AUTH_MODE", "token")
        self._set_env("RAY_AUTH_TOKEN", secrets.token_hex(32))
        _reload_auth(self.ray)

    # -- a cluster ----------------------------------------------------------------------------
    def _join(self, address: str) -> None:
        ray = self.ray
        address = address.strip()
        if address == "auto":
            address = _find_running_cluster()
        client = address.startswith("ray://")
        if "://" in address and not client:
            raise RayClusterError(f"--ray-address {address!r}: expected HOST:PORT, ray://HOST:PORT or auto")
        host, port = _split_address(address.removeprefix("ray://"), address)
        if _is_loopback(host):
            self._keep_loopback()
        self._check_cluster(host, port, address, client)
        runtime_env = {"env_vars": {ENV_PLUGINS: os.environ[ENV_PLUGINS]}} if os.environ.get(ENV_PLUGINS) else None
        options: dict[str, Any] = {"log_to_driver": False, "logging_level": "WARNING", "namespace": "trick-arena"}
        if runtime_env:
            options["runtime_env"] = runtime_env
        try:
            ray.init(address=address, **options)
        except Exception as exc:
            raise RayClusterError(f"could not join the Ray cluster at {address}: {_describe(exc)}") from exc
        self._capacity_checked = 0.0

    def _check_cluster(self, host: str, port: int, address: str, client: bool) -> None:
        """Ask the cluster for its id before ray.init: Ray hangs for minutes on an address where
        nothing answers, and fails after 20 s (30 s through the Ray Client) with a message that
        does not say so when the cluster wants a token it was not given."""
        method = CLIENT_PROBE if client else GCS_PROBE
        status = _probe(host, port, method, token=None)
        if status in ("ok", "unknown"):
            return
        if status == "unreachable":
            if client:
                raise RayClusterError(
                    f"cannot reach the Ray cluster at {address}: nothing answers there. Is its head running "
                    "(`ray start --head`), with the Ray Client server on that port (default 10001)?"
                )
            raise RayClusterError(
                f"cannot reach a Ray cluster at {address}: nothing answers there. Start its head with "
                "`ray start --head --port PORT` and give the address it prints (HOST:PORT)"
            )
        # the cluster wants a token: use one if this machine has it
        token = _available_token(self.ray)
        if token is None:
            raise RayClusterError(f"the Ray cluster at {address} requires its authentication token: {TOKEN_HELP}")
        if _probe(host, port, method, token=token) == "unauthenticated":
            raise RayClusterError(
                f"the Ray cluster at {address} refuses the authentication token found here (RAY_AUTH_TOKEN, "
                f"RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token): it is not that cluster's; {TOKEN_HELP}"
            )
        if os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
            self._set_env("RAY_AUTH_MODE", "token")  # Ray does not send a token to an explicit address by itself
            _reload_auth(self.ray)

    # -- the process environment --------------------------------------------------------------
    def _keep_loopback(self) -> None:
        """Keep 127.0.0.1 as it is: Ray otherwise replaces it with the host's address."""
        self._set_env("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # read by Ray's processes at start
        try:
            from ray._private import ray_constants
        except ImportError:  # pragma: no cover - another Ray layout
            return
        if hasattr(ray_constants, "ENABLE_RAY_CLUSTER") and self._saved_cluster_flag is None:
            self._saved_cluster_flag = ray_constants.ENABLE_RAY_CLUSTER
            ray_constants.ENABLE_RAY_CLUSTER = False  # read in this process when an address is resolved

    def _set_env(self, name: str, value: str | None) -> None:
        if name not in self._saved_env:
            self._saved_env[name] = os.environ.get(name)
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value

    def _teardown(self) -> None:
        ray = getattr(self, "ray", None)
        if ray is not None and ray.is_initialized():
            with contextlib.suppress(Exception):
                ray.shutdown()
        auth_changed = any(name.startswith("RAY_AUTH") for name in self._saved_env)
        for name, value in self._saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        self._saved_env = {}
        if auth_changed and ray is not None:
            _reload_auth(ray)
        if self._saved_cluster_flag is not None:
            from ray._private import ray_constants

            ray_constants.ENABLE_RAY_CLUSTER = self._saved_cluster_flag
            self._saved_cluster_flag = None
        if self.temp_dir is not None and not self._keep_temp_dir:
            shutil.rmtree(self.temp_dir, ignore_errors=True)
            self.temp_dir = None


def play_in_worker(spec: "MatchSpec") -> dict[str, Any]:
    """The Ray task: ``play_spec`` in a Ray worker.

    A Ray worker's ``__main__`` is Ray's worker script, which a ``spawn``ed child (each isolated
    bot) would run again, importing all of Ray: half a second for every bot of every match. Hidden
    while the match is played, the child starts as quickly as it does under the local pool.
    """
    main = sys.modules.get("__main__")
    hidden = main.__dict__.pop("__file__", None) if main is not None and getattr(main, "__spec__", None) is None else None
    try:
        return play_spec(spec)
    finally:
        if main is not None and hidden is not None:
            main.__file__ = hidden


# -- helpers ------------------------------------------------------------------------------------


def _make_temp_dir() -> Path:
    """A short folder of this run's own under the system temp (Ray's socket paths, some 70
    characters below it, must stay under about 107), after removing those of runs that died."""
    root = temp_root()
    _remove_stale_dirs(root)
    return Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-", dir=root))


def temp_root() -> Path:
    """The system temporary folder, or /tmp where that is too long a path for Ray's sockets."""
    root = tempfile.gettempdir()
    if len(root) > SOCKET_PATH_ROOM and os.path.isdir("/tmp") and os.access("/tmp", os.W_OK):
        root = "/tmp"
    return Path(root)


def _remove_stale_dirs(root: Path) -> None:
    """Folders of earlier local instances whose arena process is gone (killed before close), and
    the Ray processes of theirs that outlived it (a killed driver's Ray leaves two agents behind)."""
    try:
        entries = list(root.glob(f"{TEMP_PREFIX}*-*"))
    except OSError:
        return
    for entry in entries:
        pid_text = entry.name[len(TEMP_PREFIX):].split("-", 1)[0]
        if not pid_text.isdigit() or not entry.is_dir():
            continue
        try:
            if entry.stat().st_uid != os.getuid():
                continue
            os.kill(int(pid_text), 0)
        except ProcessLookupError:
            _end_processes_of(entry)
            shutil.rmtree(entry, ignore_errors=True)
        except OSError:
            continue


def _end_processes_of(folder: Path) -> None:
    """SIGKILL this user's processes started with RAY_TMPDIR=folder: the Ray processes of a dead
    run (their titles are rewritten; their environment tells them apart). Linux only."""
    marker = f"RAY_TMPDIR={folder}".encode() + b"\0"
    proc = Path("/proc")
    if not proc.is_dir():
        return
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if entry.stat().st_uid != os.getuid():
                continue
            if marker in (entry / "environ").read_bytes():
                os.kill(int(entry.name), signal.SIGKILL)
        except OSError:
            continue


def _has_token_auth() -> bool:
    try:
        # ray/_raylet.pyi declares only a few of the extension's names: these two are in _raylet.so
        from ray._raylet import AuthenticationTokenLoader  # type: ignore[attr-defined]  # noqa: F401  (Ray >= 2.52)
    except ImportError:
        return False
    return True


def _reload_auth(ray: Any) -> None:
    """Make this process see RAY_AUTH_* again (Ray reads them once, into its config and a cache)."""
    try:
        from ray._raylet import AuthenticationTokenLoader, Config  # type: ignore[attr-defined]  # not in its .pyi
    except ImportError:
        return
    with contextlib.suppress(Exception):
        Config.initialize("")
    with contextlib.suppress(Exception):
        AuthenticationTokenLoader.instance().reset_cache()


def _available_token(ray: Any) -> str | None:
    """The token Ray would send: RAY_AUTH_TOKEN, the file RAY_AUTH_TOKEN_PATH names, ~/.ray/auth_token."""
    try:
        from ray._raylet import AuthenticationTokenLoader  # type: ignore[attr-defined]  # not in its .pyi

        loader = AuthenticationTokenLoader.instance()
        loader.reset_cache()
        if loader.has_token(ignore_auth_mode=True):
            token = loader.get_raw_token(ignore_auth_mode=True)
            return token.decode() if isinstance(token, bytes) else str(token)
        return None
    except Exception:
        pass
    if os.environ.get("RAY_AUTH_TOKEN"):
        return os.environ["RAY_AUTH_TOKEN"].strip()
    for path in (os.environ.get("RAY_AUTH_TOKEN_PATH"), Path.home() / ".ray" / "auth_token"):
        if path is None:
            continue
        with contextlib.suppress(OSError):
            text = Path(path).read_text().strip()
            if text:
                return text
    return None


def _probe(host: str, port: int, method: str, token: str | None) -> str:
    """'ok', 'unreachable', 'unauthenticated', or 'unknown' (it answers, but not as we expect:
    then ray.init is left to decide)."""
    import grpc

    target = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    metadata = [("authorization", f"Bearer {token}")] if token else None
    with grpc.insecure_channel(target, options=[("grpc.enable_http_proxy", 0)]) as channel:
        call = channel.unary_unary(method,
                                   request_serializer=lambda data: data, response_deserializer=lambda data: data)
        try:
            call(b"", timeout=PROBE_TIMEOUT, metadata=metadata)
        except grpc.RpcError as exc:
            code = exc.code()
            if code == grpc.StatusCode.UNAUTHENTICATED:
                return "unauthenticated"
            if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                return "unreachable"
            return "unknown"
    return "ok"


def _find_running_cluster() -> str:
    """``auto``: RAY_ADDRESS, else the cluster the last `ray start` on this machine recorded, if it
    still answers (`ray stop` can leave the record behind)."""
    if os.environ.get("RAY_ADDRESS"):
        return os.environ["RAY_ADDRESS"]
    try:
        from ray._common.utils import get_ray_address_file
    except ImportError:  # Ray before 2.4x
        from ray._private.utils import get_ray_address_file
    record = Path(get_ray_address_file(None))
    try:
        address = record.read_text().strip()
    except OSError:
        address = ""
    if not address:
        raise RayClusterError(
            "--ray-address auto: no Ray cluster was started on this machine (`ray start --head`); "
            "give the head's HOST:PORT, or leave out --ray-address to run on a local Ray instance"
        )
    host, port = _split_address(address, address)
    if _probe(host, port, GCS_PROBE, token=None) == "unreachable":
        raise RayClusterError(
            f"--ray-address auto: {record} names {address}, where no cluster answers (a file left by "
            "`ray stop`); start the cluster again, or give its address, or leave out --ray-address to "
            "run on a local Ray instance"
        )
    return address


def _split_address(text: str, original: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit():
        raise RayClusterError(f"--ray-address {original!r}: expected HOST:PORT, ray://HOST:PORT or auto")
    return host, int(port)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _describe(exc: BaseException) -> str:
    """One readable line for a Ray error (the cause of a task's exception, a crash, a timeout)."""
    cause = getattr(exc, "cause", None)
    if isinstance(cause, BaseException):
        exc = cause
    text = str(exc).strip().splitlines()
    first = next((line for line in text if line.strip()), "")
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__
