"""Run the built Action image on the Slime scenario, as the runner would, and check the outcome.

The container gets the workspace at /github/workspace, the runner's files under /github, the
INPUT_* / GITHUB_* environment, and reaches the fake GitHub API on the host's loopback. The
assertions are the ones tests/e2e/test_action.py makes of the same scenario run as a subprocess.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))  # the checkout's root, so that `tests` imports as a package

from tests.support.corpus import BASE, HEAD  # noqa: E402
from tests.support.fake_github import FakeGitHub  # noqa: E402
from tests.support.scenario import (  # noqa: E402
    TOKEN,
    check_fixed_outcome,
    check_stale_outcome,
    manifest_of,
    slime_scenario,
)

CONTAINER = REPO_ROOT / ".ci" / "container.sh"


def container_runner(env: dict[str, str], workspace: Path, runner_dir: Path) -> tuple[int, str, str]:
    args = ["bash", str(CONTAINER), "run", str(workspace), "--runner-dir", str(runner_dir)]
    for key, value in env.items():
        args += ["-e", f"{key}={value}"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=600, check=False)
    return done.returncode, done.stdout, done.stderr


def main() -> int:
    if not HEAD.exists() or not BASE.exists():
        print("container e2e: ../shared/corpus is absent; nothing to run against", file=sys.stderr)
        return 1
    tmp = Path(tempfile.mkdtemp(prefix="docsnippets-e2e-"))
    with FakeGitHub(token=TOKEN, max_page_size=3) as fake:
        base_manifest = manifest_of(BASE, tmp)
        pr = slime_scenario(tmp, fake, BASE, HEAD, head_manifest=base_manifest, base_manifest=base_manifest)
        pr.workspace_seen, pr.runner_seen = "/github/workspace", "/github"

        stale = pr.run(container_runner)
        check_stale_outcome(pr, stale)
        print(f"container e2e: stale PR -> exit {stale.code}, 1 comment, {len(stale.annotations)} annotations")

        again = pr.run(container_runner)
        assert again.code == 1 and len(pr.comments()) == 1, (again.code, pr.comments())
        print("container e2e: re-run -> same single comment")

        # The author's fix, with the CLI inside the same image.
        done = subprocess.run(
            ["bash", str(CONTAINER), "run", str(pr.workspace), "--", "update"],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        fixed = pr.run(container_runner)
        check_fixed_outcome(pr, fixed)
        print("container e2e: after `docsnippets update` -> exit 0, comment says fresh")
    print("container e2e: 3 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
