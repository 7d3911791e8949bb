#!/usr/bin/env bash
# A private Docker engine for the sandbox on machines without a running one (MACHINE.md "Docker
# engine"): its own socket, data and exec roots under $WARDEN_ENGINE_DIR, no bridge network and no
# iptables rules, so it neither needs nor touches the host's network setup.
#   start  idempotent; waits until the engine answers _ping, then prints `export DOCKER_HOST=...`
#   stop   stops the engine this script started (by its pidfile)
#   env    prints `export DOCKER_HOST=...` (use: eval "$(scripts/docker-engine.sh env)")
set -euo pipefail

E="${WARDEN_ENGINE_DIR:-/tmp/warden-engine}"
SOCK="$E/docker.sock"
PIDFILE="$E/dockerd.pid"

ping_engine() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsS --max-time 2 --unix-socket "$SOCK" http://localhost/_ping >/dev/null 2>&1
  else
    timeout 2 docker -H "unix://$SOCK" version >/dev/null 2>&1
  fi
}

running_pid() {
  [ -f "$PIDFILE" ] || return 1
  local pid
  pid="$(cat "$PIDFILE" 2>/dev/null || true)"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

print_env() {
  echo "export DOCKER_HOST=unix://$SOCK"
}

start() {
  if ping_engine; then
    print_env
    return 0
  fi
  command -v dockerd >/dev/null 2>&1 || {
    echo "docker-engine: dockerd is not installed (apt-get install -y docker.io busybox-static)" >&2
    exit 1
  }
  mkdir -p "$E"
  # two test workers may start it at once: the second waits for the first, then finds it answering
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$E/start.lock"
    flock -w 60 9 || true  # (dockerd is started without this descriptor, so the lock ends with this script)
    if ping_engine; then
      print_env
      return 0
    fi
  fi
  if ! running_pid >/dev/null; then
    # a stale socket or pidfile from an engine that died would make dockerd refuse to start
    rm -f "$SOCK" "$PIDFILE"
    # the engine keeps its own temporary folder: one inherited from whoever started it (a test
    # run's folder, removed when the run ends) would take runc's process files with it
    mkdir -p "$E/tmp"
    TMPDIR="$E/tmp" nohup dockerd -H "unix://$SOCK" --data-root "$E/data" --exec-root "$E/exec" --pidfile "$PIDFILE" \
      --iptables=false --ip6tables=false --bridge=none --ip-forward=false --ip-masq=false \
      >"$E/log" 2>&1 </dev/null 9>&- &
  fi
  for _ in $(seq 1 300); do
    if ping_engine; then
      print_env
      return 0
    fi
    sleep 0.1
  done
  echo "docker-engine: the engine did not answer within 30 s; see $E/log:" >&2
  tail -n 20 "$E/log" >&2 || true
  exit 1
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then
    echo "docker-engine: not running (no live pid in $PIDFILE)" >&2
    return 0
  fi
  kill "$pid"
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || { echo "docker-engine: stopped (pid $pid)" >&2; return 0; }
    sleep 0.1
  done
  echo "docker-engine: pid $pid still running after 10 s" >&2
  exit 1
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  env) print_env ;;
  *) echo "usage: $0 start|stop|env" >&2; exit 2 ;;
esac
