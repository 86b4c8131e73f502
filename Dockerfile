# Container image of the docsnippets GitHub Action.
#
# GitHub runs it as `docker run --workdir /github/workspace -v <repo>:/github/workspace ...`
# with the action's `args:` appended to the ENTRYPOINT below. .ci/container.sh builds and
# runs this same file with buildah on machines without a Docker engine; it reads the FROM
# line and the ENTRYPOINT from here, so keep both in plain form (no build arguments).
#
# Base: python:3.12-slim-bookworm, pinned by the digest it resolved to, so a rebuild gets the
# same image even after the tag moves. To update: `docker pull python:3.12-slim-bookworm`,
# then put the RepoDigest it reports (`docker inspect --format '{{index .RepoDigests 0}}'`) here.
FROM python:3.12-slim-bookworm@sha256:782412e85d0f0984994c290652577d4018aff08145c85b262bb63dc0c7522254

# The package is importable from /app/src without being installed; /opt/venv comes first.
# No extraction cache, also when the image runs as the CLI: on a runner its home directory
# (/github/home) is shared with the job's other steps, which may have run PR code.
ENV PYTHONDONTWRITEBYTECODE=1 \
    DOCSNIPPETS_NO_CACHE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PATH=/opt/venv/bin:$PATH \
    PYTHONPATH=/app/src

# Runtime dependencies before the source, so this layer stays cached while only the source
# changes. Every pin carries the hashes of its files (requirements-action.in says how they are
# made) and pip refuses anything else. Wheels only: every pin ships binary wheels for CPython
# 3.11 and 3.12, so no compiler is needed and none is left behind. `python3`, not `python`:
# the local test base is Debian's python3.
COPY requirements-action.txt /tmp/requirements-action.txt
RUN python3 -m venv /opt/venv \
    && /opt/venv/bin/pip install --no-cache-dir --only-binary=:all: --require-hashes \
        -r /tmp/requirements-action.txt \
    && rm -rf /tmp/requirements-action.txt /root/.cache

# Runs as root on purpose: on GitHub-hosted runners the mounted workspace and the
# GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files belong to the runner, and a non-root user
# cannot write them. GitHub sets the working directory to /github/workspace itself.
# (Metadata before the source COPYs: a source change then rebuilds only the last three layers.)
WORKDIR /github/workspace
ENTRYPOINT ["/opt/venv/bin/python", "/app/entrypoint.py"]

COPY entrypoint.py /app/entrypoint.py
COPY src/ /app/src/
# PYTHONDONTWRITEBYTECODE means a run never writes bytecode, so without this every run
# would compile the package first (measured in the image: 0.05 s of each run).
# unchecked-hash: the image never changes, so its sources' timestamps need no checking.
RUN /opt/venv/bin/python -m compileall -q --invalidation-mode unchecked-hash /app/src
