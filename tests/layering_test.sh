#!/usr/bin/env bash
# Checks the module layering of DESIGN.md section 2: a module's sources and
# headers may include only archfit headers of the modules below it, and only
# the registry module (and the command line) may include libcurl.
set -euo pipefail
root=${1:-.}
cd "$root"

# module: the archfit modules it may include (besides itself)
declare -A allowed=(
  [base]=""
  [yaml]="base"
  [image]="base"
  [manifest]="base yaml image"
  [registry]="base image"
  [cache]="base image"
  [resolve]="base image registry cache"
  [placement]="base yaml image manifest resolve"
  [edit]="base yaml"
  [report]="base placement"
  [cli]="*"
)

status=0
for module in "${!allowed[@]}"; do
  for dir in "include/archfit/$module" "src/$module"; do
    [ -d "$dir" ] || continue
    while IFS=: read -r file _ line; do
      used=$(sed -E 's|.*<archfit/([a-z_]+)/.*|\1|' <<<"$line")
      [ "$used" = "$module" ] && continue
      [ "${allowed[$module]}" = "*" ] && continue
      if ! grep -qw -- "$used" <<<"${allowed[$module]}"; then
        echo "$file: module '$module' must not include <archfit/$used/...>: $line" >&2
        status=1
      fi
    done < <(grep -rn --include='*.hpp' --include='*.cpp' -E '#include <archfit/[a-z_]+/' "$dir" || true)
    if [ "$module" != registry ] && [ "$module" != cli ]; then
      if grep -rn --include='*.hpp' --include='*.cpp' -E '#include <curl/' "$dir"; then
        echo "module '$module' must not use libcurl" >&2
        status=1
      fi
    fi
  done
done
exit $status
