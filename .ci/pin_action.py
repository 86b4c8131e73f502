"""Point a Docker action's ``runs.image`` at a published image, changing nothing else.

    python .ci/pin_action.py action.yml docker://ghcr.io/OWNER/docsnippets@sha256:<64 hex>
    python .ci/pin_action.py action.yml docker://ghcr.io/OWNER/docsnippets:v1.2.3

The release workflow runs this on its release commit so runners pull the image instead of
building the Dockerfile on every run. Only the characters of the ``image`` value are
replaced (located through the YAML node's position, so comments, quoting elsewhere, key
order and line endings stay byte-identical); the result is parsed again and must differ
from the input in ``runs.image`` alone. Exit 0 when written (or already pinned so), 2 with
one line on stderr when the reference or the file is not acceptable.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

import yaml

# The checkout's own atomic writer (stdlib only), so the release needs no install of the package.
# Only the checkout's: a docsnippets that happens to be installed for this python3 is another version.
_SRC = Path(__file__).resolve().parents[1] / "src"
if not (_SRC / "docsnippets" / "fileio.py").is_file():
    print(
        f"pin_action: {_SRC / 'docsnippets'} is missing; run this script from a checkout of docsnippets",
        file=sys.stderr,
    )
    sys.exit(2)
sys.path.insert(0, str(_SRC))
sys.dont_write_bytecode = True  # the release commits from this checkout: leave no __pycache__ in it
from docsnippets.fileio import write_atomic  # noqa: E402  (after the path above)

_HOST = r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+(?::[0-9]{1,5})?"
_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
_PATH = rf"{_COMPONENT}(?:/{_COMPONENT})*"
_DIGEST = r"@sha256:[0-9a-f]{64}"
_TAG = r":[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}"
IMAGE_REF = re.compile(rf"docker://(?P<host>{_HOST})/(?P<path>{_PATH})(?:{_DIGEST}|{_TAG})")


class PinError(Exception):
    """A one-line reason the rewrite was refused."""


def validate_ref(ref: str) -> str:
    """The reference itself, when it names a registry image by digest or tag."""
    if not IMAGE_REF.fullmatch(ref):
        raise PinError(
            f"{ref!r} is not an image reference; use docker://HOST/PATH@sha256:<64 hex> or docker://HOST/PATH:TAG"
        )
    return ref


def _image_node(text: str, name: str) -> yaml.ScalarNode:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise PinError(f"{name}: not valid YAML ({type(exc).__name__})") from None
    runs = _child(root, "runs")
    using = _child(runs, "using")
    if not isinstance(using, yaml.ScalarNode) or using.value != "docker":
        raise PinError(f"{name}: runs.using is not 'docker'; only a Docker action has an image to pin")
    image = _child(runs, "image")
    if not isinstance(image, yaml.ScalarNode) or image.start_mark.line != image.end_mark.line:
        raise PinError(f"{name}: runs.image is not a one-line string")
    return image


def _child(node: yaml.Node | None, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return v
    return None


def pin(text: str, ref: str, name: str = "action.yml") -> str:
    """``text`` with runs.image replaced by ``ref``; every other byte unchanged."""
    validate_ref(ref)
    node = _image_node(text, name)
    start, end = node.start_mark.index, node.end_mark.index
    result = text[:start] + ref + text[end:]
    before = yaml.safe_load(text)
    before["runs"]["image"] = ref
    try:
        after = yaml.safe_load(result)
    except yaml.YAMLError:
        after = None
    if before != after:
        raise PinError(f"{name}: replacing runs.image would change more than runs.image; edit it by hand")
    return result


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        usage = "usage: pin_action.py ACTION_YML docker://HOST/PATH@sha256:<64 hex> | docker://HOST/PATH:TAG"
        print(usage, file=sys.stderr)
        return 2
    path, ref = Path(args[0]), args[1]
    try:
        # newline="" semantics: bytes in, bytes out, so CRLF files keep their line endings.
        text = path.read_bytes().decode("utf-8")
        result = pin(text, ref, str(path))
    except OSError as exc:
        print(f"pin_action: {path}: cannot read ({exc.strerror})", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"pin_action: {path}: not UTF-8", file=sys.stderr)
        return 2
    except PinError as exc:
        print(f"pin_action: {exc}", file=sys.stderr)
        return 2
    if result != text:
        write_atomic(path, result.encode("utf-8"), root=None)  # the file the maintainer named
    print(f"pin_action: {path}: runs.image is {ref}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
