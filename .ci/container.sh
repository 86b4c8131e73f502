#!/usr/bin/env bash
# Build and run the Action's Dockerfile without a Docker engine or an image registry.
#
#   .ci/container.sh build
#       Installs buildah/debootstrap if missing, builds a local Debian 12 base rootfs with
#       debootstrap (reused on reruns) with this machine's Python of the FROM line's version
#       (pyenv's or uv's) as its python3, imports it into buildah storage under the name the
#       Dockerfile's FROM line asks for, and builds the Dockerfile into $IMAGE.
#   .ci/container.sh run WORKSPACE_DIR [--runner-dir DIR] [-e NAME=VALUE|-e NAME ...]
#                        [-v HOST:CONTAINER[:OPTS] ...] [-- ARGS...]
#       Runs the image's ENTRYPOINT (read from the image) + ARGS the way GitHub runs a Docker
#       action: WORKSPACE_DIR mounted at /github/workspace and used as the working directory,
#       DIR/{home,workflow,file_commands} mounted at /github/{home,workflow,file_commands}
#       (a throwaway directory when --runner-dir is not given), HOME=/github/home, only the
#       given environment variables (`-e NAME` copies NAME from this shell), host network
#       (127.0.0.1 inside is the host's). Exits with the container's exit code (125 when
#       container.sh itself fails, as docker run does).
#   .ci/container.sh clean
#       Removes the work directory (rootfs, storage, logs): about 1.5 GB with vfs.
#
# Environment: DOCSNIPPETS_CONTAINER_DIR (work dir, default /tmp/docsnippets-container),
# DOCSNIPPETS_IMAGE (default localhost/docsnippets-action:test), DEBIAN_MIRROR,
# DOCSNIPPETS_STORAGE_DRIVER (vfs, the default, or overlay),
# DOCSNIPPETS_CONTAINER_QUIET=1 (no timing lines). Timings and errors go to stderr.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${DOCSNIPPETS_CONTAINER_DIR:-/tmp/docsnippets-container}
IMAGE=${DOCSNIPPETS_IMAGE:-localhost/docsnippets-action:test}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
BASE_PACKAGES=python3,python3-venv,python3-pip,ca-certificates
LOCAL_BASE=localhost/docsnippets-pybase:$SUITE
ROOTFS=$WORK/rootfs
LOGS=$WORK/logs
# vfs works everywhere but copies the whole image for every container and layer;
# DOCSNIPPETS_STORAGE_DRIVER=overlay is much faster where the kernel allows it.
DRIVER=${DOCSNIPPETS_STORAGE_DRIVER:-vfs}
B=(buildah --root "$WORK/storage-$DRIVER" --runroot "$WORK/runroot-$DRIVER" --storage-driver "$DRIVER")

say() { printf 'container.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 125; } # 125, like docker run's own errors
now() { date +%s.%N; }
timing() { # NAME START
    [[ ${DOCSNIPPETS_CONTAINER_QUIET:-0} == 1 ]] && return 0
    say "$(awk -v a="$2" -v b="$(now)" -v n="$1" 'BEGIN { printf "%-10s %6.1f s", n, b - a }')"
}

# quietly NAME CMD...: run CMD with its output in $LOGS/NAME.log, shown only on failure.
quietly() {
    local name=$1 rc=0
    shift
    mkdir -p "$LOGS"
    "$@" >"$LOGS/$name.log" 2>&1 || rc=$?
    if ((rc != 0)); then
        say "$name failed (exit $rc); last lines of $LOGS/$name.log:"
        tail -n 40 "$LOGS/$name.log" >&2
        exit "$rc"
    fi
}

ensure_tools() {
    command -v buildah >/dev/null && command -v debootstrap >/dev/null && return 0
    local t
    t=$(now)
    ((EUID == 0)) || die "buildah/debootstrap missing and not root to install them"
    export DEBIAN_FRONTEND=noninteractive
    quietly apt-update apt-get update -qq
    quietly apt-install apt-get install -y -qq buildah debootstrap
    timing apt-install "$t"
}

# The image the Dockerfile builds FROM (first FROM line; options and `AS name` skipped).
from_image() {
    local line word
    local -a words
    line=$(grep -m1 -iE '^[[:space:]]*FROM[[:space:]]' "$REPO/Dockerfile") \
        || die "no FROM line in $REPO/Dockerfile"
    read -r -a words <<<"$line"
    for word in "${words[@]:1}"; do
        [[ $word == --* ]] && continue
        [[ $word == *'$'* ]] && die "FROM uses a build argument ($word): cannot resolve it"
        printf '%s\n' "$word"
        return 0
    done
    die "cannot parse: $line"
}

have_image() { "${B[@]}" inspect --type image "$1" >/dev/null 2>&1; }

# The Python version an official image's name carries (python:3.12-slim-… -> 3.12), or nothing.
image_python() { [[ $1 =~ ^python:([0-9]+\.[0-9]+)- ]] && printf '%s' "${BASH_REMATCH[1]}"; }

# The newest installation of Python VERSION on this machine, pyenv's then uv's, or nothing.
host_python() {
    local v=$1 dir root
    for root in "${PYENV_ROOT:-$HOME/.pyenv}/versions/$v" "${UV_PYTHON_INSTALL_DIR:-$HOME/.local/share/uv/python}/cpython-$v"; do
        for dir in "$root".[0-9]*; do
            [[ $dir == *t || $dir == *freethreaded* || ! -x $dir/bin/python$v ]] || printf '%s\n' "$dir"
        done | sort -V | tail -n 1 | grep . && return 0
    done
    return 0
}

# Python VERSION from the installation HOME into the rootfs as its python3, as the official
# images have it: Debian 12's own python3 is 3.11, and docsnippets judges by the image's Python.
# It keeps its own path, to which its shared library is linked, without its tests and installed
# packages; pip trusts the CA bundle the build mounts, as Debian's pip does.
add_python() { # VERSION HOME
    local v=$1 home=$2 name
    tar -C / --exclude="${home#/}/lib/python$v/test" --exclude="${home#/}/lib/python$v/site-packages/*" \
        -cf - "${home#/}" | tar -C "$ROOTFS" -xpf -
    for name in python3 python "python$v"; do
        ln -sfn "$home/bin/python$v" "$ROOTFS/usr/local/bin/$name"
    done
    printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' >"$ROOTFS/etc/pip.conf"
}

# Sets ROOTFS_FRESH=1 when it (re)built the rootfs, 0 when it reused one.
build_rootfs() { # FROM_IMAGE
    local marker=$ROOTFS/.docsnippets-rootfs version home=""
    version=$(image_python "$1")
    [[ -z $version ]] || home=$(host_python "$version")
    local want="$SUITE minbase $BASE_PACKAGES ${home:-debian-python3}"
    ROOTFS_FRESH=0
    if [[ -f $marker && $(<"$marker") == "$want" ]]; then
        return 0
    fi
    local t
    t=$(now)
    rm -rf "$ROOTFS"
    mkdir -p "$WORK"
    quietly debootstrap debootstrap --variant=minbase --include="$BASE_PACKAGES" \
        "$SUITE" "$ROOTFS" "$DEBIAN_MIRROR"
    # Keep the image small: apt lists and the .deb cache are not needed at run time.
    rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/*
    if [[ -n $home ]]; then
        add_python "$version" "$home"
    elif [[ -n $version ]]; then
        say "no Python $version from pyenv or uv here: the image gets Debian's python3, and judges through a python$version it cannot find"
    fi
    printf '%s' "$want" >"$marker"
    ROOTFS_FRESH=1
    timing debootstrap "$t"
}

import_base() { # FROM_IMAGE FORCE
    local from=$1 force=$2 t ctr mnt
    t=$(now)
    if [[ $force == 1 ]] || ! have_image "$LOCAL_BASE"; then
        "${B[@]}" rmi -f "$LOCAL_BASE" >/dev/null 2>&1 || true
        # buildah has no `import`: fill a scratch container from the rootfs and commit it,
        # with the environment the official python images set.
        ctr=$("${B[@]}" from --name docsnippets-import-$$ scratch)
        mnt=$("${B[@]}" mount "$ctr")
        tar -C "$ROOTFS" --exclude=./.docsnippets-rootfs -cf - . | tar -C "$mnt" -xpf -
        "${B[@]}" umount "$ctr" >/dev/null
        "${B[@]}" config \
            --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            --env LANG=C.UTF-8 --cmd python3 "$ctr"
        quietly import "${B[@]}" commit --rm "$ctr" "$LOCAL_BASE"
    fi
    quietly tag "${B[@]}" tag "$LOCAL_BASE" "$from"
    timing import "$t"
}

cmd_build() {
    [[ -f $REPO/Dockerfile ]] || die "no Dockerfile in $REPO"
    ensure_tools
    local from tag t dockerfile=$REPO/Dockerfile
    from=$(from_image)
    # A digest names one registry image, which the local base is not: the local base takes
    # the tag's name, and the build reads a copy of the Dockerfile whose FROM names the tag.
    tag=${from%@*}
    build_rootfs "$tag"
    import_base "$tag" "$ROOTFS_FRESH"
    if [[ $tag != "$from" ]]; then
        dockerfile=$WORK/Dockerfile.local
        awk -v from="$from" -v tag="$tag" \
            '!done && toupper($1) == "FROM" { for (i = 2; i <= NF; i++) if ($i == from) { $i = tag; done = 1 } } { print }' \
            "$REPO/Dockerfile" >"$dockerfile"
    fi
    t=$(now)
    # --pull=never: the FROM image is the local base, never a registry's.
    # The CA bundle is mounted so that pip inside RUN can verify the package index.
    quietly bud "${B[@]}" bud --isolation chroot --layers --pull=never \
        -v /etc/ssl/certs:/etc/ssl/certs:ro \
        -f "$dockerfile" -t "$IMAGE" "$REPO"
    timing bud "$t"
    # Drop images no tag needs any more (earlier builds); the layer cache of this one stays.
    t=$(now)
    quietly prune "${B[@]}" rmi --prune
    timing prune "$t"
}

RUN_CTR="" RUN_TMP=""
run_cleanup() {
    [[ -n $RUN_CTR ]] && { "${B[@]}" rm "$RUN_CTR" >/dev/null 2>&1 || true; }
    [[ -n $RUN_TMP ]] && rm -rf "$RUN_TMP"
    return 0
}

cmd_run() {
    (($# >= 1)) || die "usage: $0 run WORKSPACE_DIR [--runner-dir DIR] [-e NAME=VALUE ...] [-v HOST:CTR ...] [-- ARGS...]"
    local ws runner_dir="" tmp_runner="" name
    ws=$(cd "$1" && pwd) || die "no workspace directory: $1"
    shift
    local -a envs=(-e HOME=/github/home) vols=() args=()
    while (($#)); do
        case $1 in
        -e | --env)
            (($# >= 2)) || die "$1 needs NAME=VALUE"
            if [[ $2 == *=* ]]; then
                envs+=(-e "$2")
            else
                name=$2
                [[ -n ${!name+set} ]] || die "-e $name: not set in this environment"
                envs+=(-e "$name=${!name}")
            fi
            shift 2
            ;;
        -v | --volume)
            (($# >= 2)) || die "$1 needs HOST:CONTAINER"
            vols+=(-v "$2")
            shift 2
            ;;
        --runner-dir)
            (($# >= 2)) || die "$1 needs a directory"
            runner_dir=$2
            shift 2
            ;;
        --)
            shift
            args=("$@")
            break
            ;;
        *) die "run: unknown option $1 (container arguments go after --)" ;;
        esac
    done
    have_image "$IMAGE" || die "image $IMAGE not built: run '$0 build' first"

    local -a entrypoint=()
    mapfile -t entrypoint < <("${B[@]}" inspect --type image \
        --format '{{range .OCIv1.Config.Entrypoint}}{{println .}}{{end}}' "$IMAGE")
    ((${#entrypoint[@]})) || die "image $IMAGE has no ENTRYPOINT"
    if ((${#args[@]} == 0)); then # Docker semantics: no arguments given -> the image's CMD
        mapfile -t args < <("${B[@]}" inspect --type image \
            --format '{{range .OCIv1.Config.Cmd}}{{println .}}{{end}}' "$IMAGE")
    fi

    if [[ -z $runner_dir ]]; then
        tmp_runner=$(mktemp -d "${TMPDIR:-/tmp}/docsnippets-runner.XXXXXX")
        runner_dir=$tmp_runner
    fi
    mkdir -p "$runner_dir"/{home,workflow,file_commands}
    runner_dir=$(cd "$runner_dir" && pwd)

    local t rc=0
    t=$(now)
    RUN_TMP=$tmp_runner
    trap run_cleanup EXIT
    RUN_CTR=$("${B[@]}" from --pull=never --name "docsnippets-run-$$-$RANDOM" "$IMAGE" 2>/dev/null) \
        || die "cannot create a container from $IMAGE"
    # buildah reports a non-zero exit on stderr ("subprocess exited with status N" twice,
    # "Error: exit status N"); drop those lines so stderr is the container's own.
    set +e
    {
        "${B[@]}" run --isolation chroot --network host \
            --workingdir /github/workspace \
            -v "$ws:/github/workspace" \
            -v "$runner_dir/home:/github/home" \
            -v "$runner_dir/workflow:/github/workflow" \
            -v "$runner_dir/file_commands:/github/file_commands" \
            "${vols[@]}" "${envs[@]}" \
            "$RUN_CTR" -- "${entrypoint[@]}" "${args[@]}" 2>&1 1>&3 3>&- \
            | grep --line-buffered -vE '^(subprocess exited with status [0-9]+|Error: exit status [0-9]+)$' >&2
    } 3>&1
    rc=${PIPESTATUS[0]}
    set -e
    timing run "$t"
    exit "$rc"
}

cmd_clean() {
    local d drv
    for d in "$WORK"/storage-*; do
        if [[ ! -d $d ]] || ! command -v buildah >/dev/null; then continue; fi
        drv=${d##*/storage-}
        local -a b=(buildah --root "$d" --runroot "$WORK/runroot-$drv" --storage-driver "$drv")
        "${b[@]}" umount --all >/dev/null 2>&1 || true
        "${b[@]}" rm --all >/dev/null 2>&1 || true
    done
    rm -rf "$WORK"
}

case ${1:-} in
build) shift; cmd_build "$@" ;;
run) shift; cmd_run "$@" ;;
clean) shift; cmd_clean "$@" ;;
*)
    sed -n '2,24s/^# \{0,1\}//p' "$0" >&2
    exit 2
    ;;
esac
