"""A version's files: ``<data_dir>/versions/<bot>/<number>/``, one environment per version.

* python: ``site/`` holds the bot's code, its requirements and nothing else. A wheel is installed
  with ``pip install --no-deps --target site/`` (installing a wheel runs none of its code); an sdist
  is first built into a wheel INSIDE a sandbox (building runs the package's own code); a single
  module is copied in, its factory ``MODULE:make``. The bots a package registers are found
  without importing its code here: its ``trick_arena`` entry points are read from its metadata,
  and a sandboxed inspector (:mod:`arena.ladder.inspect_child`) imports them and lists the bots.
* program: ``files/`` holds the unpacked archive (no absolute paths, no ``..``, no links, a size
  limit); its seat is ``program:FILES#COMMAND`` (:mod:`arena.players.folders`): the command's words
  that name its files resolved inside ``files/``, nothing outside it named, and the sandbox shows
  ``files/`` only.
* grpc: nothing to install; the endpoint is checked by the grpc seat kind.

Every failure is an :class:`InstallError` whose message is the refusal's reason.
"""

from __future__ import annotations

import base64
import binascii
import configparser
import importlib.metadata
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from arena.errors import ArenaError
from arena.players import folders
from arena.players.trust import ARENA_DISTRIBUTION

PIP_TIMEOUT = 300.0  # seconds for one pip run (a build, an install, the requirements' download)
INSPECT_TIMEOUT = 60.0  # seconds for the sandboxed inspector to import the package and list its bots
MAX_UNPACKED = 64 * 1024 * 1024  # bytes of a program's files once unpacked
MAX_MEMBERS = 5000  # files in a program's archive
_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\.py$")
_WHEEL = re.compile(r"^[A-Za-z0-9_.]+-[A-Za-z0-9_.!+]+(-[A-Za-z0-9_.]+){2,3}\.whl$")
_SDIST = re.compile(r"^[A-Za-z0-9_.-]+\.tar\.gz$")
_BUILD_TOOLS = ("pip", "setuptools", "wheel", "packaging", "_distutils_hack")  # seen by an sdist's sandboxed build


class InstallError(ArenaError):
    """A submission that cannot be installed; the message is the reason shown to its author."""


@dataclass(frozen=True)
class Installed:
    seat: str  # the seat name its matches use
    games: tuple[str, ...] | None  # the games its bot says it plays (None: any, or not told)


def version_dir(data_dir: str | os.PathLike[str], bot: str, number: int) -> Path:
    """Absolute: its path is written into the version's seat, which any worker must find."""
    return Path(data_dir).resolve() / "versions" / bot / str(number)


def fresh(directory: Path) -> Path:
    """An empty ``directory`` (what a killed earlier attempt left there is removed), readable to the
    sandboxes' uids."""
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    for path in [directory, *directory.parents][:3]:  # the version's, the bot's and versions/
        os.chmod(path, 0o755)
    return directory


def decode(text: Any, what: str) -> bytes:
    if not isinstance(text, str):
        raise InstallError(f"{what} must be a base64 string")
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise InstallError(f"{what} is not valid base64") from None


# -- pip ------------------------------------------------------------------------------------------

def _last_lines(text: str, count: int = 3) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return " / ".join(lines[-count:]) or "no output"


def _pip(args: list[str], what: str, timeout: float = PIP_TIMEOUT) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q", *args]
    env = {**os.environ, "PIP_NO_INPUT": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise InstallError(f"does not install: {what} took more than {timeout:.0f} s") from None
    if done.returncode != 0:
        raise InstallError(f"does not install: {_last_lines(done.stderr + done.stdout)}")


def _dist_infos(site: Path) -> list[Path]:
    return sorted(site.glob("*.dist-info"))


def _requirements(site: Path, own: Iterable[Path]) -> list[str]:
    """The Requires-Dist of the installed wheel(s) that apply here and that neither the arena nor
    its environment already satisfies (trick-arena itself is always the arena's)."""
    from packaging.requirements import InvalidRequirement, Requirement

    wanted: list[str] = []
    for info in own:
        for text in importlib.metadata.PathDistribution(info).requires or ():
            try:
                requirement = Requirement(text)
            except InvalidRequirement:
                raise InstallError(f"does not install: its requirement {text!r} is not a valid requirement") from None
            if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                continue
            key = requirement.name.lower().replace("_", "-")
            if key == ARENA_DISTRIBUTION:
                continue
            try:
                installed = importlib.metadata.version(requirement.name)
            except importlib.metadata.PackageNotFoundError:
                installed = None
            if installed is not None and requirement.specifier.contains(installed, prereleases=True):
                continue
            wanted.append(str(requirement))
    return wanted


def _install_wheel(wheel: Path, site: Path) -> None:
    _pip(["install", "--no-deps", "--no-compile", "--target", str(site), str(wheel)], "installing the wheel")
    own = _dist_infos(site)
    wanted = _requirements(site, own)
    if wanted:  # wheels only: a requirement's own build would run outside any sandbox
        _pip(["install", "--no-compile", "--only-binary", ":all:", "--target", str(site), *wanted],
             f"installing its requirements ({', '.join(wanted)})")


def _build_sdist(sdist: Path, out: Path) -> Path:
    """Build ``sdist`` into a wheel in ``out``, in a sandbox (its build runs the package's code):
    pip and setuptools of the arena's environment, read-only, no network, ``out`` writable."""
    from arena.players.limits import Limits
    from arena.players.sandbox import Sandbox, python_site, runtime_entries

    entries = dict(runtime_entries())
    for name in _BUILD_TOOLS:  # found, not imported (importing setuptools here would patch distutils)
        found = importlib.util.find_spec(name)
        origin = found.origin if found is not None else None
        if origin and Path(origin).name == "__init__.py":
            entries[name] = str(Path(origin).parent)
    inside_out = "/tmp/arena-build-out"
    inside_sdist = "/tmp/arena-build-in/" + sdist.name
    log = tempfile.TemporaryFile()
    binds, env = python_site(entries)
    sandbox = Sandbox(Limits(cpu_seconds=int(PIP_TIMEOUT), tmp_size=256 * 1024 * 1024),
                      [os.path.realpath(sys.executable), "-B", "-m", "pip", "--disable-pip-version-check",
                       "--no-input", "-q", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                       "--wheel-dir", inside_out, inside_sdist],
                      binds=binds + ["--ro-bind", str(sdist), inside_sdist, "--bind", str(out), inside_out],
                      env={**env, "PIP_NO_CACHE_DIR": "1"}, name="build")
    if sandbox.root:
        os.chown(out, sandbox.uid, sandbox.gid)
    try:
        sandbox.start(stdout=log.fileno())
        code = sandbox.exit_code(wait=PIP_TIMEOUT)
        log.seek(0)
        output = log.read().decode("utf-8", "replace")
        if code is None:
            raise InstallError(f"does not install: building the sdist took more than {PIP_TIMEOUT:.0f} s")
        if code != 0:
            raise InstallError(f"does not install: building the sdist failed: {_last_lines(sandbox.explain(output, code))}")
    finally:
        sandbox.kill()
        log.close()
    wheels = sorted(out.glob("*.whl"))
    if len(wheels) != 1:
        raise InstallError(f"does not install: building the sdist made {len(wheels)} wheels, not one")
    return wheels[0]


# -- finding a package's bots (never importing its code here) -------------------------------------

def plugin_modules(site: Path) -> list[str]:
    """The modules of the ``trick_arena`` entry points of the packages installed in ``site``."""
    modules: list[str] = []
    for info in _dist_infos(site):
        path = info / "entry_points.txt"
        if not path.is_file():
            continue
        parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        try:
            parser.read_string(path.read_text(encoding="utf-8", errors="replace"))
        except configparser.Error as exc:
            raise InstallError(f"does not install: its entry_points.txt does not parse: {exc}") from None
        if parser.has_section("trick_arena"):
            for _, value in parser.items("trick_arena"):
                module = value.split(":")[0].strip()
                if module and module not in modules:
                    modules.append(module)
    return modules


def inspect(site: Path, modules: list[str]) -> list[dict[str, Any]]:
    """The bots the plugin ``modules`` in ``site`` register, found by importing them in a sandbox."""
    from arena.ladder.inspect_child import MARKER
    from arena.players.limits import Limits
    from arena.players.sandbox import Sandbox, python_site, runtime_entries

    binds, env = python_site({**folders.site_entries(str(site)), **runtime_entries()})
    log = tempfile.TemporaryFile()
    sandbox = Sandbox(Limits(), [os.path.realpath(sys.executable), "-S", "-B", "-m", "arena.ladder.inspect_child",
                                 *modules], binds=binds, env=env, name="inspect")
    try:
        sandbox.start(stdout=log.fileno())
        code = sandbox.exit_code(wait=INSPECT_TIMEOUT)
        log.seek(0)
        output = log.read(1024 * 1024).decode("utf-8", "replace")
    finally:
        sandbox.kill()
        log.close()
    if code is None:
        raise InstallError(f"does not start: importing its plugin modules took more than {INSPECT_TIMEOUT:.0f} s")
    found = None
    for line in reversed(output.splitlines()):
        if line.startswith(MARKER):
            try:
                found = json.loads(line[len(MARKER):])
            except ValueError:
                found = None
            break
    if not isinstance(found, dict):
        raise InstallError(f"does not start: {_last_lines(sandbox.explain(output, code))}")
    if "error" in found:
        raise InstallError(f"does not start: {found['error']}")
    bots = found.get("bots")
    if not isinstance(bots, list):
        raise InstallError("does not start: the inspector's answer is not a list of bots")
    return bots


def _choose(bots: list[dict[str, Any]], wanted: str | None) -> dict[str, Any]:
    names = [str(bot.get("name")) for bot in bots]
    if not bots:
        raise InstallError("does not start: the package registers no bot (its trick_arena entry points' "
                           "arena_register_bots returned none)")
    if wanted:
        for bot in bots:
            if bot.get("name") == wanted:
                return bot
        raise InstallError(f"the package registers no bot {wanted!r}; it registers {', '.join(names)}")
    if len(bots) > 1:
        raise InstallError(f"the package registers {len(bots)} bots ({', '.join(names)}): name the one this "
                           "submission is (--bot NAME, \"bot\" in the request)")
    return bots[0]


# -- the three kinds --------------------------------------------------------------------------------

def install_python(directory: Path, filename: str, content: bytes, bot: str | None = None) -> Installed:
    """Install a Python submission (a .whl, an sdist .tar.gz or a .py module) into ``directory/site``."""
    name = os.path.basename(filename or "")
    if name != filename or not (_WHEEL.match(name) or _SDIST.match(name) or _MODULE.match(name)):
        raise InstallError(f"the file name {filename!r} is not a wheel (NAME-VERSION-...-PLATFORM.whl), an sdist "
                           "(NAME-VERSION.tar.gz) or a Python module (NAME.py)")
    fresh(directory)
    site = directory / "site"
    site.mkdir()
    os.chmod(site, 0o755)
    upload = directory / "upload"
    upload.mkdir()
    saved = upload / name
    saved.write_bytes(content)
    if name.endswith(".py"):
        module = name[:-3]
        if module in ("arena", "bots") or module.startswith("trick_arena"):
            raise InstallError(f"the module name {module!r} is the arena's own: rename the file")
        try:
            compile(content, name, "exec")
        except (SyntaxError, ValueError) as exc:
            raise InstallError(f"does not start: {name} does not compile: {exc}") from None
        shutil.copy(saved, site / name)
        os.chmod(site / name, 0o644)
        return Installed(folders.seat_name(str(site), f"{module}:make"), None)
    wheel = saved
    if name.endswith(".tar.gz"):
        built = directory / "build"
        built.mkdir()
        wheel = _build_sdist(saved, built)
    elif not zipfile.is_zipfile(saved):
        raise InstallError(f"does not install: {name} is not a wheel (not a zip archive)")
    _install_wheel(wheel, site)
    modules = plugin_modules(site)
    if not modules:
        raise InstallError("does not start: the package has no entry point in the trick_arena group (add "
                           "[project.entry-points.trick_arena] NAME = \"your_package.plugin\" to its pyproject.toml)")
    chosen = _choose(inspect(site, modules), bot)
    games = chosen.get("games")
    return Installed(folders.seat_name(str(site), str(chosen.get("factory"))),
                     tuple(str(g) for g in games) if isinstance(games, list) else None)


def _member_problem(name: str) -> str | None:
    if name.startswith("/") or os.path.isabs(name):
        return "an absolute path"
    if ".." in Path(name).parts:
        return "a '..' in its path"
    return None


def unpack(archive: bytes, target: Path, limit: int = MAX_UNPACKED) -> None:
    """Unpack a .tar.gz or .zip into ``target``: refused (InstallError) for absolute paths, ``..``,
    links, devices, too many files, or more than ``limit`` bytes unpacked."""
    total = 0
    if zipfile.is_zipfile(io.BytesIO(archive)):
        try:
            zipped = zipfile.ZipFile(io.BytesIO(archive))
        except (zipfile.BadZipFile, EOFError, OSError, ValueError) as exc:
            raise InstallError(f"the archive is damaged: {exc}") from None
        with zipped:
            infos = zipped.infolist()
            if len(infos) > MAX_MEMBERS:
                raise InstallError(f"the archive has {len(infos)} files, over the limit of {MAX_MEMBERS}")
            for info in infos:
                problem = _member_problem(info.filename)
                if (info.external_attr >> 16) & 0o170000 == 0o120000:
                    problem = "a symbolic link"
                if problem:
                    raise InstallError(f"the archive's member {info.filename!r} has {problem}: refused")
                total += info.file_size
                if total > limit:
                    raise InstallError(f"the archive unpacks to more than {limit} bytes, over the limit")
            for info in infos:
                try:  # a member whose sizes or checksum lie is found only as it is read
                    zipped.extract(info, target)
                except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
                    raise InstallError(f"the archive is damaged: its member {info.filename!r}: {exc}") from None
                mode = (info.external_attr >> 16) & 0o777
                if mode and not info.is_dir():
                    os.chmod(target / info.filename, (mode | 0o444) & 0o755)
    else:
        try:
            opened = tarfile.open(fileobj=io.BytesIO(archive), mode="r:*")
        except (tarfile.TarError, EOFError, OSError) as exc:
            raise InstallError(f"the archive is neither a .tar.gz nor a .zip ({exc})") from None
        with opened:
            try:
                members = opened.getmembers()
            except (tarfile.TarError, EOFError, OSError) as exc:
                raise InstallError(f"the archive is damaged: {exc}") from None
            if len(members) > MAX_MEMBERS:
                raise InstallError(f"the archive has {len(members)} files, over the limit of {MAX_MEMBERS}")
            for member in members:
                problem = _member_problem(member.name)
                if member.issym() or member.islnk():
                    problem = "a link"
                elif not (member.isfile() or member.isdir()):
                    problem = "a special file (device, fifo)"
                if problem:
                    raise InstallError(f"the archive's member {member.name!r} has {problem}: refused")
                total += member.size
                if total > limit:
                    raise InstallError(f"the archive unpacks to more than {limit} bytes, over the limit")
            try:
                opened.extractall(target, filter="data")
            except (tarfile.TarError, zlib.error, EOFError, OSError, ValueError) as exc:
                raise InstallError(f"the archive is damaged: {exc}") from None
    for root, dirs, files in os.walk(target):  # readable to the sandbox's uid, writable to nobody but the arena
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o755)
        for name in files:
            path = os.path.join(root, name)
            os.chmod(path, (os.stat(path).st_mode | 0o444) & 0o755)
    os.chmod(target, 0o755)


# {socket} may follow an option's name or a scheme (--socket={socket}, unix:{socket}, unix://{socket})
_SOCKET_WORD = re.compile(r"[A-Za-z0-9_.:=+-]*(//)?\{socket\}")
_PYTHON = re.compile(r"python(3(\.\d+)?)?")


def resolve_command(command: str, files: Path) -> str:
    """The command with every word that names one of ``files``'s files made its resolved absolute
    path, and its program, when named, the system's (under /usr) or the arena's Python. A word that
    names anything outside ``files`` (an absolute path, a ``..``, a link out, another version's
    folder) is refused, whatever it resolves to: the program sees its own folder only."""
    from arena.players.remote import command_argv

    if not isinstance(command, str) or not command.strip():
        raise InstallError("the command is missing (e.g. \"python3 bot.py {socket}\")")
    if "{port}" in command:
        raise InstallError("the command uses {port}, but a program runs in a sandbox without network: it serves "
                           "gRPC on the Unix socket {socket} (also in $ARENA_BOT_SOCKET)")
    try:
        command_argv(command, 0)
        words = shlex.split(command)
    except (ArenaError, ValueError) as exc:
        raise InstallError(str(exc)) from None
    own = os.path.realpath(files)
    outside = ("a command may name its own files (relative to the archive's top, no '..') and system programs "
               "by name (python3, node, sh)")
    resolved = []
    for position, word in enumerate(words):
        if "\0" in word:
            raise InstallError(f"the command's word {word[:60]!r} holds a NUL character")
        if "{socket}" in word:
            if position == 0 or not _SOCKET_WORD.fullmatch(word):
                raise InstallError(f"the command's word {word!r}: {{socket}} may follow an option's name "
                                   "(--socket={socket}, unix:{socket}) and nothing else")
            resolved.append(word)
            continue
        mine = not os.path.isabs(word) and ".." not in Path(word).parts and os.path.lexists(files / word)
        if mine:
            real = os.path.realpath(files / word)
            if real != own and not real.startswith(own + os.sep):
                raise InstallError(f"the command's word {word!r} leads outside the program's own files: {outside}")
            resolved.append(real)
        elif position == 0 and os.sep not in word and word not in (".", ".."):
            resolved.append(_system_program(word))
        elif os.sep in word or word == "..":
            raise InstallError(f"the command's word {word!r} is not a file of the program's own: {outside}")
        else:
            resolved.append(word)  # an argument: nothing the sandbox shows
    return shlex.join(resolved)


def _system_program(word: str) -> str:
    """The resolved path of the program named ``word``: the arena's Python for python3, else the
    system's (under /usr, which every sandbox shows)."""
    if _PYTHON.fullmatch(word):  # the arena's Python: its runtime (gRPC) is importable
        return os.path.realpath(sys.executable)
    found = shutil.which(word)
    real = os.path.realpath(found) if found else None
    if found is None or real is None or not real.startswith("/usr/"):
        raise InstallError(f"the command's program {word!r} is not a system program of this ladder (none under "
                           "/usr): name your own file by its path (./bot) or a system program (python3, node, sh)")
    return found if found.startswith("/usr/") else real  # its own name (sh, not dash): the same file inside


def install_program(directory: Path, archive: bytes, command: str, limit: int = MAX_UNPACKED) -> Installed:
    fresh(directory)
    files = directory / "files"
    files.mkdir()
    unpack(archive, files, limit)
    resolved = resolve_command(command, files)
    from arena.players.remote import command_argv
    from arena.players.sandboxed import command_view

    try:
        command_view(command_argv(resolved, 0), None, own=str(files))
    except ArenaError as exc:
        raise InstallError(f"does not start: {exc}") from None
    return Installed(folders.program_seat_name(str(files), resolved), None)


def check_endpoint(endpoint: Any) -> Installed:
    from arena.plugins import get_registry
    from arena.players.seats import seat_kind_of

    if not isinstance(endpoint, str) or not endpoint.startswith(("grpc://", "grpcs://")):
        raise InstallError(f"the endpoint {endpoint!r} is not grpc://HOST:PORT or grpcs://HOST:PORT")
    kind = seat_kind_of(get_registry(), endpoint)
    if kind is None:
        raise InstallError("no seat kind takes grpc:// here")
    try:
        kind.check(endpoint.strip())
    except ArenaError as exc:
        raise InstallError(str(exc)) from None
    except ValueError as exc:  # what urllib says of e.g. "grpc://[::1" (an unclosed IPv6 address)
        raise InstallError(f"the endpoint {endpoint[:80]!r} is not grpc://HOST:PORT: {exc}") from None
    from arena.players.remote import parse_address

    address = parse_address(endpoint)
    if address.owner_key:
        raise InstallError(f"the endpoint {endpoint!r} is not grpc://HOST:PORT: the ladder adds your endpoint key itself")
    return Installed(f"{address.scheme}://{endpoint_target(endpoint)}", None)


def endpoint_target(endpoint: str) -> str:
    """An endpoint's ``host:port``, normalised (lower case, no trailing dot), whatever its scheme
    and key: the same server is the same target however it is written."""
    from arena.players.remote import parse_address

    address = parse_address(endpoint)
    host = address.host.lower().rstrip(".")
    return f"[{host}]:{address.port}" if ":" in host else f"{host}:{address.port}"
