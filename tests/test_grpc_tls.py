"""grpcs:// bots: TLS with a self-signed certificate made for the test (openssl), on loopback."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from arena.players.remote import ENV_CA, ENV_CERT, ENV_KEY
from tests.grpc_support import comparable, play, served


def _certificate(directory, name):
    """A self-signed certificate for 127.0.0.1 and localhost: (cert.pem, key.pem)."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is not installed")
    cert, key = directory / f"{name}.pem", directory / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", f"/CN={name}",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True, timeout=60,
    )
    return str(cert), str(key)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tls")
    return {"server": _certificate(directory, "bot"), "client": _certificate(directory, "arena")}


def test_a_tls_bot_plays_with_the_ca_from_the_environment(registry, certificates, monkeypatch):
    cert, key = certificates["server"]
    monkeypatch.setenv(ENV_CA, cert)
    plain = play(registry, ["random", "random"])
    with served(registry.bot("random"), tls_cert=cert, tls_key=key) as server:
        assert server.url.startswith("grpcs://127.0.0.1:")
        result = play(registry, [server.url, "random"])
    assert result.termination.how == "normal" and not result.faults
    assert comparable(result.record) == comparable(plain.record)


def test_an_untrusted_certificate_or_plaintext_is_a_crash_not_a_hang(registry, certificates, monkeypatch):
    cert, key = certificates["server"]
    other, _ = certificates["client"]
    monkeypatch.setenv(ENV_CA, other)  # trusts another certificate only
    with served(registry.bot("random"), tls_cert=cert, tls_key=key) as server:
        untrusted = play(registry, [server.url, "random"])
        plaintext = play(registry, [server.url.replace("grpcs://", "grpc://"), "random"])
    for result in (untrusted, plaintext):
        fault = result.termination.forfeit
        assert fault.kind.value == "crash" and "unreachable" in fault.message and result.winners == [1]


def test_mutual_tls(registry, certificates, monkeypatch):
    cert, key = certificates["server"]
    client_cert, client_key = certificates["client"]
    monkeypatch.setenv(ENV_CA, cert)
    with served(registry.bot("random"), tls_cert=cert, tls_key=key, tls_client_ca=client_cert) as server:
        without = play(registry, [server.url, "random"])
        monkeypatch.setenv(ENV_CERT, client_cert)
        monkeypatch.setenv(ENV_KEY, client_key)
        with_certificate = play(registry, [server.url, "random"])
    assert without.termination.forfeit.kind.value == "crash"
    assert with_certificate.termination.how == "normal" and not with_certificate.faults
