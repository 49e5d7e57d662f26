#!/usr/bin/env bash
# files.sh ORDO DIR CASE [DUMP]: what `ordo` leaves on disk, which expect.sh cannot see. DIR is
# a fresh directory for the case; DUMP a dump to copy there; each case exits 0 when the files
# are as they must be.
set -uo pipefail
ordo=$1
dir=$2
case_name=$3
dump=${4:-}
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir" || exit 1

fail() {
  echo "files.sh $case_name: $*" >&2
  exit 1
}

case $case_name in
  full_disk)
    # A disk that fills up part way (the file-size limit, with its signal ignored as a full
    # disk sends none): exit 2 naming the file, the old file whole, nothing left beside it.
    printf 'old' >step.json
    output=$( (trap '' XFSZ; ulimit -f 8; exec "$ordo" step-dag --network resnet50 -o step.json) 2>&1)
    status=$?
    echo "$output"
    [[ $status -eq 2 ]] || fail "exit code $status, expected 2"
    grep -q "step.json" <<<"$output" || fail "the error does not name the file"
    [[ $(cat step.json) == old ]] || fail "the old file was not kept"
    [[ $(ls -A | wc -l) -eq 1 ]] || fail "files left beside it: $(ls -A)"
    ;;
  stale_trace)
    # A safe verdict leaves no trace behind, not even one from an earlier run.
    printf '{"stale": true}' >t.json
    "$ordo" verify --design funnel --layers 2 --trace t.json
    status=$?
    [[ $status -eq 0 ]] || fail "exit code $status, expected 0"
    [[ ! -e t.json ]] || fail "the earlier trace is still there"
    ;;
  trace_onto_input)
    # The trace may not replace the dump it was found on; refused before the search.
    cp "$dump" job.json
    before=$(cksum <job.json)
    output=$("$ordo" verify job.json --trace job.json 2>&1)
    status=$?
    echo "$output"
    [[ $status -eq 2 ]] || fail "exit code $status, expected 2"
    grep -q "is the input file" <<<"$output" || fail "the error does not say why"
    grep -Eq "SAFE|UNSAFE" <<<"$output" && fail "searched before checking the outputs"
    [[ $(cksum <job.json) == "$before" ]] || fail "the input was changed"
    ;;
  promela_onto_input)
    cp "$dump" job.json
    before=$(cksum <job.json)
    "$ordo" export-promela job.json -o ./job.json
    status=$?
    [[ $status -eq 2 ]] || fail "exit code $status, expected 2"
    [[ $(cksum <job.json) == "$before" ]] || fail "the input was changed"
    ;;
  dot_to_redirected_stdout)
    # Standard output redirected to a file and named as the output: the picture follows the
    # report in that file; a rename would have put a new file in its place and lost the report.
    # (/dev/fd/1, not /dev/stdout: should this break, a rename cannot happen inside /proc, while
    # as root it can replace the link /dev/stdout.)
    "$ordo" verify --design naive --layers 2 --comm-threads 2 --dot /dev/fd/1 >out.txt
    status=$?
    [[ $status -eq 1 ]] || fail "exit code $status, expected 1"
    grep -q "UNSAFE" out.txt || fail "the report is not in the file"
    grep -q "^digraph" out.txt || fail "the picture is not in the file"
    ;;
  *)
    fail "unknown case"
    ;;
esac
