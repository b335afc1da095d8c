# Shared by the action's steps. Source it.
#
# Every input is data (docs/security.md): a workflow often builds inputs from
# a pull request (changed paths, branch names). So values reach programs as
# operands (after `--`, as --option=value, or with ./ before a relative path
# where a program has no `--`), paths stay inside the workspace or the
# runner's temporary directory, outputs are written in GitHub's delimiter
# form, and values in workflow commands are escaped.

# command_data TEXT: TEXT escaped as the data of a workflow command (%, CR
# and LF as GitHub reads them back), so that it cannot end the command and
# start another.
command_data() {
  local s=${1//%/%25}
  s=${s//$'\r'/%0D}
  s=${s//$'\n'/%0A}
  printf '%s' "$s"
}

# random_token PREFIX: PREFIX and 128 random bits in hex, in REPLY (bash's
# SRANDOM reads the kernel's random source; no process is started).
random_token() {
  printf -v REPLY '%s%08x%08x%08x%08x' "$1" "$SRANDOM" "$SRANDOM" "$SRANDOM" "$SRANDOM"
}

# parent PATH: the directory PATH names its entry in, in REPLY, as dirname
# prints it (no process is started).
parent() {
  local p=$1
  while [[ $p == */ && $p != / ]]; do p=${p%/}; done
  if [[ $p == */* ]]; then
    p=${p%/*}
    while [[ $p == */ ]]; do p=${p%/}; done
    REPLY=${p:-/}
  else
    REPLY=.
  fi
}

# set_output NAME VALUE [NAME VALUE]...: appends each NAME to $GITHUB_OUTPUT
# in the delimiter form, with a random delimiter that does not occur in its
# VALUE: a value with line breaks of its own adds no output. One append for
# them all.
set_output() {
  local text="" name value delimiter
  while (($# >= 2)); do
    name=$1 value=$2
    shift 2
    while :; do
      random_token archfit_
      delimiter=$REPLY
      [[ $value != *"$delimiter"* ]] && break
    done
    text+="$name<<$delimiter"$'\n'"$value"$'\n'"$delimiter"$'\n'
  done
  printf '%s' "$text" >>"$GITHUB_OUTPUT"
}

# fail_usage MESSAGE: an error annotation, the output exit-code=2, exit 2.
fail_usage() {
  echo "::error title=archfit::$(command_data "$*")"
  set_output exit-code 2
  exit 2
}

# require_one_line VAR...: each INPUT_* variable holds one line at most.
require_one_line() {
  local var
  for var; do
    case ${!var:-} in
      *$'\n'* | *$'\r'*) fail_usage "the input ${var#INPUT_} holds a line break; give one value" ;;
    esac
  done
}

# Where paths may lead (ROOTS, found by require_inside): the workspace (else
# the working directory) and the runner's temporary directory.
ROOTS=()

# without_links DIR REST: no component of REST, a path below the directory
# DIR ("" for /), is ".." or a symbolic link (lstat by `test -L`, no process).
without_links() {
  local dir=$1 rest=$2 part
  while [[ -n $rest ]]; do
    part=${rest%%/*}
    if [[ $rest == */* ]]; then rest=${rest#*/}; else rest=""; fi
    case $part in "" | .) continue ;; ..) return 1 ;; esac
    dir+=/$part
    [[ ! -L $dir ]] || return 1
  done
}

# physical PATH: PATH is already what realpath makes of it: absolute, without
# an empty, "." or ".." component, a final slash or a symbolic link.
physical() {
  [[ $1 == /?* && $1 != */ && $1 != *//* && $1 != */./* && $1 != */. ]] && without_links "" "${1#/}"
}

# inside_as_written PATH: PATH lies in a root as it is written: the roots (and,
# before a relative PATH, the working directory) are physical, and after the
# root no component of it is ".." or a link. False decides nothing: realpath
# then does.
inside_as_written() {
  local path=$1 root
  local -a allowed=("${GITHUB_WORKSPACE:-$PWD}")
  [[ -z ${RUNNER_TEMP:-} ]] || allowed+=("$RUNNER_TEMP")
  if [[ $path != /* ]]; then
    physical "$PWD" || return 1
    path=$PWD/$path
  fi
  for root in "${allowed[@]}"; do
    if [[ $path == "$root" || $path == "$root"/* ]]; then
      physical "$root" && without_links "$root" "${path#"$root"}"
      return
    fi
  done
  return 1
}

# require_inside WHAT PATH [WHAT PATH]...: each PATH, with every link in it
# followed, is inside a root; WHAT names the input in the message. A PATH that
# lies inside as written needs nothing more; one realpath resolves the others
# (and the roots, the first time).
require_inside() {
  local -a unsure=()
  local i
  for ((i = 1; i < $#; i += 2)); do
    local j=$((i + 1))
    inside_as_written "${!j}" || unsure+=("${!i}" "${!j}")
  done
  ((${#unsure[@]} == 0)) || resolve_inside "${unsure[@]}"
}

# resolve_inside WHAT PATH [WHAT PATH]...: require_inside by realpath.
resolve_inside() {
  local -a args=() real=()
  local i roots=0
  if ((${#ROOTS[@]} == 0)); then
    args+=("${GITHUB_WORKSPACE:-$PWD}")
    [[ -z ${RUNNER_TEMP:-} ]] || args+=("$RUNNER_TEMP")
    roots=${#args[@]}
  fi
  for ((i = 2; i <= $#; i += 2)); do args+=("${!i}"); done
  mapfile -d '' -t real < <(realpath -m -z -- "${args[@]}")
  ((${#real[@]} == ${#args[@]})) || fail_usage "cannot resolve the paths $(printf "'%s' " "${args[@]:roots}")"
  ((roots == 0)) || ROOTS=("${real[@]:0:roots}")
  local -a pairs=("$@")
  local what path resolved root
  for ((i = roots; i < ${#real[@]}; i++)); do
    what=${pairs[2 * (i - roots)]} path=${args[i]} resolved=${real[i]}
    for root in "${ROOTS[@]}"; do
      [[ $resolved == "$root" || $resolved == "$root"/* ]] && continue 2
    done
    fail_usage "$what '$path' leads to $resolved, outside the workspace (${ROOTS[0]}) and the runner's temporary directory"
  done
}

# as_operand PATH: PATH such that no program takes it for an option or an
# expression (find has no `--`): ./ before a relative path.
as_operand() {
  if [[ $1 == /* ]]; then printf '%s' "$1"; else printf './%s' "$1"; fi
}

# read_paths [WHAT PATH]...: the lines of INPUT_PATHS (blank lines and
# surrounding blanks dropped) into the array PATHS, each inside a root; "."
# when there are none. The pairs given are checked as require_inside checks
# them, in the same call.
read_paths() {
  PATHS=()
  local line
  local -a checks=("$@")
  while IFS= read -r line || [[ -n $line ]]; do
    line="${line#"${line%%[![:space:]]*}"}"
    line="${line%"${line##*[![:space:]]}"}"
    [[ -n $line ]] || continue
    checks+=(path "$line")
    PATHS+=("$line")
  done <<<"${INPUT_PATHS:-}"
  ((${#checks[@]} == 0)) || require_inside "${checks[@]}"
  [[ ${#PATHS[@]} -gt 0 ]] || PATHS=(.)
}
