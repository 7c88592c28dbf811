"""Validation before a version plays (arena/ladder/validation.py, install.py): a smoke match per
declared game, real sandboxes, real broken bots; each is refused with its own reason, the good
ones of every kind become active."""

from __future__ import annotations

import base64
import io
import os
import socket
import tarfile
import time
import zipfile

import pytest

from arena.ladder import accounts, install, submissions, validation
from arena.players import folders
from arena.ladder.accounts import AccountError
from arena.players.sandbox import bwrap
from tests.ladder_bots import harness

pytestmark = pytest.mark.skipif(bwrap() is None, reason="the sandbox needs bubblewrap (bwrap)")


@pytest.fixture
def ladder(tmp_path, registry):
    ladder = harness.make_ladder(tmp_path, registry, per_decision=1.0)
    accounts.register(ladder.store, "alice")
    yield ladder
    assert validation.idle(120)
    ladder.store.close()


def settled(ladder, version, timeout=120.0):
    """The version once its background validation is over."""
    deadline = time.monotonic() + timeout
    while True:
        found = ladder.store.version(version["id"])
        if found["status"] != "validating":
            return found
        assert time.monotonic() < deadline, f"version {version['id']} still validating"
        time.sleep(0.1)


def submitted(ladder, body):
    """Submit as alice; the version once installed and validated (in the ladder's install queue)."""
    return settled(ladder, submissions.submit(ladder, "alice", body))


def module(ladder, name, file, games=("five_hundred",)):
    return settled(ladder, submitted(ladder, harness.python_body(name, harness.HERE / file,
                                                                                   list(games))))


def program_body(name, files, command):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for arcname, data in files.items():
            info = tarfile.TarInfo(arcname)
            info.size = len(data)
            info.mode = 0o644
            archive.addfile(info, io.BytesIO(data))
    return {"name": name, "kind": "program", "games": ["five_hundred"], "command": command,
            "archive_base64": base64.b64encode(buffer.getvalue()).decode()}


def test_a_module_bot_becomes_active_and_plays_from_its_own_site(ladder):
    version = module(ladder, "first", "first_legal.py", ["five_hundred", "fifty_six"])
    assert version["status"] == "active" and version["reason"] == ""
    site = os.path.join(ladder.data_dir, "versions", "first", "1", "site")
    assert version["seat"] == f"pybot:{site}#first_legal:make"
    assert sorted(folders.site_entries(site)) == ["first_legal.py"]


def test_two_submissions_at_once_cannot_both_pass_the_rate_limit(ladder, monkeypatch):
    """The count of an author's versions and the new version are one step: with a limit of one,
    two requests made at the same moment (each installing for a while) give one version and a 429."""
    import threading

    slow = install.install_python
    monkeypatch.setattr(install, "install_python", lambda *args: (time.sleep(0.5), slow(*args))[1])
    ladder.rate_limit = 1
    start, outcomes = threading.Barrier(2), []

    def send(name):
        start.wait()
        try:
            outcomes.append(submissions.submit(ladder, "alice", harness.python_body(
                name, harness.HERE / "first_legal.py", ["five_hundred"]))["status"])
        except AccountError as exc:
            outcomes.append(exc.status)

    threads = [threading.Thread(target=send, args=(name,)) for name in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(map(str, outcomes)) == ["429", "validating"]
    assert len(ladder.store.versions()) == 1


@pytest.mark.parametrize("file, reason", [
    ("raises_at_import.py", "does not start: "),
    ("illegal_moves.py", "illegal answer: "),
    ("too_slow.py", "too slow: "),
])
def test_a_broken_module_is_refused_with_its_cause(ladder, file, reason):
    version = module(ladder, "broken", file)
    assert version["status"] == "refused"
    assert version["reason"].startswith(reason), version["reason"]
    detail = {"raises_at_import.py": "this bot is broken at import", "illegal_moves.py": "is not legal",
              "too_slow.py": "no answer within 1.000 s"}[file]
    assert detail in version["reason"]
    assert ladder.data_dir not in version["reason"] and os.path.realpath(ladder.data_dir) not in version["reason"]


def test_each_declared_game_is_smoke_tested_and_named_in_the_reason(ladder):
    version = module(ladder, "slowpoke", "too_slow.py", ["fifty_six", "five_hundred"])
    assert version["reason"].startswith("fifty_six: too slow: "), version["reason"]


def test_a_module_that_does_not_compile_is_refused_before_its_smoke_match(ladder):
    body = {"name": "syntax", "kind": "python", "games": ["five_hundred"], "filename": "syntax.py",
            "content_base64": base64.b64encode(b"def make(:\n").decode()}
    version = submitted(ladder, body)
    assert version["status"] == "refused" and version["reason"].startswith("does not start: syntax.py does not compile")


def test_a_wheel_is_installed_without_running_it_here_and_names_its_bot(ladder, tmp_path):
    wheel = harness.build_wheel(tmp_path)
    several = submitted(ladder, harness.python_body("pkg", wheel, ["five_hundred"]))
    assert several["status"] == "refused"
    assert "registers 2 bots (sample_first, sample_seeded)" in several["reason"]
    chosen = settled(ladder, submitted(ladder, harness.python_body("pkg", wheel, ["five_hundred"],
                                                                                      bot="sample_first")))
    assert chosen["status"] == "active", chosen["reason"]
    assert chosen["number"] == 2 and chosen["seat"].endswith("#ladder_sample_bot.plugin:make_first")
    site = os.path.join(ladder.data_dir, "versions", "pkg", "2", "site")
    assert os.path.isdir(os.path.join(site, "ladder_sample_bot"))
    assert not os.path.exists(os.path.join(site, "trueskill"))  # its requirements are the arena's: not installed
    import sys

    assert "ladder_sample_bot" not in sys.modules  # never imported by the arena's process
    missing = submitted(ladder, harness.python_body("pkg2", wheel, ["five_hundred"], bot="nope"))
    assert missing["status"] == "refused" and "registers no bot 'nope'" in missing["reason"]
    other = submitted(ladder, harness.python_body("pkg3", wheel, ["all_fours"], bot="sample_first"))
    assert other["status"] == "refused"
    assert other["reason"] == "the bot does not play all_fours: it plays five_hundred, fifty_six"


def test_an_sdist_is_built_in_a_sandbox_then_installed(ladder, tmp_path):
    sdist = harness.build_sdist(tmp_path)
    version = settled(ladder, submitted(ladder, harness.python_body("src", sdist, ["five_hundred"],
                                                                                       bot="sample_seeded")))
    assert version["status"] == "active", version["reason"]
    assert version["seat"].endswith("#ladder_sample_bot.plugin:make_seeded")


def test_a_wheel_that_does_not_install_is_refused_with_pips_reason(ladder, tmp_path):
    version = submitted(ladder, harness.python_body("bad", harness.broken_wheel(tmp_path),
                                                                      ["five_hundred"]))
    assert version["status"] == "refused"
    assert version["reason"].startswith("does not install: ") and ".dist-info" in version["reason"]


def test_a_package_without_trick_arena_entry_points_is_refused(ladder, tmp_path):
    path = tmp_path / "plain-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("plain/__init__.py", "")
        archive.writestr("plain-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: plain\nVersion: 1.0\n")
        archive.writestr("plain-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                         "Tag: py3-none-any\n")
        archive.writestr("plain-1.0.dist-info/RECORD", "")
    version = submitted(ladder, harness.python_body("plain", path, ["five_hundred"]))
    assert version["status"] == "refused" and "no entry point in the trick_arena group" in version["reason"]


def test_a_program_runs_sandboxed_from_its_files(ladder):
    script = (harness.HERE / "program" / "bot.py").read_bytes()
    version = settled(ladder, submitted(ladder, program_body("prog", {"bot.py": script},
                                                                               "python3 bot.py {socket}")))
    assert version["status"] == "active", version["reason"]
    files = os.path.join(ladder.data_dir, "versions", "prog", "1", "files")
    assert version["seat"].startswith(f"program:{os.path.realpath(files)}#") and f"{files}/bot.py" in version["seat"]


def test_a_program_that_exits_at_once_is_refused(ladder):
    body = program_body("mute", {"bot.py": b"import sys\nprint('no server here')\nsys.exit(3)\n"},
                        "python3 bot.py {socket}")
    version = settled(ladder, submitted(ladder, body))
    assert version["status"] == "refused" and version["reason"].startswith("does not start: "), version["reason"]
    assert "no server here" in version["reason"]


@pytest.mark.parametrize("files, command, reason", [
    ({"../escape.py": b"x"}, "python3 escape.py", "a '..' in its path"),
    ({"/etc/evil": b"x"}, "python3 evil", "an absolute path"),
    ({"bot.py": b"x"}, "python3 /etc/passwd {socket}", "is not a file of the program's own"),
    ({"bot.py": b"x"}, "python3 bot.py --port {port}", "{port}"),
])
def test_a_program_archive_or_command_that_reaches_outside_is_refused(ladder, files, command, reason):
    version = submitted(ladder, program_body("outside", files, command))
    assert version["status"] == "refused" and reason in version["reason"], version["reason"]


def test_archive_links_and_sizes_are_refused(tmp_path):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        link = tarfile.TarInfo("link")
        link.type = tarfile.SYMTYPE
        link.linkname = "/etc/passwd"
        archive.addfile(link)
    with pytest.raises(install.InstallError, match="has a link"):
        install.unpack(buffer.getvalue(), tmp_path / "a")
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("big.bin", b"\0" * 100_000)  # compresses to almost nothing
    with pytest.raises(install.InstallError, match="unpacks to more than 50000 bytes"):
        install.unpack(zipped.getvalue(), tmp_path / "b", limit=50_000)
    install.unpack(zipped.getvalue(), tmp_path / "c", limit=200_000)
    assert (tmp_path / "c" / "big.bin").stat().st_size == 100_000


def test_a_grpc_endpoint_is_validated_and_a_dead_one_refused(ladder):
    from arena.players.serve import serve_player
    from tests.ladder_bots.first_legal import make

    server = serve_player(make, name="remote-first", owner_key=accounts.endpoint_key(ladder.store, "alice"))
    try:
        version = settled(ladder, submitted(ladder, {
            "name": "remote", "kind": "grpc", "games": ["five_hundred"], "endpoint": f"grpc://127.0.0.1:{server.port}"}))
    finally:
        server.stop(1.0)
    assert version["status"] == "active", version["reason"]
    key = accounts.endpoint_key(ladder.store, "alice")
    assert version["seat"] == f"grpc://127.0.0.1:{server.port}?owner={key}" and version["path"] == ""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    dead = settled(ladder, submitted(ladder, {
        "name": "dead", "kind": "grpc", "games": ["five_hundred"], "endpoint": f"grpc://127.0.0.1:{port}"}))
    assert dead["status"] == "refused" and dead["reason"].startswith("does not start: "), dead["reason"]
    with pytest.raises(AccountError) as bad:
        submitted(ladder, {"name": "bad", "kind": "grpc", "games": ["five_hundred"],
                                             "endpoint": "http://example:1"})
    assert bad.value.status == 400 and "grpc://HOST:PORT" in str(bad.value) and ladder.store.bot("bad") is None


def test_a_version_left_validating_is_validated_when_the_ladder_starts_again(ladder):
    site = os.path.join(ladder.data_dir, "versions", "later", "1", "site")
    os.makedirs(site)
    with open(os.path.join(site, "first_legal.py"), "wb") as handle:
        handle.write((harness.HERE / "first_legal.py").read_bytes())
    ladder.store.add_bot("later", "alice")
    left = ladder.store.add_version("later", "python", folders.seat_name(site, "first_legal:make"), ["five_hundred"],
                                    "validating", path=os.path.dirname(site))
    threads = validation.resume(ladder)
    assert len(threads) == 1
    assert settled(ladder, left)["status"] == "active"


def test_the_pybot_seat_kind_says_what_is_wrong(tmp_path, registry):
    kind = registry.seat_kinds["pybot"]
    for name, message in ((f"pybot:{tmp_path}", "no '#'"), (f"pybot:{tmp_path}#nocolon", "not a path module:attr"),
                          ("pybot:relative#m:make", "not an absolute path"),
                          (f"pybot:{tmp_path}/missing#m:make", "no such directory")):
        with pytest.raises(Exception, match=message):
            kind.check(name)
    kind.check(f"pybot:{tmp_path}#m:make")


def _hand_wheel(directory, name, files, *, requires=(), entry_points=""):
    """A pure-Python wheel written directly (what `pip wheel` would make of a tiny project, without
    the seconds a pip run takes here)."""
    module = name.replace("-", "_")
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{module}-1.0-py3-none-any.whl"
    info = f"{module}-1.0.dist-info"
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n" + "".join(f"Requires-Dist: {r}\n" for r in requires)
    with zipfile.ZipFile(path, "w") as archive:
        for arcname, text in files.items():
            archive.writestr(arcname, text)
        archive.writestr(f"{info}/METADATA", metadata)
        archive.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        if entry_points:
            archive.writestr(f"{info}/entry_points.txt", entry_points)
        archive.writestr(f"{info}/RECORD", "")
    return path


PLUGIN_WITH_DEP = """from arena.players.base import BotSpec, Player
from arena.plugins import hookimpl
from tests_dep_lib import VALUE


class First(Player):
    def act(self, observation):
        return observation["legal_actions"][VALUE - 1]


def make(settings, seed):
    return First()


@hookimpl
def arena_register_bots():
    return [BotSpec("with_dep", make, "needs a library")]
"""


def test_a_wheels_requirements_are_installed_into_its_own_site_and_a_missing_one_refused(ladder, tmp_path, monkeypatch):
    index = tmp_path / "index"  # the requirements come from a local directory here, as from a package index
    _hand_wheel(index, "tests-dep-lib", {"tests_dep_lib/__init__.py": "VALUE = 1\n"})
    needs = _hand_wheel(tmp_path / "dist", "tests-needs-lib",
                        {"tests_needs_lib/__init__.py": "", "tests_needs_lib/plugin.py": PLUGIN_WITH_DEP},
                        requires=["tests-dep-lib>=1.0", "trick-arena", "trueskill", "pytest ; extra == 'test'"],
                        entry_points="[trick_arena]\ntests_needs_lib = tests_needs_lib.plugin\n")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(index))
    version = settled(ladder, submitted(ladder, harness.python_body("needs", needs, ["five_hundred"])))
    assert version["status"] == "active", version["reason"]
    site = os.path.join(version["path"], "site")
    assert sorted(name for name in os.listdir(site) if not name.endswith(".dist-info")) == ["tests_dep_lib",
                                                                                            "tests_needs_lib"]
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "empty"))
    missing = submitted(ladder, harness.python_body("needs2", needs, ["five_hundred"]))
    assert missing["status"] == "refused" and missing["reason"].startswith("does not install: ")
    assert "tests-dep-lib" in missing["reason"], missing["reason"]


SNOOP = '''"""A submitted bot that looks for what it must not see; it answers garbage if it finds any."""
import os
from arena.players.base import Player

OWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "snoop.py")
TARGETS = {targets!r}


class Snoop(Player):
    def act(self, observation):
        if not os.path.exists(OWN):
            return "!own code missing"
        for target in TARGETS:
            try:
                with open(target, "rb") as handle:
                    handle.read(1)
            except OSError:
                continue
            return "!read " + target
        return observation["legal_actions"][0]


def make(settings, seed):
    return Snoop()
'''


def test_a_python_version_sees_its_own_site_and_not_the_ladders_files(ladder, tmp_path):
    first = module(ladder, "victim", "first_legal.py")
    assert first["status"] == "active"
    victim = os.path.join(first["path"], "site", "first_legal.py")
    targets = [victim, str(tmp_path / "ladder.db"), os.path.abspath(__file__)]
    for target in targets:  # the control: each is there and readable to the arena
        with open(target, "rb") as handle:
            assert handle.read(1)
    body = {"name": "snoop", "kind": "python", "games": ["five_hundred"], "filename": "snoop.py",
            "content_base64": base64.b64encode(SNOOP.format(targets=targets).encode()).decode()}
    version = settled(ladder, submitted(ladder, body))
    assert version["status"] == "active", version["reason"]


PROGRAM_SNOOP = '''import os, sys, threading
from arena.players.base import Player
from arena.players.serve import serve_player

OWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data.txt")
TARGETS = {targets!r}


class Snoop(Player):
    def act(self, observation):
        if open(OWN).read() != "mine":
            return "!own data missing"
        for target in TARGETS:
            try:
                with open(target, "rb") as handle:
                    handle.read(1)
            except OSError:
                continue
            return "!read " + target
        return observation["legal_actions"][0]


def make(settings, seed):
    return Snoop()


if __name__ == "__main__":
    server = serve_player(make, name="snoop", socket_path=sys.argv[1])
    threading.Event().wait()
'''


def test_a_program_sees_its_own_files_and_nothing_else_of_the_ladders(ladder, tmp_path):
    first = module(ladder, "victim", "first_legal.py")
    victim = os.path.join(first["path"], "site", "first_legal.py")
    targets = [victim, str(tmp_path / "ladder.db"), os.path.abspath(__file__)]
    for target in targets:  # the control: each is there and readable to the arena
        with open(target, "rb") as handle:
            assert handle.read(1)
    body = program_body("psnoop", {"bot.py": PROGRAM_SNOOP.format(targets=targets).encode(), "data.txt": b"mine"},
                        "python3 bot.py {socket}")
    version = settled(ladder, submitted(ladder, body))
    assert version["status"] == "active", version["reason"]


def test_the_arenas_failure_while_validating_is_not_the_bots_it_is_validated_again(ladder, monkeypatch):
    """The arena failing every try of a smoke match (its launcher, a sandbox it cannot make) is not
    a reason to refuse the version: it stays 'validating', says why, and is validated again."""
    from arena.ladder import jobs
    from arena.players.hosts import ArenaFailure

    failing = {"left": 2}
    play = validation.play_match

    def arena_fails(*args, **kwargs):
        if failing["left"] > 0:
            failing["left"] -= 1
            raise ArenaFailure("match 0: the arena failed 3 times: cannot start the sandbox: no bwrap")
        return play(*args, **kwargs)

    monkeypatch.setattr(validation, "play_match", arena_fails)
    monkeypatch.setattr(jobs, "ARENA_RETRY_SECONDS", 0.5, raising=False)
    version = submissions.submit(ladder, "alice", harness.python_body("steady", harness.HERE / "first_legal.py",
                                                                       ["five_hundred"]))
    deadline = time.monotonic() + 60
    while (waiting := ladder.store.version(version["id"]))["status"] == "validating" and not waiting["reason"]:
        assert time.monotonic() < deadline, waiting
        time.sleep(0.02)
    assert waiting["status"] == "validating", waiting  # not refused: the arena failed, not the bot
    assert "the arena failed" in waiting["reason"] and "validated again" in waiting["reason"], waiting
    done = settled(ladder, version)
    assert done["status"] == "active" and done["reason"] == "", done


def test_a_refusal_names_no_path_of_the_server(ladder):
    """A program that exits before serving: its reason shows its command as 'python3 ...', not where
    the ladder's Python is installed, nor the ladder's folder."""
    import sys

    version = submitted(ladder, program_body("quits", {"bot.py": b"print('bye')\n"}, "python3 bot.py {socket}"))
    assert version["status"] == "refused" and "before serving" in version["reason"], version
    for path in {sys.executable, os.path.realpath(sys.executable), sys.base_prefix, str(ladder.data_dir)}:
        assert path not in version["reason"], (path, version["reason"])
