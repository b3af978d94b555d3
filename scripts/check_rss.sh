#!/usr/bin/env bash
# Peak memory of every example (issue 34): runs `logitlab-cli run` on each file of examples/
# under /usr/bin/time -v (CSV and PNG, as the README's examples are run) and fails when one's
# maximum resident set size is over the limit (default 1 GiB). Prints one line per example.
# Usage: scripts/check_rss.sh [build-dir (default build)] [limit-in-MiB (default 1024)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
limit_mib=${2:-1024}
cli="$build/bin/logitlab-cli"
[ -x "$cli" ] || { echo "check_rss: $cli not found (build logitlab-cli first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "check_rss: /usr/bin/time is missing (scripts/setup.sh installs it)" >&2; exit 2; }
export QT_QPA_PLATFORM=offscreen
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for example in "$root"/examples/*.json; do
  name=$(basename "$example" .json)
  if ! /usr/bin/time -v -o "$work/$name.time" "$cli" run "$example" --out "$work/$name" --formats csv,png \
       >"$work/$name.out" 2>"$work/$name.err"; then
    echo "check_rss: $name: the run failed:" >&2
    tail -5 "$work/$name.err" >&2
    failed=1
    continue
  fi
  kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/$name.time")
  mib=$(( (kib + 1023) / 1024 ))
  if [ "$mib" -gt "$limit_mib" ]; then
    echo "$name: peak RSS $mib MiB, over the limit of $limit_mib MiB"
    failed=1
  else
    echo "$name: peak RSS $mib MiB"
  fi
  rm -rf "${work:?}/$name"
done
[ "$failed" -eq 0 ] && echo "check_rss: every example under $limit_mib MiB"
exit "$failed"
