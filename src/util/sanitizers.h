// RLOCK_ADDRESS_SANITIZER: 1 when this build runs under AddressSanitizer (the asan preset), else 0.
// gcc says so by __SANITIZE_ADDRESS__, clang by __has_feature(address_sanitizer).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define RLOCK_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RLOCK_ADDRESS_SANITIZER 1
#endif
#endif

#ifndef RLOCK_ADDRESS_SANITIZER
#define RLOCK_ADDRESS_SANITIZER 0
#endif
