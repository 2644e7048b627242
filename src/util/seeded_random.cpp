#include "util/seeded_random.h"

namespace rlock::util {

std::uint64_t SeededRandom::mix(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t SeededRandom::next() {
  state_ += 0x9e3779b97f4a7c15ULL;
  return mix(state_);
}

long long SeededRandom::integer(long long low, long long high) {
  std::uint64_t span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1;
  if (span == 0) return static_cast<long long>(next());  // the whole 64-bit range
  std::uint64_t threshold = (0 - span) % span;           // 2^64 mod span
  std::uint64_t x = next();
  while (x < threshold) x = next();
  return static_cast<long long>(static_cast<std::uint64_t>(low) + x % span);
}

double SeededRandom::unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double SeededRandom::real(double low, double high) { return low + (high - low) * unit(); }

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return hash;
}

}  // namespace rlock::util
