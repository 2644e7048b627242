#include "lab/lab_dir.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "rlock/error.h"

namespace fs = std::filesystem;

namespace rlock::lab {

void LabDir::start_new_run(double start_epoch_seconds) const {
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (ec) throw Error(fmt::format("cannot create lab directory {}: {}", root_.string(), ec.message()));
  for (const fs::directory_entry& entry : fs::directory_iterator(root_, ec)) {
    std::string name = entry.path().filename().string();
    if (name == "run.log" || name == "events.jsonl" || name == "timeline.svg" || name.starts_with(".read_") ||
        name.starts_with(".pid_")) {
      fs::remove(entry.path(), ec);
      if (ec) throw Error(fmt::format("cannot remove {}: {}", entry.path().string(), ec.message()));
    }
  }
  if (ec) throw Error(fmt::format("cannot read lab directory {}: {}", root_.string(), ec.message()));
  write_file(start_file(), fmt::format("{:.6f}\n", start_epoch_seconds));
}

double LabDir::start() const {
  std::ifstream in(start_file());
  double start = 0;
  if (!(in >> start)) {
    throw Error(fmt::format("no run started in {}: run `rlock reset` first", root_.string()));
  }
  return start;
}

void LabDir::write_file(const fs::path& path, std::string_view text) const {
  fs::path temporary = path;
  temporary += fmt::format(".tmp{}", ::getpid());
  {
    errno = 0;
    std::ofstream out(temporary, std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::string why = errno ? std::strerror(errno) : "write failed";
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw Error(fmt::format("cannot write {}: {}", path.string(), why));
    }
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw Error(fmt::format("cannot write {}: {}", path.string(), ec.message()));
  }
}

}  // namespace rlock::lab
