// The one source of ordo_test_pch, the target whose precompiled GoogleTest headers every test
// program reuses (tests/CMakeLists.txt); it has nothing of its own to compile.
