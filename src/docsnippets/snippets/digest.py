"""SHA-256 without ``hashlib``.

``hashlib`` loads OpenSSL, which costs a short-lived process a few milliseconds and a few
megabytes of memory before it hashes anything; CPython's own built-in SHA-256 module gives
the same digests and loads in a fraction of that. ``hashlib`` remains the fallback for an
interpreter built without it.
"""

from __future__ import annotations

try:
    from _sha2 import sha256  # CPython 3.12 and later
except ImportError:  # pragma: no cover - depends on the interpreter
    try:
        from _sha256 import sha256  # CPython 3.11
    except ImportError:
        from hashlib import sha256

__all__ = ["sha256"]
