"""The exceptions of the touchd client: one class per protocol error code, plus connection and timeout errors.

Every exception the package raises on purpose is a `TouchdError`. The hierarchy::

    TouchdError
    ├── TouchdConnectionError (also a builtin ConnectionError)
    │   ├── ConnectFailed        no connection: socket missing, refused, backlog full (after the retries)
    │   ├── Refused              touchd answered the connection with a goodbye instead of a hello
    │   └── ConnectionLost       the connection ended after the hello (in-flight requests fail with it)
    ├── TouchdTimeout (also a builtin TimeoutError)
    ├── ProtocolError            touchd sent something this client cannot read
    └── RequestError             a reply with "ok": false; one subclass per error code (ERROR_CLASSES)
        ├── BadJSON, BadRequest, UnknownOp, InvalidScene, NotFound, PermissionDenied, LineTooLong
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .messages import Goodbye


class TouchdError(Exception):
    """The base of every error this package raises on purpose."""


class TouchdConnectionError(TouchdError, ConnectionError):
    """The connection could not be made, was refused, or ended."""


class ConnectFailed(TouchdConnectionError):
    """No connection could be made to `path` (after the retries the backoff policy allows).

    `errno` is the last connect error's number (ENOENT: no socket there; ECONNREFUSED: nobody listens; EAGAIN: the
    backlog is full) or None when the failure was not a system error.
    """

    def __init__(self, path: str, reason: str, errno: int | None = None, attempts: int = 1) -> None:
        tries = "" if attempts == 1 else f" (after {attempts} attempts)"
        super().__init__(f"cannot connect to touchd at {path}: {reason}{tries}")
        self.path = path
        self.reason = reason
        self.errno = errno
        self.attempts = attempts


class Refused(TouchdConnectionError):
    """touchd said goodbye instead of hello: `permission-denied` (not in `clients.subscribeGroups`) or
    `too-many-clients`."""

    def __init__(self, goodbye: Goodbye) -> None:
        super().__init__(f"touchd refused the connection: {goodbye.code}: {goodbye.message}")
        self.goodbye = goodbye
        self.code = goodbye.code


class ConnectionLost(TouchdConnectionError):
    """The connection ended: touchd stopped (`goodbye` with code `shutdown`), closed an idle connection, crashed,
    or the socket failed.

    When raised by a request, `op` and `request_id` name the request that was in flight. Such a request may or may
    not have been carried out (the daemon may have applied a scene change and died before its reply): the client
    never resends it on its own, even with reconnect enabled. The caller decides, e.g. by reading the scene.
    """

    def __init__(
        self,
        reason: str,
        goodbye: Goodbye | None = None,
        op: str | None = None,
        request_id: int | None = None,
    ) -> None:
        detail = f"{reason}: {goodbye.code}: {goodbye.message}" if goodbye is not None else reason
        if op is not None:
            detail += f" (request '{op}' id {request_id} was in flight: it may or may not have been carried out)"
        super().__init__(detail)
        self.reason = reason
        self.goodbye = goodbye
        self.op = op
        self.request_id = request_id

    def for_request(self, op: str, request_id: int) -> ConnectionLost:
        """The same loss, naming the request that was waiting for its reply."""
        return ConnectionLost(self.reason, self.goodbye, op, request_id)


class TouchdTimeout(TouchdError, TimeoutError):
    """A bounded wait ran out: `operation` ("connect", "hello", "send", a request's op, "event") did not complete
    within `seconds`."""

    def __init__(self, operation: str, seconds: float) -> None:
        what = {
            "connect": "touchd did not accept the connection",
            "hello": "touchd did not say hello",
            "send": "touchd did not take the request",
            "event": "no event arrived",
        }.get(operation, f"touchd did not answer '{operation}'")
        super().__init__(f"{what} within {seconds * 1000:.0f} ms")
        self.operation = operation
        self.seconds = seconds


class ProtocolError(TouchdError):
    """touchd (or whatever listens on the socket) sent a line this client cannot read: not JSON, not an object, a
    known message without a key it must have, a reply to no request, or a line longer than the client takes."""


class RequestError(TouchdError):
    """A reply with `"ok": false`. `code` and `message` are touchd's; `op` and `request_id` name the request.

    Codes this client does not know (a newer daemon) arrive as this class itself.
    """

    code: str = ""

    def __init__(self, code: str, message: str, op: str = "", request_id: int | None = None) -> None:
        super().__init__(f"{op or 'request'} failed: {code}: {message}")
        self.code = code
        self.message = message
        self.op = op
        self.request_id = request_id


class BadJSON(RequestError):
    """`bad-json`: the request line was not JSON."""

    code = "bad-json"


class BadRequest(RequestError):
    """`bad-request`: a JSON object that is no valid request (a missing or wrong field, an unknown key, a bad id)."""

    code = "bad-request"


class UnknownOp(RequestError):
    """`unknown-op`: touchd does not know the request's `op`."""

    code = "unknown-op"


class InvalidScene(RequestError):
    """`invalid-scene`: the scene change would give an invalid scene; the message names the JSON path. The scene in
    force did not change."""

    code = "invalid-scene"


class NotFound(RequestError):
    """`not-found`: no region with that id."""

    code = "not-found"


class PermissionDenied(RequestError):
    """`permission-denied`: this peer may not change the scene (root and `clients.sceneGroups` may)."""

    code = "permission-denied"


class LineTooLong(RequestError):
    """`line-too-long`: the request line was longer than `clients.maxLineBytes`; the connection stays."""

    code = "line-too-long"


ERROR_CLASSES: Final[dict[str, type[RequestError]]] = {
    cls.code: cls for cls in (BadJSON, BadRequest, UnknownOp, InvalidScene, NotFound, PermissionDenied, LineTooLong)
}


def request_error(code: str, message: str, op: str = "", request_id: int | None = None) -> RequestError:
    """The exception for an error reply: the class of its code, or `RequestError` for a code this client does not
    know."""
    return ERROR_CLASSES.get(code, RequestError)(code, message, op, request_id)
