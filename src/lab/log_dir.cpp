#include "lab/log_dir.h"

#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "rlock/error.h"
#include "util/whole_file.h"

namespace fs = std::filesystem;

namespace rlock::lab {

void LogDir::start_new_run(double start_epoch_seconds) const {
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (ec) throw Error(fmt::format("cannot create data directory {}: {}", root_.string(), ec.message()));
  for (const fs::directory_entry& entry : fs::directory_iterator(root_, ec)) {
    std::string name = entry.path().filename().string();
    if (name == "run.log" || name == "events.jsonl" || name == "timeline.svg" || name.starts_with(".read_") ||
        name.starts_with(".pid_")) {
      fs::remove(entry.path(), ec);
      if (ec) throw Error(fmt::format("cannot remove {}: {}", entry.path().string(), ec.message()));
    }
  }
  if (ec) throw Error(fmt::format("cannot read data directory {}: {}", root_.string(), ec.message()));
  write_file(start_file(), fmt::format("{:.6f}\n", start_epoch_seconds));
}

double LogDir::start() const {
  std::ifstream in(start_file());
  double start = 0;
  if (!(in >> start)) {
    throw Error(fmt::format("no run started in {}: run `rlock reset` first", root_.string()));
  }
  return start;
}

void LogDir::write_file(const fs::path& path, std::string_view text) const { util::write_whole_file(path, text); }

}  // namespace rlock::lab
