# Shared by the action's steps. Source it.

# read_paths: the lines of INPUT_PATHS (blank lines and surrounding blanks
# dropped) into the array PATHS; "." when there are none.
read_paths() {
  PATHS=()
  local line
  while IFS= read -r line || [[ -n $line ]]; do
    line="${line#"${line%%[![:space:]]*}"}"
    line="${line%"${line##*[![:space:]]}"}"
    [[ -n $line ]] && PATHS+=("$line")
  done <<<"${INPUT_PATHS:-}"
  [[ ${#PATHS[@]} -gt 0 ]] || PATHS=(.)
}
