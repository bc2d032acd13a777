"""Error mapping: every protocol error code has its class; unknown codes stay readable."""

import pytest

import touchd
from touchd.errors import ERROR_CLASSES, RequestError, request_error

# docs/protocol.md, "Error codes".
DOCUMENTED = {
    "bad-json": touchd.BadJSON,
    "bad-request": touchd.BadRequest,
    "unknown-op": touchd.UnknownOp,
    "invalid-scene": touchd.InvalidScene,
    "not-found": touchd.NotFound,
    "permission-denied": touchd.PermissionDenied,
    "line-too-long": touchd.LineTooLong,
}


def test_one_class_per_documented_code() -> None:
    assert ERROR_CLASSES == DOCUMENTED
    assert len(set(ERROR_CLASSES.values())) == len(DOCUMENTED)


@pytest.mark.parametrize(("code", "cls"), DOCUMENTED.items())
def test_code_maps_to_class(code: str, cls: type[RequestError]) -> None:
    error = request_error(code, "why", "add-region", 4)
    assert type(error) is cls
    assert isinstance(error, touchd.RequestError) and isinstance(error, touchd.TouchdError)
    assert (error.code, error.message, error.op, error.request_id) == (code, "why", "add-region", 4)
    assert str(error) == f"add-region failed: {code}: why"


def test_unknown_code_is_the_base_class() -> None:
    error = request_error("rate-limited", "slow down")
    assert type(error) is RequestError and error.code == "rate-limited"


def test_connection_and_timeout_errors_are_builtin_kinds_too() -> None:
    lost = touchd.ConnectionLost("touchd closed the connection", touchd.Goodbye("shutdown", "stopping"))
    assert isinstance(lost, touchd.TouchdError)
    assert issubclass(touchd.ConnectionLost, ConnectionError)
    assert str(lost) == "touchd closed the connection: shutdown: stopping"
    in_flight = lost.for_request("set-scene", 3)
    assert (in_flight.op, in_flight.request_id, in_flight.goodbye) == ("set-scene", 3, lost.goodbye)
    assert "may or may not have been carried out" in str(in_flight)
    timeout = touchd.TouchdTimeout("hello", 0.25)
    assert issubclass(touchd.TouchdTimeout, TimeoutError) and str(timeout) == "touchd did not say hello within 250 ms"
    assert str(touchd.TouchdTimeout("get-scene", 10)) == "touchd did not answer 'get-scene' within 10000 ms"
    refused = touchd.Refused(touchd.Goodbye("too-many-clients", "the limit"))
    assert issubclass(touchd.Refused, ConnectionError) and refused.code == "too-many-clients"
