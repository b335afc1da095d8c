# Building archfit optimised by a profile of its own runs (cmake/Optimize.cmake,
# bench/JOURNAL.md). Source it after scripts/lib/common.sh.

# train_archfit SRC WORK ARCHFIT...: runs ARCHFIT (the command that runs an
# ARCHFIT_PGO=generate executable, by an absolute path: the executable itself,
# or qemu-user and it for another architecture) over what archfit spends its
# time on, each run adding to the build's profile: a generated helm-like
# stream of 4,000 workloads fixed, diffed and the fix taken out again, one of
# 1,000 linted with each report, and the bundled examples. WORK is a scratch
# directory of the caller's. Any run that fails stops the build. Each run has
# an environment of its own, works on one thread (ARCHFIT_THREADS=1) at
# addresses that are not randomised, so that it does the same work in the
# same order every time: the counts, and so the executable built from them,
# are the same on every build of the same commit.
train_archfit() {
  local src=$1 work=$2
  shift 2
  local exe=("$@")
  TRAIN_LOG=$work/training.log TRAIN_HOME=$work/home
  mkdir -p -- "$work/home"
  python3 "$src/bench/gen_stream.py" --workloads 4000 --seed 1 --out "$work/stream.yaml" \
    --lock "$work/archfit.lock" --stats "$work/stats.json" >/dev/null 2>>"$TRAIN_LOG"
  # A smaller one for the reports, so that what only lint does weighs no
  # more in the profile than fix.
  python3 "$src/bench/gen_stream.py" --workloads 1000 --seed 1 --out "$work/small.yaml" \
    --lock "$work/small.lock" >/dev/null 2>>"$TRAIN_LOG"
  # The examples as a repository of their own.
  cp -R -- "$src/examples" "$work/examples"
  mkdir -p -- "$work/.git"
  # Every run in WORK, naming files by relative paths (WORK's own name is
  # random, and what is done with a path's characters is counted), offline
  # from lock files: no run waits on a network.
  (
    cd -- "$work" || exit
    local given=(--offline --config=/dev/null --lock=archfit.lock)
    local small=(--offline --config=/dev/null --lock=small.lock)
    _train "${exe[@]}" fix -q "${given[@]}" -- - <stream.yaml >fixed.yaml
    _train "${exe[@]}" fix --diff -q "${given[@]}" -- - <stream.yaml >/dev/null
    _train "${exe[@]}" fix --remove -q "${given[@]}" -- - <fixed.yaml >/dev/null
    # Each report on stdout: a report written to a file goes through a
    # temporary file named with the process ID, whose digits would be
    # counted, and process IDs differ in length from run to run.
    local report
    for report in sarif json github markdown; do
      _train "${exe[@]}" lint --progress=never "${small[@]}" --fail-on=never "--report=$report" \
        -- small.yaml >/dev/null
    done
    _train "${exe[@]}" lint --offline --progress=never --fail-on=never -- examples >/dev/null
    _train "${exe[@]}" fix --diff -q --offline -- examples >/dev/null
  )
}

# _train EXE ARGS...: one training run, its messages into $TRAIN_LOG; exit 0
# or 1 (findings, changes) is a run that did its work.
_train() {
  local status=0
  # Addresses not randomised (setarch -R): how memory is aligned is counted too.
  env -i PATH="$PATH" HOME="$TRAIN_HOME" LC_ALL=C ARCHFIT_THREADS=1 setarch -R "$@" \
    2>>"$TRAIN_LOG" || status=$?
  ((status <= 1)) || { tail -n 20 "$TRAIN_LOG" >&2; die "a training run failed (exit $status): $*"; }
}

# build_from_profile SRC BUILD LOG RUNNER [CMAKE_ARGS...]: BUILD/archfit
# built twice with GCC and link-time optimisation, the second time from the
# profile of the training runs of the first. RUNNER is empty, or the program
# that runs an executable of another architecture (qemu-aarch64-static).
# CMAKE_ARGS configure both builds (a toolchain, static linking); the
# messages of both go to LOG.
build_from_profile() {
  local src=$1 build=$2 out=$3 runner=$4
  shift 4
  mkdir -p -- "$build"
  build=$(cd -- "$build" && pwd)
  local args=(-S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DARCHFIT_LTO=ON
    -DARCHFIT_BUILD_TESTS=OFF "$@")
  log "building $build/archfit to be trained (log: $out)"
  cmake "${args[@]}" -DARCHFIT_PGO=generate >>"$out" 2>&1 ||
    { tail -n 40 "$out" >&2; die "cmake failed (log: $out)"; }
  ninja -C "$build" >>"$out" 2>&1 ||
    { tail -n 40 "$out" >&2; die "building failed (log: $out)"; }
  # A profile is of one build: counts an earlier build left would not match.
  find "$build" -name '*.gcda' -delete
  log "training it"
  # Always the same directory: the paths of what it reads are counted (their
  # length, and the buckets their hashes fall in), so every build's runs must
  # see the same ones. One training at a time on a machine takes it.
  local work=/tmp/archfit-training
  local exe=("$build/archfit")
  [ -z "$runner" ] || exe=("$runner" "$build/archfit")
  (
    flock 9
    rm -rf -- "$work"
    mkdir -p -- "$work"
    train_archfit "$src" "$work" "${exe[@]}"
    rm -rf -- "$work"
  ) 9>/tmp/archfit-training.lock
  log "building $build/archfit from the profile"
  cmake "${args[@]}" -DARCHFIT_PGO=use >>"$out" 2>&1 ||
    { tail -n 40 "$out" >&2; die "cmake failed (log: $out)"; }
  ninja -C "$build" >>"$out" 2>&1 ||
    { tail -n 40 "$out" >&2; die "building failed (log: $out)"; }
}

# build_optimized SRC BUILD [CMAKE_ARGS...]: BUILD/archfit built from a
# profile (build_from_profile) for this machine.
build_optimized() {
  local src=$1 build=$2
  shift 2
  ensure_apt_packages "${BUILD_PACKAGES[@]}" python3
  mkdir -p -- "$build"
  local out=$build/archfit-build.log
  : >"$out"
  CXX=${CXX:-g++} build_from_profile "$src" "$build" "$out" "" "$@"
  log "built $build/archfit"
}
