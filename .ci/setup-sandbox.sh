#!/usr/bin/env bash
# Installs and starts what the sandbox tests need on a fresh machine: bubblewrap, a running
# Docker daemon and the locally built base image (no image registry is reachable here).
# Safe to run twice: every step checks before it acts.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
if ((${#need[@]})); then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi

# uv makes the target environments; the project's own environment may not have it yet.
command -v uv >/dev/null 2>&1 || python3 -m pip install -q uv

# No systemd on these machines: start the daemon ourselves and wait until it answers.
if ! docker info >/dev/null 2>&1; then
    nohup dockerd >/var/log/qusema-dockerd.log 2>&1 &
    for _ in $(seq 1 60); do
        docker info >/dev/null 2>&1 && break
        sleep 1
    done
    if ! docker info >/dev/null 2>&1; then
        echo "dockerd did not answer within 60 s; last lines of its log:" >&2
        tail -n 20 /var/log/qusema-dockerd.log >&2 || true
        exit 1
    fi
fi

"$here/sandbox/build-base-image.sh" qusema-base:bookworm
