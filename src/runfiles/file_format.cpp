#include "runfiles/file_format.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::runfiles {

int check_format(const nlohmann::json& j, int newest, std::string_view where, int when_absent) {
  auto field = j.find("format");
  if (field == j.end()) {
    if (when_absent > 0) return when_absent;
    throw Error(fmt::format("{}: no format number: not written by rlock", where));
  }
  if (!field->is_number_integer() || field->get<long long>() < 1) {
    throw Error(fmt::format("{}: format {} is not a format number", where, field->dump()));
  }
  long long format = field->get<long long>();
  if (format > newest) {
    throw Error(fmt::format("{}: format {} is newer than this rlock reads ({}): use a newer rlock", where, format,
                            newest));
  }
  return static_cast<int>(format);
}

nlohmann::json read_json_file(const std::filesystem::path& path, int newest, int when_absent) {
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("cannot read {}", path.string()));
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw Error(fmt::format("{} is not a JSON object (truncated?)", path.string()));
  check_format(j, newest, path.string(), when_absent);
  return j;
}

void write_json_file(const std::filesystem::path& path, const nlohmann::json& j) {
  std::ofstream out(path);
  out << j.dump(2) << "\n";
  if (!out) throw Error(fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
}

}  // namespace rlock::runfiles
