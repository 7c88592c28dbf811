from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ProtocolVersion(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROTOCOL_VERSION_UNSPECIFIED: _ClassVar[ProtocolVersion]
    PROTOCOL_VERSION_1: _ClassVar[ProtocolVersion]
PROTOCOL_VERSION_UNSPECIFIED: ProtocolVersion
PROTOCOL_VERSION_1: ProtocolVersion

class DescribeRequest(_message.Message):
    __slots__ = ("protocol_version", "arena_version")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    ARENA_VERSION_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    arena_version: str
    def __init__(self, protocol_version: _Optional[int] = ..., arena_version: _Optional[str] = ...) -> None: ...

class BotDescription(_message.Message):
    __slots__ = ("name", "version", "protocol_version", "games", "summary", "ignores", "owner_key")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    IGNORES_FIELD_NUMBER: _ClassVar[int]
    OWNER_KEY_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    protocol_version: int
    games: _containers.RepeatedScalarFieldContainer[str]
    summary: str
    ignores: _containers.RepeatedScalarFieldContainer[str]
    owner_key: str
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., protocol_version: _Optional[int] = ..., games: _Optional[_Iterable[str]] = ..., summary: _Optional[str] = ..., ignores: _Optional[_Iterable[str]] = ..., owner_key: _Optional[str] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("per_decision", "bank", "increment")
    PER_DECISION_FIELD_NUMBER: _ClassVar[int]
    BANK_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_FIELD_NUMBER: _ClassVar[int]
    per_decision: float
    bank: float
    increment: float
    def __init__(self, per_decision: _Optional[float] = ..., bank: _Optional[float] = ..., increment: _Optional[float] = ...) -> None: ...

class StartMatchRequest(_message.Message):
    __slots__ = ("session_id", "match_id", "game", "options_json", "seat", "seating", "time_control", "seed", "settings_json")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEATING_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_JSON_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    match_id: str
    game: str
    options_json: str
    seat: int
    seating: _containers.RepeatedScalarFieldContainer[str]
    time_control: TimeControl
    seed: int
    settings_json: str
    def __init__(self, session_id: _Optional[str] = ..., match_id: _Optional[str] = ..., game: _Optional[str] = ..., options_json: _Optional[str] = ..., seat: _Optional[int] = ..., seating: _Optional[_Iterable[str]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., seed: _Optional[int] = ..., settings_json: _Optional[str] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("session_id", "decision", "legal_actions", "time_left", "bank_left", "seat", "phase", "observation_json")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_LEFT_FIELD_NUMBER: _ClassVar[int]
    BANK_LEFT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_JSON_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    decision: int
    legal_actions: _containers.RepeatedScalarFieldContainer[str]
    time_left: float
    bank_left: float
    seat: int
    phase: str
    observation_json: str
    def __init__(self, session_id: _Optional[str] = ..., decision: _Optional[int] = ..., legal_actions: _Optional[_Iterable[str]] = ..., time_left: _Optional[float] = ..., bank_left: _Optional[float] = ..., seat: _Optional[int] = ..., phase: _Optional[str] = ..., observation_json: _Optional[str] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("action",)
    ACTION_FIELD_NUMBER: _ClassVar[int]
    action: str
    def __init__(self, action: _Optional[str] = ...) -> None: ...

class EndHandRequest(_message.Message):
    __slots__ = ("session_id", "hand_index", "result_json")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    HAND_INDEX_FIELD_NUMBER: _ClassVar[int]
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    hand_index: int
    result_json: str
    def __init__(self, session_id: _Optional[str] = ..., hand_index: _Optional[int] = ..., result_json: _Optional[str] = ...) -> None: ...

class EndMatchRequest(_message.Message):
    __slots__ = ("session_id", "result_json")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    result_json: str
    def __init__(self, session_id: _Optional[str] = ..., result_json: _Optional[str] = ...) -> None: ...

class Ack(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
