#include "util/run_dir.h"

#include <ctime>

#include <fmt/format.h>

namespace rlock::util {

std::string utc_now(const char* format) {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[64];
  std::strftime(text, sizeof text, format, &tm);
  return text;
}

std::filesystem::path unused_path(const std::filesystem::path& base) {
  std::filesystem::path path = base;
  for (int n = 2; std::filesystem::exists(path); ++n) path = fmt::format("{}-{}", base.string(), n);
  return path;
}

}  // namespace rlock::util
