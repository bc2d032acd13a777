"""Backoff: exponential, capped, bounded in attempts, jitter repeatable with a seeded generator."""

import itertools
import random
from typing import Any

import pytest

from touchd import NO_RETRY, Backoff
from touchd.backoff import RetrySchedule, is_retried


def test_doubles_up_to_the_cap() -> None:
    delays = list(Backoff(initial=0.1, maximum=1.0, attempts=8).delays())
    assert delays == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0])


def test_attempts_bound_the_waits() -> None:
    assert list(NO_RETRY.delays()) == []
    assert len(list(Backoff(attempts=20).delays())) == 19


def test_unbounded_attempts_go_on() -> None:
    delays = list(itertools.islice(Backoff(initial=1, maximum=4, attempts=None).delays(), 100))
    assert len(delays) == 100 and delays[-1] == 4


def test_jitter_shrinks_each_wait_within_its_range_and_repeats_with_a_seed() -> None:
    policy = Backoff(initial=0.1, maximum=1.0, jitter=0.5, attempts=8, random=random.Random(42).random)
    delays = list(policy.delays())
    plain = list(Backoff(initial=0.1, maximum=1.0, attempts=8).delays())
    assert all(0.5 * p <= d <= p for d, p in zip(delays, plain, strict=True))
    assert delays != plain
    again = list(Backoff(initial=0.1, maximum=1.0, jitter=0.5, attempts=8, random=random.Random(42).random).delays())
    assert again == delays


def test_fixed_draw_gives_exact_values() -> None:
    delays = list(Backoff(initial=1, maximum=8, jitter=0.25, attempts=4, random=lambda: 1.0).delays())
    assert delays == [0.75, 1.5, 3.0]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"initial": 0},
        {"initial": 2, "maximum": 1},
        {"multiplier": 0.5},
        {"jitter": 1.5},
        {"jitter": -0.1},
        {"attempts": 0},
    ],
)
def test_nonsense_is_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Backoff(**kwargs)


def test_which_connect_errors_are_retried() -> None:
    import errno

    assert is_retried(OSError(errno.ENOENT, "no such file"))
    assert is_retried(OSError(errno.ECONNREFUSED, "refused"))
    assert is_retried(OSError(errno.EAGAIN, "backlog full"))
    assert not is_retried(OSError(errno.EACCES, "permission denied"))
    assert not is_retried(OSError(errno.ENOTSOCK, "not a socket"))


def test_a_schedule_restarts_only_after_a_connection_that_lived() -> None:
    schedule = RetrySchedule(Backoff(initial=0.1, maximum=1.0, attempts=4, reset_after=2.0))
    assert schedule.attempt_failed() == pytest.approx(0.1)
    assert schedule.connection_ended(lived=1.9) == pytest.approx(0.2)  # short: a failed attempt
    assert schedule.connection_ended(lived=2.0) == 0.0  # lived: at once, and the waits start again
    assert schedule.failures == 0
    assert [schedule.connection_ended(lived=0.0) for _ in range(4)] == pytest.approx([0.1, 0.2, 0.4, None])
    assert schedule.failures == 4
