"""How a client retries a connection: exponential backoff, capped, with optional jitter."""

from __future__ import annotations

import errno
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Final

from .errors import ConnectionLost

RETRIED_CONNECT_ERRNOS: Final = frozenset({errno.ENOENT, errno.ECONNREFUSED, errno.EAGAIN})
"""The socket is not there yet, nobody listens on it, or its backlog is full: touchd is (re)starting or busy.
Anything else (EACCES: not allowed; ENOTSOCK …) will not go away by waiting and is not retried."""


@dataclass(frozen=True, slots=True)
class Backoff:
    """Retry policy for connecting and reconnecting.

    Waits `initial` seconds after the first failed attempt, then `multiplier` times longer each time, never more
    than `maximum`. With `jitter` j (0 to 1) each wait is multiplied by a factor drawn from [1 - j, 1], so that
    clients restarted together do not reconnect in lockstep; `random` draws it (pass `random.Random(seed).random`
    for a repeatable sequence). `attempts` bounds the connection attempts since the last connection that lived;
    None retries without end (the wait is then unbounded: only for programs that have nothing better to do than
    wait for touchd).

    A connection lived when it stayed up `reset_after` seconds, from its hello to the moment the client saw it end.
    Only such a connection starts the waits afresh (and reconnects at once after its loss); one that ended sooner
    counts as a failed attempt, so a peer that says hello and hangs up is retried ever more slowly, not in a loop.
    """

    initial: float = 0.05
    maximum: float = 2.0
    multiplier: float = 2.0
    jitter: float = 0.0
    attempts: int | None = 20
    reset_after: float = 5.0
    random: Callable[[], float] = field(default=random.random, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.initial > 0:
            raise ValueError("Backoff.initial must be positive")
        if not self.maximum >= self.initial:
            raise ValueError("Backoff.maximum must be at least Backoff.initial")
        if not self.multiplier >= 1:
            raise ValueError("Backoff.multiplier must be at least 1")
        if not 0 <= self.jitter <= 1:
            raise ValueError("Backoff.jitter must be between 0 and 1")
        if self.attempts is not None and self.attempts < 1:
            raise ValueError("Backoff.attempts must be at least 1 (or None)")
        if not 0 < self.reset_after < math.inf:
            raise ValueError("Backoff.reset_after must be a positive number of seconds")

    def delays(self) -> Iterator[float]:
        """The waits between attempts: `attempts - 1` of them (endless with `attempts=None`)."""
        delay = self.initial
        produced = 0
        while self.attempts is None or produced < self.attempts - 1:
            factor = 1.0 - self.jitter * self.random() if self.jitter else 1.0
            yield delay * factor
            produced += 1
            delay = min(delay * self.multiplier, self.maximum)


class RetrySchedule:
    """Where a client is in its `Backoff`, across connections: the waits and the attempts left since the last
    connection that lived. The clients tell it what happened and sleep as long as it says; it reads no clock.
    """

    def __init__(self, policy: Backoff) -> None:
        self.policy = policy
        self._delays = policy.delays()
        self.failures = 0
        """Failed attempts (short-lived connections included) since the schedule started afresh."""

    def _restart(self) -> None:
        self._delays = self.policy.delays()
        self.failures = 0

    def attempt_failed(self) -> float | None:
        """A connection attempt failed: the wait before the next one, or None when the policy allows no more."""
        self.failures += 1
        return next(self._delays, None)

    def connection_ended(self, lived: float) -> float | None:
        """A connection ended `lived` seconds after its hello: the wait before the next attempt (0 after a
        connection that lived, which starts the schedule afresh), or None when the policy allows no more."""
        if lived >= self.policy.reset_after:
            self._restart()
            return 0.0
        return self.attempt_failed()


def gave_up(lost: ConnectionLost, schedule: RetrySchedule) -> ConnectionLost:
    """The loss that ends reconnecting: the policy allows no more attempts since the last connection that lived."""
    return ConnectionLost(
        f"{lost.reason}; gave up reconnecting after {schedule.failures} attempts "
        f"(connections that lasted less than {schedule.policy.reset_after:g} s count as failed)",
        lost.goodbye,
    )


NO_RETRY: Final = Backoff(attempts=1)
"""One attempt, no waiting."""


def is_retried(error: OSError) -> bool:
    """Whether a failed connect is worth another attempt (see RETRIED_CONNECT_ERRNOS)."""
    return error.errno in RETRIED_CONNECT_ERRNOS
