#include "results/bench_file.h"

#include "results/file_format.h"

namespace rlock::results {
namespace {

constexpr long kMaxLong = std::numeric_limits<long>::max();
constexpr const char* kCaseFields[] = {"name", "samples", "median_us", "p99_us", "floor_us", "ratio"};

nlohmann::json case_json(const BenchFileCase& c) {
  nlohmann::json j{{"name", c.name},     {"samples", c.samples},   {"median_us", c.median_us},
                   {"p99_us", c.p99_us}, {"floor_us", c.floor_us}, {"ratio", c.ratio}};
  j.update(c.extra);
  return j;
}

BenchFileCase case_from(nlohmann::json j) {
  BenchFileCase c{j.at("name").get<std::string>(),
                  count_at<long>(j, "samples"),
                  number_at(j, "median_us"),
                  number_at(j, "p99_us"),
                  number_at(j, "floor_us"),
                  number_at(j, "ratio"),
                  {}};
  for (const char* known : kCaseFields) j.erase(known);
  c.extra = std::move(j);
  return c;
}

nlohmann::json row_json(const BenchFileRow& r) {
  nlohmann::json j{{"name", r.name},
                   {"clients", r.clients},
                   {"accounts", r.accounts},
                   {"increments", r.increments},
                   {"median_us", r.median_us},
                   {"p99_us", r.p99_us},
                   {"floor_us", r.floor_us},
                   {"ratio", r.ratio},
                   {"throughput_per_s", r.throughput_per_s},
                   {"balance_ok", r.balance_ok}};
  if (r.client) j.update({{"client", true}, {"failed", r.failed}});
  return j;
}

BenchFileRow row_from(const nlohmann::json& j) {
  return BenchFileRow{j.at("name").get<std::string>(),
                      within(integer_at<long>(j, "clients"), 1L, kMaxLong, "clients"),
                      within(integer_at<long>(j, "accounts"), 1L, kMaxLong, "accounts"),
                      count_at(j, "increments", 0L),
                      number_at(j, "median_us"),
                      number_at(j, "p99_us"),
                      number_at(j, "floor_us"),
                      number_at(j, "ratio"),
                      number_at(j, "throughput_per_s"),
                      j.at("balance_ok").get<bool>(),
                      j.value("client", false),
                      count_at(j, "failed", 0L)};
}

}  // namespace

nlohmann::json to_json(const BenchFile& file) {
  nlohmann::json j{{"format", kBenchFileFormat},
                   {"cases", nlohmann::json::array()},
                   {"strategies", nlohmann::json::array()},
                   {"env", file.env}};
  for (const BenchFileCase& c : file.cases) j["cases"].push_back(case_json(c));
  for (const BenchFileRow& r : file.strategies) j["strategies"].push_back(row_json(r));
  return j;
}

BenchFile bench_file_from(const nlohmann::json& j) {
  BenchFile file{j.at("env").get<nlohmann::json::object_t>(), {}, {}};
  for (const nlohmann::json& c : j.at("cases")) file.cases.push_back(case_from(c));
  for (const nlohmann::json& r : j.value("strategies", nlohmann::json::array())) file.strategies.push_back(row_from(r));
  return file;
}

void write_bench_file(const std::filesystem::path& path, const BenchFile& file) {
  write_json_file(path, to_json(file));
}

BenchFile read_bench_file(const std::filesystem::path& path) {
  return read_run_file(path, kBenchFileFormat, 1, "a bench run's cases", bench_file_from);
}

}  // namespace rlock::results
