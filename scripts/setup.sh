#!/usr/bin/env bash
# Installs what Warden needs on a Debian machine, when missing and we are root: the system packages
# for the sandbox (a Docker engine, Podman, and busybox-static for the base image) and Chromium for
# the console's browser tests; then the npm dependencies exactly as locked.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
[ -x /bin/busybox ] || need+=(busybox-static)
# the console's browser tests drive Debian's Chromium through playwright-core
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# the sandbox is also proved against Podman's Docker-compatible API (catatonit is its init)
command -v podman >/dev/null 2>&1 || need+=(podman)
[ -x /usr/libexec/podman/catatonit ] || [ -x /usr/bin/catatonit ] || need+=(catatonit)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "setup: the sandbox needs ${need[*]} (apt-get install ${need[*]}); the guard works without it" >&2
  fi
fi

# onnxruntime-node's own install script fetches GPU providers and electron's fetches a binary;
# neither is needed (CPU binaries ship in the package; the shell is packaged by electron-builder).
export ONNXRUNTIME_NODE_INSTALL=skip ELECTRON_SKIP_BINARY_DOWNLOAD=1
if [ -f package-lock.json ]; then npm ci --no-fund --no-audit; else npm install --no-fund --no-audit; fi
