#include "host/server_log.h"

#include <fstream>

namespace rlock::host {

std::string last_log_line(const std::filesystem::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last.empty() ? "no log" : last;
}

}  // namespace rlock::host
