"""How the work of a function grows with its input: CPU time at two sizes, as a ratio.

A ratio, not a time: the machine's speed cancels out, and the bound can be generous (input
8x larger: linear work gives about 8, quadratic about 64). The larger run is cut off by a
timer once it is clearly past the bound, so a quadratic regression fails in seconds
instead of running for minutes.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from typing import Any

SCALE = 8  # the larger input is this many times the smaller one
MAX_RATIO = 24.0  # linear (or n log n) stays well below; quadratic is near SCALE**2
_MIN_SAMPLE = 0.01  # seconds of CPU per sample, so timer resolution does not decide


class TooSlow(AssertionError):
    pass


def _cpu(fn: Callable[[Any], object], arg: Any, repeat: int) -> float:
    start = time.process_time()
    for _ in range(repeat):
        fn(arg)
    return time.process_time() - start


def growth(fn: Callable[[Any], object], make: Callable[[int], Any], size: int) -> float:
    """CPU time of ``fn(make(SCALE * size))`` over that of ``fn(make(size))``, best of three."""
    small, large = make(size), make(SCALE * size)
    repeat = 1
    while _cpu(fn, small, repeat) < _MIN_SAMPLE and repeat < 1 << 16:
        repeat *= 2
    base = min(_cpu(fn, small, repeat) for _ in range(3))
    # A wall-clock cut-off per larger sample at twice the bound: a busy machine stretches
    # wall time, not CPU time, and a quadratic run stops well before it would finish.
    allowed = max(2.0, 2 * MAX_RATIO * base)

    def stop(signum: int, frame: object) -> None:
        raise TooSlow(f"{fn.__name__} on {SCALE}x the input ran over {allowed:.1f}s (small input: {base:.4f}s)")

    previous = signal.signal(signal.SIGALRM, stop)
    try:
        samples = []
        for _ in range(3):
            signal.setitimer(signal.ITIMER_REAL, allowed)
            samples.append(_cpu(fn, large, repeat))
            signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return min(samples) / base
