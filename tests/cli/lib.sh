# Shared by the tests/cli/*_test.sh scripts (sourced, not run): argument handling, the skip rule
# and small assertion helpers whose failures say what was being checked.
#
# Every script is called as: bash SCRIPT TOOL SHARED_DIR SCRATCH_DIR

if [[ $# -ne 3 ]]; then
  echo "usage: bash $0 TOOL SHARED_DIR SCRATCH_DIR" >&2
  exit 2
fi
TOOL=$1
SHARED=$2
SCRATCH=$3
DATA=$SHARED/parquet-testing/data
if [[ ! -d $SHARED/parquet-testing ]]; then
  echo "SKIP: $SHARED/parquet-testing is missing"
  exit 77
fi
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

passed() {
  echo "PASS [$TEST_NAME]: $CHECKS checks"
}
