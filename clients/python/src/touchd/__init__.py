"""A client for touchd, the Linux multi-touch daemon: typed touch and gesture events, requests, scene edits.

Blocking (`Client`) and asyncio (`AsyncClient`, in `touchd.aio`) clients share one protocol layer without I/O
(`touchd.protocol`). The socket protocol is docs/protocol.md in the touchd repository.
"""

from .aio import AsyncClient
from .backoff import NO_RETRY, Backoff
from .client import Client
from .errors import (
    BadJSON,
    BadRequest,
    ConnectFailed,
    ConnectionLost,
    InvalidScene,
    LineTooLong,
    NotFound,
    PermissionDenied,
    ProtocolError,
    Refused,
    RequestError,
    TouchdConnectionError,
    TouchdError,
    TouchdTimeout,
    UnknownOp,
)
from .messages import (
    DeviceAdded,
    DeviceInfo,
    DeviceRemoved,
    Event,
    Frame,
    Gesture,
    Goodbye,
    Hello,
    Permissions,
    Reconnected,
    RegionMoved,
    Reply,
    SceneChanged,
    SceneSummary,
    Touch,
    UnknownEvent,
)
from .protocol import DEFAULT_SOCKET_PATH

__version__ = "0.1.0"

__all__ = [
    "AsyncClient",
    "Backoff",
    "BadJSON",
    "BadRequest",
    "Client",
    "ConnectFailed",
    "ConnectionLost",
    "DEFAULT_SOCKET_PATH",
    "DeviceAdded",
    "DeviceInfo",
    "DeviceRemoved",
    "Event",
    "Frame",
    "Gesture",
    "Goodbye",
    "Hello",
    "InvalidScene",
    "LineTooLong",
    "NO_RETRY",
    "NotFound",
    "Permissions",
    "PermissionDenied",
    "ProtocolError",
    "Reconnected",
    "Refused",
    "RegionMoved",
    "Reply",
    "RequestError",
    "SceneChanged",
    "SceneSummary",
    "Touch",
    "TouchdConnectionError",
    "TouchdError",
    "TouchdTimeout",
    "UnknownEvent",
    "UnknownOp",
]
