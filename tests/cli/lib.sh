# Shared by the tests/cli/*_test.sh scripts (sourced, not run): argument handling, the files the
# tests run on, the skip rule and small assertion helpers whose failures say what was being checked.
#
# Every script is called as: bash SCRIPT TOOL SHARED_DIR SCRATCH_DIR
#
# The checks run on files the repository ships (testfiles/) or that a test makes from them at run
# time; the reference files of SHARED_DIR/parquet-testing add checks of their known contents. A
# clone without them runs everything else: each part that needs them is wrapped in
# `if need_shared "what it checks"; then ... fi`, and `passed` prints one line naming the parts
# skipped.

if [[ $# -ne 3 ]]; then
  echo "usage: bash $0 TOOL SHARED_DIR SCRATCH_DIR" >&2
  exit 2
fi
TOOL=$1
SHARED=$2
SCRATCH=$3
DATA=$SHARED/parquet-testing/data
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Shipped files: pqpage's sample (2 row groups, 4096 rows, a dictionary fallback, page CRCs) and the
# peers' files (testfiles/peers, with golden dumps). MIXED stands where a test needs every physical
# type (INT96 and FIXED_LEN_BYTE_ARRAY too), required, optional, nested and repeated columns and
# two row groups: pyarrow's 100-row table, dictionary encoded, data page v1, snappy.
SAMPLE=$ROOT/testfiles/sample_trips.parquet
PEERS=$ROOT/testfiles/peers
MIXED=$PEERS/pyarrow-dictionary-v1-snappy.parquet
DAMAGE=$ROOT/tests/cli/damage.py
if [[ ! -x $TOOL ]]; then
  echo "FAIL: the tool '$TOOL' is not an executable" >&2
  exit 1
fi
rm -rf "$SCRATCH"
mkdir -p "$SCRATCH"
TEST_NAME=$(basename "$0" .sh)
CHECKS=0

fail() {
  echo "FAIL [$TEST_NAME]: $*" >&2
  exit 1
}

# run_expect STATUS LABEL -- COMMAND...: runs COMMAND with stdout in $SCRATCH/out and stderr in
# $SCRATCH/err and fails unless it exits with STATUS.
run_expect() {
  local want=$1 label=$2
  shift 3
  local got=0
  "$@" > "$SCRATCH/out" 2> "$SCRATCH/err" || got=$?
  if [[ $got -ne $want ]]; then
    echo "--- stdout (first lines):" >&2
    head -20 "$SCRATCH/out" >&2
    echo "--- stderr:" >&2
    head -20 "$SCRATCH/err" >&2
    fail "$label: exit status $got, expected $want (command: $*)"
  fi
  CHECKS=$((CHECKS + 1))
}

# expect_one_line_error LABEL: stderr of the last run_expect holds exactly one line, which
# starts with "pqpage ".
expect_one_line_error() {
  local lines
  lines=$(wc -l < "$SCRATCH/err")
  if [[ $lines -ne 1 ]]; then
    cat "$SCRATCH/err" >&2
    fail "$1: expected a one-line error on stderr, got $lines lines"
  fi
  grep -q '^pqpage ' "$SCRATCH/err" ||
    fail "$1: error does not start with 'pqpage ': $(cat "$SCRATCH/err")"
  CHECKS=$((CHECKS + 1))
}

# expect_grep PATTERN FILE LABEL: FILE has a line matching the extended regex PATTERN.
expect_grep() {
  grep -Eq -- "$1" "$2" || fail "$3: no line matches /$1/ in $2"
  CHECKS=$((CHECKS + 1))
}

# have_shared: whether the reference files are there.
have_shared() {
  [[ -d $SHARED/parquet-testing ]]
}

# need_shared PART: true when the reference files are there; otherwise notes PART (a few words
# saying what is not checked) for the one line `passed` prints, and is false.
SKIPPED_PARTS=()
need_shared() {
  have_shared && return 0
  SKIPPED_PARTS+=("$1")
  return 1
}

passed() {
  echo "PASS [$TEST_NAME]: $CHECKS checks"
  if [[ ${#SKIPPED_PARTS[@]} -gt 0 ]]; then
    local parts
    parts=$(printf '%s; ' "${SKIPPED_PARTS[@]}")
    echo "skipped, as $SHARED/parquet-testing is missing (see README: reference files):" \
      "${parts%; }"
  fi
}
