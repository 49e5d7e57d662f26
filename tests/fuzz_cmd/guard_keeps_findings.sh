#!/usr/bin/env bash
# guard_keeps_findings.sh ORDO OUT: `ordo fuzz --timeout` over random draws, two of 2 ranks and
# some of 1024, whose models and schedules take seconds. Where the time bound falls depends on the
# machine's load, and each place is legal: in a step that cannot stop (the command's guard answers,
# "stopped early: the time limit"), or between draws (the campaign stops itself, "N jobs left
# unchecked when the time ran out"). Either way the same is asserted, with the same strength:
# exit 1; the first 2-rank draw's finding, made within milliseconds of the start (the bound is
# far above it); every finding with its dump and trace; the JUnit file counting exactly the
# findings the words report, and a skipped case for what was not checked.
set -uo pipefail
ordo=$1
out=$2
rm -rf "$out" "$out.xml"
"$ordo" fuzz --generate 6 --gen-designs naive --gen-ranks 2,1024 --seed 4 --timeout 3 \
  --out "$out" --junit "$out.xml" > "$out.out"
status=$?
cat "$out.out"
fail() { echo "guard_keeps_findings.sh: $*" >&2; exit 1; }
[[ $status -eq 1 ]] || fail "exit code $status, expected 1"
grep -q '^FINDING in gen-001' "$out.out" || fail "no finding in gen-001"
stopped_by_guard=$(grep -c '^stopped early: the time limit (--timeout) ran out' "$out.out")
stopped_by_campaign=$(grep -Ec '[0-9]+ jobs? left unchecked when the time ran out' "$out.out")
[[ $((stopped_by_guard + stopped_by_campaign)) -eq 1 ]] ||
  fail "expected one of the two legal stops, found $stopped_by_guard guard and $stopped_by_campaign campaign lines"
found=0
while read -r name; do
  found=$((found + 1))
  [[ -s "$out/$name.dump.json" && -s "$out/$name.trace.json" ]] || fail "$name has no dump or trace"
done < <(sed -nE 's/^FINDING in (gen-[0-9]+).*/\1/p' "$out.out")
grep -Eq "<testsuites [^>]*failures=\"$found\"" "$out.xml" || fail "the JUnit file does not count $found findings"
grep -Eq '<skipped message="not checked: [^"]*time' "$out.xml" || fail "the JUnit file has no case for what was not checked"
echo "guard_keeps_findings.sh: $found finding(s) kept, stopped by the $([[ $stopped_by_guard -eq 1 ]] && echo guard || echo campaign)"
