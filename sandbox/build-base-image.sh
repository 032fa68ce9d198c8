#!/usr/bin/env bash
# Builds the local base image for the docker sandbox without any image registry:
# a minimal Debian root filesystem made by debootstrap, imported as an image.
# Debian bookworm ships Python 3.11, the same minor version the targets are resolved for.
#
# usage: sandbox/build-base-image.sh [IMAGE_NAME] [MIRROR]
set -euo pipefail

image="${1:-qusema-base:bookworm}"
# The mirror defaults to the one apt already uses on this machine, because that is the
# one known to be reachable (deb822 "URIs:" or classic "deb URL suite" form).
mirror="${2:-}"
if [[ -z "$mirror" ]]; then
    mirror="$(grep -hoE '^URIs: *http[^ ]+' /etc/apt/sources.list.d/*.sources 2>/dev/null \
                | grep -v security | head -n1 | sed -E 's/^URIs: *//')" || true
fi
if [[ -z "$mirror" ]]; then
    mirror="$(grep -hoE '^deb +http[^ ]+' /etc/apt/sources.list 2>/dev/null \
                | head -n1 | awk '{print $2}')" || true
fi
mirror="${mirror:-http://deb.debian.org/debian}"

if docker image inspect "$image" >/dev/null 2>&1; then
    echo "base image $image already present"
    exit 0
fi

rootfs="$(mktemp -d /tmp/qusema-rootfs.XXXXXX)"
trap 'rm -rf "$rootfs"' EXIT

debootstrap --variant=minbase --include=python3,python3-venv,python3-pip,ca-certificates \
    bookworm "$rootfs" "$mirror"

# The sandbox runs snippets as this unprivileged user (uid/gid 10001), never as root.
chroot "$rootfs" groupadd --gid 10001 sandbox
chroot "$rootfs" useradd --uid 10001 --gid 10001 --no-create-home --home-dir /work \
    --shell /usr/sbin/nologin sandbox
# Package caches and docs only make the image bigger.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
       "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/*

tar -C "$rootfs" -c . | docker import \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["/usr/bin/python3"]' \
    - "$image"
echo "built base image $image"
