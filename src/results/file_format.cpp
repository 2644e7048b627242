#include "results/file_format.h"

#include <cerrno>

#include <unistd.h>

#include <fmt/format.h>

#include "rlock/error.h"
#include "util/plain_files.h"
#include "util/whole_file.h"

namespace rlock::results {

nlohmann::json parse_json(std::string_view text) {
  return nlohmann::json::parse(text, [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > kMaxJsonDepth) throw Error(fmt::format("nested deeper than {} levels", kMaxJsonDepth));
    return true;
  });
}

nlohmann::json parse_json_or_discarded(std::string_view text) {
  try {
    return parse_json(text);
  } catch (const nlohmann::json::exception&) {
  } catch (const Error&) {
  }
  return nlohmann::json(nlohmann::json::value_t::discarded);
}

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
    throw Error(
        fmt::format("{}: format {} is newer than this rlock reads ({}): use a newer rlock", where, format, newest));
  }
  return static_cast<int>(format);
}

nlohmann::json read_json_file(const std::filesystem::path& path, int newest, int when_absent,
                              std::uintmax_t max_bytes) {
  // A regular file alone, never through a link, never blocking on a FIFO, bounded (util/plain_files.h).
  nlohmann::json j = parse_json_or_discarded(util::read_plain_file(path, max_bytes));
  if (!j.is_object()) throw Error(fmt::format("{} is not a JSON object (truncated?)", path.string()));
  check_format(j, newest, path.string(), when_absent);
  return j;
}

void write_json_file(const std::filesystem::path& path, const nlohmann::json& j) {
  util::write_whole_file(path, j.dump(2) + "\n");
}

}  // namespace rlock::results
