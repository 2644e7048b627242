// Random bytes from the operating system (getrandom(2)), for tokens and Redlock's retry delays.
// Throws Error when the kernel refuses. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rlock {

void fill_random(unsigned char* data, std::size_t size);
std::uint64_t random_u64();

}  // namespace rlock
