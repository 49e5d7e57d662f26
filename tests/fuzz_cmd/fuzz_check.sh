#!/usr/bin/env bash
# fuzz_check.sh ORDO DIR CODE -- ARGS...: runs `ordo fuzz ARGS --out DIR` in a fresh DIR and fails
# unless it exits with CODE and leaves what that code promises. For 1 (the job is unsafe): the
# job's dump and trace, and the commands the report says reproduce them do: `ordo verify` on the
# dump exits 1 and `ordo replay` of the trace reproduces its property (exit 0); with --generate,
# the same for the first generated job found unsafe. For 0: no file of any job. Always: no progress line, since standard error is not a terminal here.
set -uo pipefail
ordo=$1
dir=$2
code=$3
shift 4

fail() {
  echo "fuzz_check.sh: $*" >&2
  exit 1
}

rm -rf "$dir"
mkdir -p "$dir"
"$ordo" fuzz "$@" --out "$dir" >"$dir.out" 2>"$dir.err"
status=$?
cat "$dir.out" "$dir.err"
[[ $status -eq $code ]] || fail "exit code $status, expected $code"
grep -q $'\r' "$dir.err" && fail "a progress line on standard error, which is no terminal"

case $code in
  0)
    written=$(find "$dir" -name '*.json' | head -n 1)
    [[ -z $written ]] || fail "files written for a safe job: $written"
    ;;
  1)
    first=$(grep -m 1 -oE '^FINDING in (job|gen-[0-9]+)' "$dir.out" | cut -d' ' -f3)
    [[ -n $first ]] || fail "no finding reported"
    [[ -s $dir/$first.dump.json ]] || fail "no $dir/$first.dump.json"
    [[ -s $dir/$first.trace.json ]] || fail "no $dir/$first.trace.json"
    # The commands under the first finding, as the report gives them.
    commands=$(awk -v first="FINDING in $first" 'index($0, first) == 1 {on = 1; next} on && /^$/ {exit} on && /^    ordo (verify|replay) / {sub(/^    /, ""); print}' "$dir.out")
    [[ $(grep -c . <<<"$commands") -eq 2 ]] || fail "the report does not give the two commands"
    while IFS= read -r command; do
      echo "+ $command"
      output=$(eval "\"\$ordo\" ${command#ordo }" 2>&1)
      status=$?
      echo "$output"
      case $command in
        "ordo verify "*)
          [[ $status -eq 1 ]] || fail "'$command' exits $status, expected 1 (unsafe)"
          ;;
        "ordo replay "*)
          [[ $status -eq 0 ]] || fail "'$command' exits $status, expected 0 (reproduced)"
          grep -q "^reproduced: P" <<<"$output" || fail "'$command' does not reproduce"
          ;;
      esac
    done <<<"$commands"
    ;;
esac
exit 0
