// A seeded random generator whose every draw is written out here: SplitMix64 (Steele, Lea and
// Flood, 2014) for the bits, and explicit mappings from them to an integer range and to a double,
// so that a seed gives the same draws with any compiler and standard library (the standard leaves
// std::uniform_*_distribution's algorithm to each library). For replayable schedules only: not
// for tokens (make_token) or anything an adversary may guess.
//
// A value type; one generator per thread.
#pragma once

#include <cstdint>
#include <string_view>

namespace rlock::util {

class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : state_(seed) {}

  // SplitMix64's next 64 bits.
  std::uint64_t next();
  // An integer in [low, high] (low <= high), without modulo bias: draws below 2^64 mod span are
  // drawn again, and the rest taken modulo the span.
  long long integer(long long low, long long high);
  // A double in [0, 1): the top 53 bits times 2^-53.
  double unit();
  // A double in [low, high): low + (high - low) * unit().
  double real(double low, double high);

  // SplitMix64's finalizer alone: a well-mixed function of x, for deriving seeds.
  static std::uint64_t mix(std::uint64_t x);

 private:
  std::uint64_t state_;
};

// FNV-1a: a hash of a name that is the same on every machine and build.
std::uint64_t fnv1a(std::string_view text);

}  // namespace rlock::util
