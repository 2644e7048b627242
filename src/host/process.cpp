#include "host/process.h"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <thread>

#include <fmt/format.h>

namespace rlock::host {

std::string proc_file(pid_t pid, const char* file) {
  std::ifstream in(fmt::format("/proc/{}/{}", pid, file));
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool process_alive(pid_t pid) {
  std::string stat = proc_file(pid, "stat");
  auto close = stat.rfind(')');  // the command name may itself hold spaces and parentheses
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

std::string own_binary() { return fmt::format("/proc/{}/exe", getpid()); }

bool wait_for(std::chrono::milliseconds limit, const std::function<bool()>& done) {
  for (auto until = std::chrono::steady_clock::now() + limit; std::chrono::steady_clock::now() < until;) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

}  // namespace rlock::host
