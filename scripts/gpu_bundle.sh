#!/usr/bin/env bash
# A bundle of the GPU checks and figures for a GPU node that has the NVIDIA driver and NCCL but
# not ordo's build packages (no compiler toolchain of ours, no Open MPI): built here, on a build
# machine with the CUDA toolkit, and run there with one command.
#
#   scripts/gpu_bundle.sh [DIR]        # default build/gpu-bundle
#   DIR/run.sh [OUT_DIR]               # on the GPU node; default DIR/results
#
# It builds the release preset with the device runtime (ORDO_CUDA=on), then puts in DIR:
# - tests/: the device test programs and their ctest files, which run.sh points at where DIR is;
#   the programs on libtorch (the trainer's) are left out, since the node's libtorch is not the
#   one they are built against: a GPU machine with the build packages runs those
#   (scripts/gpu_checks.sh);
# - bench/: the three GPU benchmarks (scripts/gpu/figures.sh);
# - lib/: the CUDA runtime they were linked with; NCCL is the node's (run.sh looks for it);
# - mpi/: Open MPI's runtime from this machine's packages (mpirun, its libraries, components and
#   help files, PMIx), relocated with OPAL_PREFIX and PMIX_PREFIX, and the libraries they need
#   but the C and C++ runtimes;
# - scripts/: scripts/gpu/checks.sh and figures.sh, and run.sh.
# Prints the bundle's size and the command to run it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=${1:-build/gpu-bundle}
scripts/setup.sh >/dev/null
cmake --preset release -DORDO_CUDA=on >/dev/null
if grep -qE '^ORDO_NCCL_(LIBRARY|INCLUDE_DIR):[A-Z]+=.*NOTFOUND' build/release/CMakeCache.txt; then
  echo "gpu_bundle: NCCL not found beside the CUDA toolkit or on the usual paths (nccl.h, libnccl)" >&2
  exit 1
fi
targets=$(ninja -C build/release -t targets all)
mapfile -t tests < <(sed -nE 's/^(ordo_[a-z0-9_]*(gpu|device)[a-z0-9_]*_tests): phony$/\1/p' \
  <<<"$targets" | sort -u)
benches=(ordo_nccl_bench ordo_staged_bench ordo_designs_gpu_bench)
cmake --build --preset release -j "$(nproc)" --target "${tests[@]}" "${benches[@]}"

rm -rf "$dir"
mkdir -p "$dir"/{tests,bench,lib,mpi,scripts}
dir=$(cd "$dir" && pwd)
built=$root/build/release

# The device test programs that need nothing but the C and C++ runtimes, CUDA's, NCCL and MPI.
needs_only_these() {
  readelf -d "$1" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p' |
    grep -vqE '^(libc|libm|libgcc_s|libstdc\+\+|libpthread|libdl|librt)\.so|^ld-linux|^libcudart\.so|^libnccl\.so|^libmpi\.so' &&
    return 1
  return 0
}
left_out=()
for program in "$built"/tests/device/ordo_*_tests; do
  [[ -f "$program" && -x "$program" ]] || continue
  if needs_only_these "$program"; then
    cp "$program" "$dir/tests/"
  else
    left_out+=("$(basename "$program")")
  fi
done
# The ctest files, as templates: run.sh writes in the bundle's place and its mpiexec. The tests
# of the programs left out are taken out with them.
mpiexec=$(sed -nE 's/^MPIEXEC_EXECUTABLE:FILEPATH=(.*)$/\1/p' "$built/CMakeCache.txt")
for file in "$built"/tests/device/CTestTestfile.cmake "$built"/tests/device/*_include.cmake \
            "$built"/tests/device/*_tests.cmake; do
  [[ -f "$file" ]] || continue
  name=$(basename "$file")
  skip=0
  for program in "${left_out[@]}"; do
    [[ "$name" == "$program["* ]] && skip=1
  done
  [[ $skip -eq 1 ]] && continue
  # An MPI test is an add_test line and its set_tests_properties line, both naming the test; a
  # discovered program's tests come through an include line naming the program.
  gone='^$'
  if [[ "$name" == CTestTestfile.cmake && ${#left_out[@]} -gt 0 ]]; then
    programs_gone="$(IFS='|'; echo "${left_out[*]}")"
    mapfile -t names < <(grep -E "^add_test" "$file" | grep -E "/($programs_gone)\"" |
      sed -E 's/^add_test\(\[=\[([^]]*)\]=\].*/\1/')
    gone="/($programs_gone)\\["
    [[ ${#names[@]} -gt 0 ]] && gone="$gone|\\[=\\[($(IFS='|'; echo "${names[*]}"))\\]=\\]"
  fi
  grep -vE "$gone" "$file" |
    sed -e "s|$built/tests/device|@TESTS@|g" -e "s|\"$mpiexec\"|\"@MPIEXEC@\"|g" \
    >"$dir/tests/$name.in"
done
for bench in "${benches[@]}"; do cp "$built/bench/gpu/$bench" "$dir/bench/"; done

# The CUDA runtime the programs were linked with (the driver's libcuda is the node's).
cudart=$(ldd "$dir/bench/ordo_nccl_bench" | sed -nE 's/^\s*libcudart\.so\.[0-9]+ => (\S+).*/\1/p')
cp -L "$cudart" "$dir/lib/$(basename "$cudart")"

# Open MPI's runtime, as its packages install it, under mpi/ with the same paths.
for package in openmpi-bin libopenmpi3 openmpi-common libpmix2; do
  dpkg -L "$package" | while read -r path; do
    # Not the Fortran and Java bindings: ordo's programs are C++.
    [[ -f "$path" && ! "$path" =~ ^/usr/share/(doc|man|lintian)/ &&
       ! "$path" =~ (mpifh|usempi|_java|mpi\.jar) ]] || continue
    mkdir -p "$dir/mpi$(dirname "$path")"
    cp -a "$path" "$dir/mpi$path"
  done
done
# mpirun and mpiexec are the alternatives system's links on the build machine.
ln -s orterun "$dir/mpi/usr/bin/mpirun"
ln -s orterun "$dir/mpi/usr/bin/mpiexec"
# Their shared libraries from other packages, but the C and C++ runtimes the node has (ldd fails
# on the scripts among the executables, and says nothing of them).
find "$dir/mpi" -type f \( -name '*.so*' -o -perm -u+x \) -print0 |
  { xargs -0 ldd 2>/dev/null || true; } | sed -nE 's/^\s*(\S+) => (\/\S+).*/\1 \2/p' | sort -u |
  while read -r soname path; do
    [[ "$soname" =~ ^(libc|libm|libgcc_s|libstdc\+\+|libpthread|libdl|librt|libresolv)\.so ]] && continue
    [[ "$path" == "$dir"/* || -e "$dir/mpi/lib/$soname" ]] && continue
    case "$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | cut -d: -f1)" in
      openmpi-bin|libopenmpi3|openmpi-common|libpmix2) continue ;;
    esac
    mkdir -p "$dir/mpi/lib"
    cp -L "$path" "$dir/mpi/lib/$soname"
  done
sed -nE 's/^ORDO_MPIEXEC_FLAGS:STRING=(.*)$/\1/p' "$built/CMakeCache.txt" | tr ';' ' ' \
  >"$dir/mpiexec-flags"
cp scripts/gpu/checks.sh scripts/gpu/figures.sh scripts/gpu/visible_gpus.sh "$dir/scripts/"
cp scripts/gpu/bundle_run.sh "$dir/run.sh"
echo "gpu_bundle: $dir ($(du -sh "$dir" | cut -f1)); left out, on libtorch: ${left_out[*]:-none}"
echo "gpu_bundle: on the GPU node: $dir/run.sh [OUT_DIR]"
