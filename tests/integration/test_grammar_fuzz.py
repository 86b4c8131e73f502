"""Differential fuzz: the status the declared Python gives, against ``compile()`` of that Python.

Bodies are real-looking async snippets (PEP 701 and PEP 695 among them) with a few random
edits each, so most are broken in some way. Two comparisons, each of which must find nothing:

* the status docsnippets records under the declared grammar (asked of a child process when the
  running Python is another version) against the definition, computed by a plain script run by
  an interpreter of the declared version: ``parses`` when the body compiles, ``needs-async-wrapper``
  when it compiles only with top-level ``await``, else ``incomplete-signature`` or ``syntax-error``,
  the latter with the message and line of a plain ``compile()``;
* everything a judge says of a body (markers, modules, status, the tokens pairs compare) asked
  in this process against the same asked of a child process of this same Python: the two paths
  the declared version can take give the same facts.

``DOCSNIPPETS_LONG_FUZZ=1`` runs 20,000 bodies instead of 600.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from docsnippets import interpreter
from docsnippets.config import DEFAULT_MODULES, DEFAULT_PYTHON
from docsnippets.snippets import grammar

COUNT = 20_000 if os.environ.get("DOCSNIPPETS_LONG_FUZZ") == "1" else 600
SEEDS = (
    "import asyncio\n\n\nasync def main():\n    await asyncio.sleep(0)\n\n\nasyncio.run(main())\n",
    'user = {"name": "Ada"}\nawait greet(f"{user["name"]}: {user.get("role", "guest")!r:>10}")\n',
    "async def run[T](x: T) -> T:\n    type Pair = tuple[T, T]\n    return await step(x)\n",
    "class Agent:\n    async def reply(self, msg: str) -> str\n\n    async def close(self)\n",
    "async with session.get(url) as resp:\n    async for chunk in resp.content:\n        buf += chunk\n",
    "results = [await f(x) for x in xs]\nreturn results\n",
    "    async def step(self, *args, **kwargs):\n        '''Doc.'''\n        return await super().step(*args)\n",
    "from concurrent.futures import ThreadPoolExecutor\nwith ThreadPoolExecutor() as pool:\n    pool.map(f, xs)\n",
    "try:\n    await job()\nexcept* ValueError as group:\n    log(group)\n",
    "match await fetch():\n    case {'ok': True, **rest}:\n        pass\n",
)
# Bodies that test the way there and back as much as the grammar: characters JSON or a line
# reader treat specially, and a NUL, which 3.12's tokenizer refuses with a SystemError.
HOSTILE = (
    "await x\0y\n",
    "await x\rawait y\r\nasync def f():\r    await z\n",
    "await f('a\u2028b\u2029c\x85d\x0ce')\n",
    'await f("}]\\n\\"", "\\u0000")\n',
    "async def f():\n\tawait g()\n        await h()\n",
    "await f(x) \\\n",
    "\ufeffawait x\n",
)
PIECES = ("(", ")", "[", "]", "{", "}", ":", "'", '"', '"""', 'f"{', "}", "await ", "async ", "def ", "return ",
          "yield ", "lambda ", "\n", "    ", "\t", ",", "=", "*", "**", "->", "@", "\\", "#", "type ", "[T]",
          "case ", "except* ", "nonlocal x\n", "break\n", ":=", "...", "é", 'f"{d["k"]}"', "class ", "if ")  # fmt: skip


def bodies(count: int) -> list[str]:
    rng = random.Random(27)
    out = [*SEEDS, *HOSTILE]
    while len(out) < count:
        chars = list(rng.choice(SEEDS))
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(chars))
            if rng.random() < 0.4 and chars:
                del chars[min(at, len(chars) - 1) : at + rng.randint(1, 5)]
            else:
                chars[at:at] = rng.choice(PIECES)
        out.append("".join(chars))
    return out


# The definition, run by the declared Python; independent of docsnippets.
_DEFINITION = """
import ast, json, sys, textwrap, warnings
warnings.simplefilter("ignore")
def compiles(source, flags):
    try:
        compile(source, "<snippet>", "exec", flags=flags, dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return exc
out = []
for body in json.loads(sys.stdin.read()):
    source = textwrap.dedent(body)
    if compiles(source, 0) is None:
        out.append(["parses"])
    elif compiles(source, ast.PyCF_ALLOW_TOP_LEVEL_AWAIT) is None:
        out.append(["needs-async-wrapper"])
    else:
        error = compiles(source, 0)
        message = getattr(error, "msg", None) or str(error)
        out.append(["neither", message.splitlines()[0], getattr(error, "lineno", None)])
print(json.dumps(out))
"""


def test_status_is_compile_of_the_declared_python():
    declared = (
        Path(sys.executable) if DEFAULT_PYTHON == grammar.RUNNING else interpreter.find(DEFAULT_PYTHON, os.environ)
    )
    if declared is None:
        pytest.skip(f"no Python {DEFAULT_PYTHON}, the declared grammar, on this machine")
    cases = bodies(COUNT)
    done = subprocess.run(
        [str(declared), "-I", "-c", _DEFINITION], input=json.dumps(cases), capture_output=True, text=True, check=True
    )
    expected = json.loads(done.stdout)
    judge = grammar.judge(DEFAULT_PYTHON)
    differences = []
    judged = 0
    for body, want in zip(cases, expected, strict=True):
        status = judge.facts(body, DEFAULT_MODULES).status
        if status is None:  # no marker, no module: not selected, no status recorded
            continue
        judged += 1
        if want[0] == "neither":
            ok = status.status == "incomplete-signature" or [status.message, status.line] == want[1:]
        else:
            ok = status.status == want[0] and status.message is None
        if not ok:
            differences.append((body, status, want))
    assert judged > COUNT // 2
    assert differences == []


def test_a_child_of_the_same_python_says_what_this_process_says():
    child = interpreter.Child(grammar.RUNNING, Path(sys.executable))
    here = grammar.Running()
    differences = []
    for body in bodies(COUNT):
        if child.facts(body, DEFAULT_MODULES) != here.facts(body, DEFAULT_MODULES):
            differences.append(("facts", body))
        if child.comparable(body) != here.comparable(body):
            differences.append(("comparable", body))
    assert differences == []
