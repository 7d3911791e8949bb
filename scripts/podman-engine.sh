#!/usr/bin/env bash
# Podman's Docker-compatible API as a second sandbox engine (MACHINE.md): `podman system service`
# on its own socket, with its own storage under $WARDEN_PODMAN_DIR, so the sandbox can be proved
# against Podman beside Docker.
#   start  idempotent; waits until the service answers _ping, then prints the socket path
#   stop   removes what is left of its containers, stops the service this script started (by its
#          pidfile) and ends the conmon monitors that outlive exec sessions in its storage
set -euo pipefail

D="${WARDEN_PODMAN_DIR:-/tmp/warden-podman}"
SOCK="$D/podman.sock"
PIDFILE="$D/service.pid"

ping_service() {
  curl -fsS --max-time 2 --unix-socket "$SOCK" http://localhost/_ping >/dev/null 2>&1
}

start() {
  if ping_service; then
    echo "PODMAN_SOCKET=$SOCK"
    return 0
  fi
  command -v podman >/dev/null 2>&1 || {
    echo "podman-engine: podman is not installed (apt-get install -y podman catatonit)" >&2
    exit 1
  }
  mkdir -p "$D"
  rm -f "$SOCK"
  # without raised defaults Podman 4 refuses containers that set their own ulimits
  printf '[containers]\ndefault_ulimits = ["nofile=16384:16384", "nproc=16384:16384"]\n' >"$D/containers.conf"
  # its own temporary folder: one inherited from a test run (removed when the run ends) would
  # leave a service that outlives the run unable to read the images it unpacks there
  mkdir -p "$D/tmp"
  TMPDIR="$D/tmp" CONTAINERS_CONF="$D/containers.conf" nohup podman --root "$D/root" --runroot "$D/run" \
    system service --time=0 "unix://$SOCK" >"$D/log" 2>&1 </dev/null &
  echo $! >"$PIDFILE"
  for _ in $(seq 1 300); do
    if ping_service; then
      echo "PODMAN_SOCKET=$SOCK"
      return 0
    fi
    sleep 0.1
  done
  echo "podman-engine: the service did not answer within 30 s; see $D/log:" >&2
  tail -n 20 "$D/log" >&2 || true
  exit 1
}

stop() {
  if command -v podman >/dev/null 2>&1 && [ -d "$D/root" ]; then
    podman --root "$D/root" --runroot "$D/run" rm -a -f -t 0 >/dev/null 2>&1 || true
  fi
  if [ -f "$PIDFILE" ]; then
    pid="$(cat "$PIDFILE" 2>/dev/null || true)"
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -f "$PIDFILE"
  fi
  # a monitor of an exec session can outlive its container; only ours name this storage
  pkill -f "conmon .*$D/" 2>/dev/null || true
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
