"""Session: the hello first, ids, replies matched by id among interleaved events, abandoned and lost requests."""

import pytest

from touchd import ConnectionLost, Frame, Goodbye, Hello, NotFound, ProtocolError, Refused, Touch
from touchd.protocol import Answer, Session

HELLO = (
    b'{"type":"hello","protocol":1,"server":"touchd 0.1.0","devices":[],"scene":{"version":1,"width":100,'
    b'"height":100,"regions":0},"permissions":{"subscribe":true,"scene":true}}\n'
)
DOWN = b'{"type":"down","device":"d","finger":1,"slot":0,"time_us":10,"x":1,"y":2}\n'
FRAME = b'{"type":"frame","device":"d","time_us":10}\n'


def opened() -> Session:
    session = Session()
    [hello] = session.receive(HELLO)
    assert isinstance(hello, Hello) and session.hello is hello
    return session


def reply(request_id: object, extra: str = '"ok":true') -> bytes:
    identifier = "" if request_id is None else f'"id":{request_id},'
    return f'{{"type":"reply",{identifier}{extra}}}\n'.encode()


def test_ids_count_up_and_lines_carry_them() -> None:
    session = opened()
    first, second = session.request("ping"), session.request("get-scene")
    assert (first.id, second.id) == (1, 2)
    assert first.data == b'{"op":"ping","id":1}\n'
    assert session.in_flight == {1: "ping", 2: "get-scene"}


def test_replies_matched_by_id_among_events_in_any_order() -> None:
    session = opened()
    ping, scene = session.request("ping"), session.request("get-scene")
    stream = DOWN + reply(scene.id, '"ok":true,"scene":{}') + FRAME + reply(ping.id, '"ok":true,"pong":true')
    items = session.receive(stream)
    assert [type(item) for item in items] == [Touch, Answer, Frame, Answer]
    answers = [item for item in items if isinstance(item, Answer)]
    assert [(a.id, a.op) for a in answers] == [(2, "get-scene"), (1, "ping")]
    assert session.in_flight == {}


def test_error_reply_raises_its_class() -> None:
    session = opened()
    out = session.request("remove-region", {"region": "ghost"})
    [answer] = session.receive(reply(out.id, '"ok":false,"error":{"code":"not-found","message":"no region \'ghost\'"}'))
    assert isinstance(answer, Answer)
    with pytest.raises(NotFound) as raised:
        answer.result()
    assert (raised.value.op, raised.value.request_id, raised.value.message) == ("remove-region", 1, "no region 'ghost'")


def test_reply_without_id_answers_the_oldest_request() -> None:
    # touchd could not read the request (line-too-long): it answers in order, without the id.
    session = opened()
    session.request("set-scene", {"scene": {}})
    session.request("ping")
    [answer] = session.receive(reply(None, '"ok":false,"error":{"code":"line-too-long","message":"m"}'))
    assert isinstance(answer, Answer) and (answer.id, answer.op) == (1, "set-scene")
    assert session.in_flight == {2: "ping"}


def test_reply_to_an_abandoned_request_is_dropped() -> None:
    session = opened()
    late = session.request("ping")
    session.abandon(late.id)
    current = session.request("ping")
    items = session.receive(reply(late.id) + FRAME + reply(current.id))
    assert [type(item) for item in items] == [Frame, Answer]
    assert isinstance(items[1], Answer) and items[1].id == current.id


def test_idless_reply_for_an_abandoned_oldest_request_is_dropped() -> None:
    session = opened()
    session.abandon(session.request("set-scene").id)
    current = session.request("ping")
    assert session.receive(reply(None, '"ok":false,"error":{"code":"line-too-long","message":"m"}')) == []
    [answer] = session.receive(reply(current.id))
    assert isinstance(answer, Answer) and answer.id == current.id


@pytest.mark.parametrize("request_id", [99, '"1"', None])
def test_reply_to_no_request_is_a_protocol_error(request_id: object) -> None:
    session = opened()
    with pytest.raises(ProtocolError, match="no request in flight|which no request"):
        session.receive(reply(request_id))


def test_first_line_must_be_a_hello_of_protocol_1() -> None:
    with pytest.raises(ProtocolError, match="expected a hello first"):
        Session().receive(FRAME)
    with pytest.raises(ProtocolError, match="touchd speaks protocol 2; this client speaks 1"):
        Session().receive(HELLO.replace(b'"protocol":1', b'"protocol":2'))
    with pytest.raises(ProtocolError, match="second hello"):
        opened().receive(HELLO)


def test_goodbye_instead_of_hello_is_refused() -> None:
    session = Session()
    with pytest.raises(Refused) as raised:
        session.receive(b'{"type":"goodbye","code":"permission-denied","message":"uid 65534 is not allowed"}\n')
    assert raised.value.code == "permission-denied"
    assert session.lost is not None


def test_loss_names_the_goodbye_and_the_requests_in_flight() -> None:
    session = opened()
    session.request("ping")
    session.abandon(session.request("devices").id)
    session.request("set-scene", {"scene": {}})
    [goodbye] = session.receive(b'{"type":"goodbye","code":"shutdown","message":"stopping"}\n')
    assert goodbye == Goodbye("shutdown", "stopping")
    lost = session.connection_lost("touchd closed the connection")
    assert lost.goodbye == goodbye
    assert session.take_in_flight() == [(1, "ping"), (3, "set-scene")]
    assert session.take_in_flight() == []
    with pytest.raises(ConnectionLost):
        session.request("ping")


def test_events_split_across_chunks_come_out_whole_and_in_order() -> None:
    session = opened()
    out = session.request("ping")
    stream = DOWN + FRAME + reply(out.id) + DOWN
    items = [item for i in range(len(stream)) for item in session.receive(stream[i : i + 1])]
    assert [type(item) for item in items] == [Touch, Frame, Answer, Touch]
