// The format number that every file a run leaves carries (chaos.json, bench.json, run.json, each
// line of trials.jsonl and of events.jsonl): an integer field "format", one number per kind of
// file, defined once beside that file's fields and raised when a reader of the previous number
// could no longer read it right. A reader refuses a newer number in one line. The files' schemas
// are in docs/schemas/.
//
// Pure functions; thread-safe.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "rlock/error.h"

namespace rlock::results {

// `j`'s format. `when_absent` is the format of the files written before the field was (0: the
// field is required). Throws Error, in one line starting with `where`, for a format newer than
// `newest`, a missing required one, or one that is not a positive integer.
int check_format(const nlohmann::json& j, int newest, std::string_view where, int when_absent);

// How deep untrusted JSON may nest (a run's files nest 5 deep, a protocol message 2).
inline constexpr int kMaxJsonDepth = 64;

// The one parser of JSON that rlock did not make in this process (a run's files, trial lines,
// events, scenario files, manifests, a client's lines): `text` parsed, its nesting bounded, so that
// no file nested 400,000 deep is built, dumped or destroyed. Throws nlohmann::json::parse_error for
// text that is not JSON, and Error ("nested deeper than 64 levels") before it builds a deeper one.
nlohmann::json parse_json(std::string_view text);
// The same, a discarded value (is_discarded()) instead of either exception.
nlohmann::json parse_json_or_discarded(std::string_view text);

// A reader's default bound on a run file's size.
inline constexpr std::uintmax_t kMaxRunFileSize = std::uintmax_t{256} << 20;

// The JSON object in `path`, its format checked as check_format does, read as a regular file alone
// (util/plain_files.h: no link, no FIFO, no device). Throws Error, in one line naming the file,
// when it cannot be read, is no regular file, is larger than `max_bytes` or holds no JSON object.
nlohmann::json read_json_file(const std::filesystem::path& path, int newest, int when_absent,
                              std::uintmax_t max_bytes = kMaxRunFileSize);

// parse(read_json_file(path, newest, when_absent)), for a file of `what` ("a chaos run's table").
// Throws Error as read_json_file does, and naming the file when parse throws (a field missing, of
// the wrong type or out of range).
template <typename Parse>
auto read_run_file(const std::filesystem::path& path, int newest, int when_absent, std::string_view what, Parse&& parse,
                   std::uintmax_t max_bytes = kMaxRunFileSize) {
  nlohmann::json j = read_json_file(path, newest, when_absent, max_bytes);
  try {
    return parse(j);
  } catch (const nlohmann::json::exception& e) {
    throw Error(path.string() + " is not " + std::string(what) + ": " + e.what());
  } catch (const Error& e) {
    throw Error(path.string() + " is not " + std::string(what) + ": " + e.what());
  }
}

// j[name] as an integer of type T; `absent` when given and the field is missing. Throws
// nlohmann::json::exception for a missing field, and for one that is not an integer within T
// (where .get<T>() would convert a float such as 1e300, which is undefined).
template <std::integral T>
T integer_at(const nlohmann::json& j, const char* name) {
  const nlohmann::json& value = j.at(name);
  bool fits = value.is_number_unsigned() ? std::in_range<T>(value.get<std::uint64_t>())
                                         : value.is_number_integer() && std::in_range<T>(value.get<std::int64_t>());
  if (!fits) {
    throw nlohmann::json::type_error::create(302, std::string(name) + " is not an integer in range", &value);
  }
  return value.get<T>();
}
template <std::integral T>
T integer_at(const nlohmann::json& j, const char* name, T absent) {
  return j.contains(name) ? integer_at<T>(j, name) : absent;
}

// `value`, read from the field `name`, when it is finite and within [min, max]. Throws
// nlohmann::json::exception otherwise: a reader's range check, as the schemas give it.
template <typename T>
T within(T value, T min, T max, const char* name) {
  bool finite = true;
  if constexpr (std::floating_point<T>) finite = std::isfinite(value);
  if (!finite || !(value >= min && value <= max)) {
    throw nlohmann::json::out_of_range::create(406, std::string(name) + " is out of range", nullptr);
  }
  return value;
}
// integer_at, refusing a negative value: a count.
template <std::integral T>
T count_at(const nlohmann::json& j, const char* name) {
  return within(integer_at<T>(j, name), T{0}, std::numeric_limits<T>::max(), name);
}
template <std::integral T>
T count_at(const nlohmann::json& j, const char* name, T absent) {
  return j.contains(name) ? count_at<T>(j, name) : absent;
}

// j[name] as a finite number within [min, max]. Throws nlohmann::json::exception otherwise.
inline double number_at(const nlohmann::json& j, const char* name, double min = 0,
                        double max = std::numeric_limits<double>::max()) {
  return within(j.at(name).get<double>(), min, max, name);
}

// `j` written to `path`, indented by two, with a final newline, whole and never through a link
// (util/whole_file.h). Throws Error when it cannot be; `path` is then as it was.
void write_json_file(const std::filesystem::path& path, const nlohmann::json& j);

}  // namespace rlock::results
