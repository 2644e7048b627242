#include "util/duration_text.h"

#include <fmt/format.h>

namespace rlock::util {

std::string duration_text(double us) {
  if (us < 1000) return fmt::format("{:.0f} us", us);
  if (us < 10'000) return fmt::format("{:.2f} ms", us / 1e3);
  return fmt::format("{:.1f} ms", us / 1e3);
}

}  // namespace rlock::util
