// Which sanitizer a test runs under, for the tests that must run less (a sanitizer slows them
// about tenfold) or skip a check the sanitizer cannot judge. clang says so through __has_feature,
// g++ through __SANITIZE_THREAD__ and __SANITIZE_ADDRESS__; the ThreadSanitizer build uses g++ so
// that the code on libtorch runs under it too.
#pragma once

namespace ordo::testing {

#if defined(__SANITIZE_THREAD__)
inline constexpr bool under_thread_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool under_thread_sanitizer = true;
#else
inline constexpr bool under_thread_sanitizer = false;
#endif
#else
inline constexpr bool under_thread_sanitizer = false;
#endif

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool under_address_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool under_address_sanitizer = true;
#else
inline constexpr bool under_address_sanitizer = false;
#endif
#else
inline constexpr bool under_address_sanitizer = false;
#endif

}  // namespace ordo::testing
