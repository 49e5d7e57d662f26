#!/usr/bin/env python3
"""Runs LLVM's lit on the cases given, without its record of test times.

ctest runs each case as a lit invocation of its own, two or more at once, and every invocation
of lit reads `.lit_test_times.txt` in the suite's build folder when it starts and rewrites it in
place when it ends. A start that reads the file while another invocation rewrites it fails in
discovery on a half-written line ("could not convert string to float"), so the outcome of a case
depended on the timing of its neighbours (seen on a loaded machine: 16 cases at once). The times
only order the tests of one invocation, and each invocation here runs one case, so nothing is
lost by neither reading nor writing them.

Usage: run_lit.py LIT_PY [lit arguments...]
"""
import os
import sys

lit_py = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(lit_py)))
import lit.Test  # noqa: E402
import lit.main  # noqa: E402

lit.Test.read_test_times = lambda suite: {}
lit.main.record_test_times = lambda tests, lit_config: None
sys.argv = [lit_py] + sys.argv[2:]
lit.main.main()
