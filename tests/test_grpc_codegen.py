"""The committed generated code (arena/v1/) matches proto/arena/v1/player.proto."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from importlib.metadata import version

from google.protobuf import descriptor_pb2

from arena import protogen
from arena.v1 import player_pb2, player_pb2_grpc

def _committed_tools_version() -> str:
    return re.search(r"GRPC_GENERATED_VERSION = '([^']+)'", Path(player_pb2_grpc.__file__).read_text()).group(1)


def test_the_committed_descriptor_is_the_one_the_proto_compiles_to(tmp_path):
    """Independent of the grpcio-tools version: the message and service definitions themselves."""
    from grpc_tools import protoc

    out = tmp_path / "player.pb"
    assert protoc.main(["protoc", f"-I{protogen.PROTO_DIR}", f"--descriptor_set_out={out}", *protogen.PROTOS]) == 0
    fresh = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file[0]
    for message in fresh.message_type:  # the generated module leaves out the derived JSON names
        for field in message.field:
            field.ClearField("json_name")
    committed = descriptor_pb2.FileDescriptorProto.FromString(player_pb2.DESCRIPTOR.serialized_pb)
    assert committed == fresh, "arena/v1/player_pb2.py is stale: run python -m arena.protogen"
    grpc_text = Path(player_pb2_grpc.__file__).read_text()
    for method in fresh.service[0].method:
        assert f"'/arena.v1.Player/{method.name}'" in grpc_text, f"player_pb2_grpc.py lacks {method.name}"


def test_regenerating_gives_the_committed_files(tmp_path):
    written = protogen.generate(tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == sorted(protogen.generated_files())
    same_tools = _committed_tools_version() == version("grpcio-tools")
    for relative in protogen.generated_files():
        fresh = (tmp_path / relative).read_text()
        committed = (protogen.ROOT / relative).read_text()
        if relative.endswith(".py"):
            assert "DO NOT EDIT" in committed
        if same_tools:
            assert committed == fresh, f"{relative} is stale: run python -m arena.protogen"
        else:  # another grpcio-tools: its version lines differ, nothing else may
            assert protogen.normalized(committed) == protogen.normalized(fresh), (
                f"{relative} is stale: run python -m arena.protogen")


def test_the_check_command_says_in_sync():
    done = subprocess.run([sys.executable, "-m", "arena.protogen", "--check"], cwd=protogen.ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
