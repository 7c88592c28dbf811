"""Regenerate the Python code of the wire protocol from ``proto/`` with grpcio-tools.

``python -m arena.protogen`` writes ``arena/v1/player_pb2.py``, ``player_pb2.pyi`` and
``player_pb2_grpc.py`` (``--python_out``, ``--pyi_out``, ``--grpc_python_out`` with ``-Iproto``
into the repository root, so that the import path ``arena.v1`` follows the proto package
``arena.v1``). ``--out DIR`` writes elsewhere; ``--check`` writes nothing and exits 1 when the
committed files differ from what the .proto generates now.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROTO_DIR = ROOT / "proto"
PROTOS = ("arena/v1/player.proto",)
SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py")
# Lines that name the versions of protoc and grpcio-tools, not anything of the .proto.
_VERSION_LINES = re.compile(r"^(# Protobuf Python Version:.*|GRPC_GENERATED_VERSION = .*|\s+\d+,)$", re.M)


def normalized(text: str) -> str:
    """Generated text without its tool-version lines: another grpcio-tools gives the same text."""
    return _VERSION_LINES.sub("", text)


def generated_files(proto: str = PROTOS[0]) -> list[str]:
    """The paths (relative to the output root) generated from one .proto."""
    stem = proto.removesuffix(".proto")
    return [stem + suffix for suffix in SUFFIXES]


def generate(out: Path = ROOT, proto_dir: Path = PROTO_DIR) -> list[Path]:
    """Run protoc (from grpcio-tools) on every .proto; return the files written."""
    from grpc_tools import protoc

    include = resources.files("grpc_tools") / "_proto"
    out.mkdir(parents=True, exist_ok=True)
    args = [
        "grpc_tools.protoc",
        f"-I{proto_dir}",
        f"-I{include}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *PROTOS,
    ]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed: {' '.join(args)}")
    return [out / path for proto in PROTOS for path in generated_files(proto)]


def differences(committed: Path = ROOT) -> list[str]:
    """The generated files whose committed text differs from a fresh generation (empty: in sync).

    Tool-version lines are ignored, so that a newer grpcio-tools does not make the files stale.
    """
    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp))
        return [
            path
            for proto in PROTOS
            for path in generated_files(proto)
            if not (committed / path).is_file()
            or normalized((committed / path).read_text()) != normalized((Path(tmp) / path).read_text())
        ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arena.protogen", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT, help="output root (default: the repository root)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the committed code is stale")
    args = parser.parse_args(argv)
    if args.check:
        stale = differences()
        for path in stale:
            print(f"stale: {path} (run python -m arena.protogen)", file=sys.stderr)
        return 1 if stale else 0
    for written in generate(args.out):
        print(f"wrote {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
