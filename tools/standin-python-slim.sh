#!/usr/bin/env bash
# A local stand-in for the `python:3.11-slim` base image, for machines that reach Debian's
# package mirror and PyPI but no container registry (issue 15). Real deployers do not need it:
# they pull the real python:3.11-slim and the Dockerfile stays the same.
#
# It makes Debian bookworm (whose python3 IS 3.11) with debootstrap, adds pip, `python`, the
# host's CA bundle (so pip trusts whatever the host trusts) and imports it as python:3.11-slim.
# Needs root, debootstrap and a running dockerd. Not part of CI.
#
#   sudo tools/standin-python-slim.sh [ROOTFS_DIR]       # default: a fresh folder in /var/tmp
set -euo pipefail

TAG=python:3.11-slim
ROOTFS=${1:-$(mktemp -d /var/tmp/standin-rootfs.XXXXXX)}
CA_BUNDLE=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
# The mirror the host's apt already uses (first URIs: line), unless MIRROR is given.
MIRROR=${MIRROR:-$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null)}
if [[ -z "$MIRROR" ]]; then
    MIRROR=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list)
fi

debootstrap --variant=minbase \
    --include=python3,python3-pip,python3-venv,python-is-python3,ca-certificates,passwd \
    bookworm "$ROOTFS" "$MIRROR"

cp "$CA_BUNDLE" "$ROOTFS/etc/ssl/certs/ca-certificates.crt"
# python:3.11-slim lets pip install into the system Python; Debian marks it externally managed.
rm -f "$ROOTFS"/usr/lib/python3*/EXTERNALLY-MANAGED
chroot "$ROOTFS" apt-get clean
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/*.bin "$ROOTFS"/usr/share/doc/* \
    "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/locale/*

tar -C "$ROOTFS" --numeric-owner -c . | docker import \
    --change 'ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt' \
    --change 'ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["python3"]' \
    - "$TAG"
rm -rf "$ROOTFS"
docker image ls "$TAG"
