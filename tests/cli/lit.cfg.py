# lit's configuration for the command line's cases (tests/cli/cases/*.test). CMake writes
# lit.site.cfg.py into the build tree (from lit.site.cfg.py.in) and registers each case as the
# ctest test cli.NAME, which runs `lit.py -sv BUILD/tests/cli/cases/NAME.test` (-v prints a
# failing case's commands and output, which -q would hide); by hand:
#   python3 /usr/lib/llvm-14/build/utils/lit/lit.py -v build/release/tests/cli/cases/NAME.test
#   python3 /usr/lib/llvm-14/build/utils/lit/lit.py -sv build/release/tests/cli   # every case
#
# A case is one file: a comment saying what it proves, its ctest header, RUN lines and the
# FileCheck lines they are held to.
#   # LABELS: cli            ctest labels (a CMake list: cli;mpi;train); required
#   # TIMEOUT: 120           ctest timeout in seconds; required
#   # PROCESSORS: 2          optional, as ctest's property
#   # SKIP_REGULAR_EXPRESSION: has no CUDA     optional, as ctest's property
#   # REQUIRES: torch, !sanitizer   lit's own line, a comma-separated list of features and
#                            !features only; CMake does not register a case whose REQUIRES the
#                            build does not meet, so that it is never counted as passed
# Features: torch (the trainer is built), cuda (the device runtime), mxnet-models (GluonCV's
# symbols under ORDO_MODELS_DIR), sanitizer (an ORDO_SANITIZE build).
#
# The one convention for exit codes: the command's standard output and error go to %t.out, then
# a line with its exit code, and FileCheck reads the lot; the last CHECK is the exit line:
#   # RUN: %ordo verify --design funnel --layers 2 > %t.out 2>&1; echo "exit=$?" >> %t.out
#   # RUN: FileCheck %s < %t.out
#   # CHECK: {{^}}funnel{{.*}}SAFE at 2 rank
#   # CHECK: {{^}}exit=0{{$}}
# (lit's `not` is not used: it tells only zero from non-zero, and every case expects one code.)
# A setup step a case needs first (the job whose trace it replays, the dump it reads) is a RUN
# line of its own file: a plain one where the step must succeed, the same exit line checked
# under --check-prefix=SETUP where it must fail with a given code (a verdict of unsafe). Helper
# scripts that judge what they see (files.sh, ci_outputs.sh, timeline.sh, ci_example.sh) are
# plain RUN lines: they pass by exiting 0. %t is the case's own scratch path (a directory where
# the case makes one: RUN: rm -rf %t && mkdir -p %t); a case never reads another case's files.
#
# Substitutions: %ordo (the command), %mpirun (mpiexec with the project's flags and its
# process-count flag: %mpirun 2 %ordo train ...), %python (python3 with jsonschema), %{src} (the
# source tree), %{specs} (specs/), %{cli} (tests/cli: helpers and data), %{models}
# (ORDO_MODELS_DIR), and FileCheck, which is run with --strict-whitespace so that a space in a
# CHECK is one space, as it was in the extended regexes these cases replace. RUN lines run in
# bash (set -o pipefail), every line in the same shell, joined by &&.
import os
import shlex

import lit.formats

if not hasattr(config, "ordo"):
    lit_config.fatal("run lit on the build tree's tests/cli (where CMake wrote lit.site.cfg.py), "
                     "not on the source tree")

config.name = "ordo-cli"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test"]
config.excludes = ["data"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.ordo_cli_binary_dir

# The cases see ctest's environment whole, as the commands they replace did (sanitizer options,
# CUDA_VISIBLE_DEVICES, ORDO_*), and Open MPI may run as root, as for every MPI test
# (cmake/mpi_tests.cmake).
config.environment.update(os.environ)
config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"

config.available_features.update(config.ordo_features)

q = shlex.quote
config.substitutions.append(("%ordo", q(config.ordo)))
config.substitutions.append(("%mpirun", " ".join(q(w) for w in config.ordo_mpirun)))
config.substitutions.append(("%python", q(config.ordo_python)))
config.substitutions.append(("%{src}", q(config.ordo_source_dir)))
config.substitutions.append(("%{specs}", q(os.path.join(config.ordo_source_dir, "specs"))))
config.substitutions.append(("%{cli}", q(os.path.join(config.ordo_source_dir, "tests", "cli"))))
config.substitutions.append(("%{models}", q(config.ordo_models_dir)))
config.substitutions.append((r"\bFileCheck\b", q(config.ordo_filecheck) + " --strict-whitespace"))
