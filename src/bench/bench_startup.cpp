// The startup case of rlock bench: how long `rlock worker` takes from its spawn to its first Redis
// command (seen by a MONITOR connection, stamped by the server's clock, which is this machine's),
// and how much memory it peaks at. Runs in a process with no other threads (it forks).
#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <fstream>

#include <fmt/format.h>

#include "bench/bench.h"
#include "host/child.h"
#include "lab/log_dir.h"
#include "rlock/error.h"
#include "util/stats.h"

extern char** environ;

namespace rlock::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kMinRuns = 10;
constexpr std::chrono::seconds kFirstCommandLimit{5};

long long wall_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The server's time in a MONITOR line, "1700000000.123456 [0 127.0.0.1:5555] \"PING\"", in microseconds.
long long monitor_stamp_us(const std::string& line) {
  long long seconds = 0, micros = 0;
  const char* end = line.data() + line.size();
  auto [dot, ec] = std::from_chars(line.data(), end, seconds);
  if (ec != std::errc() || dot == end || *dot != '.' || std::from_chars(dot + 1, end, micros).ec != std::errc()) {
    throw Error(fmt::format("rlock bench: cannot read the time of MONITOR line '{}'", line));
  }
  return seconds * 1'000'000 + micros;
}

// Starts argv with stdout and stderr going to `output`, and returns its pid. fork, not vfork or
// posix_spawn: Linux counts the memory a process had before its exec in its peak (ru_maxrss), and a
// vfork child's is all of this process's; a forked child's is only what it copied (the anonymous
// pages), a fraction of a worker's peak.
pid_t spawn(const std::vector<std::string>& args, const std::filesystem::path& output) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  return host::fork_child([&] {
    int fd = ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    ::execve(argv[0], argv.data(), environ);
    return 127;
  });
}

std::string first_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

BenchCase measure_startup(const BenchSetup& setup) {
  lab::LogDir lab(setup.dir / "startup");
  lab.start_new_run(static_cast<double>(wall_us()) / 1e6 - 1);  // already started: workers do not wait
  bank::AccountStore(setup.conninfo).reset(setup.account);
  RedisConnection monitor(setup.redis);
  monitor.checked({"MONITOR"});

  std::vector<std::string> worker{setup.rlock.string()};
  worker.insert(worker.end(), setup.global_args.begin(), setup.global_args.end());
  for (const char* arg : {"--dir", lab.root().c_str(), "worker", "startup", "1", "--account"}) worker.emplace_back(arg);
  worker.push_back(std::to_string(setup.account));
  std::filesystem::path output = setup.dir / "startup.out";

  std::vector<double> startup_us, exec_floor_us, peak_kb;
  auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(setup.seconds);
  while (Clock::now() < end || startup_us.size() < kMinRuns) {
    auto floor_start = Clock::now();
    host::reap(spawn({"/bin/true"}, "/dev/null"));
    exec_floor_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - floor_start).count());

    long long spawned = wall_us();
    pid_t pid = spawn(worker, output);
    long long first = 0;
    while (first == 0) {
      std::optional<Reply> line = monitor.receive(kFirstCommandLimit);
      if (!line)
        throw Error(fmt::format("rlock bench: rlock worker sent no command within {} s", kFirstCommandLimit.count()));
      if (long long stamp = monitor_stamp_us(line->text()); stamp >= spawned) first = stamp;
    }
    host::ChildExit exit = host::reap(pid);
    if (!exit.succeeded()) {
      throw Error(fmt::format("rlock bench: rlock worker failed: {}", first_line(output)));
    }
    startup_us.push_back(static_cast<double>(first - spawned));
    peak_kb.push_back(static_cast<double>(exit.peak_rss_kb));
  }
  BenchCase result = BenchCase::from("startup", startup_us, util::median(exec_floor_us));
  result.extra = {{"peak_rss_kb_median", util::median(peak_kb)}, {"peak_rss_kb_max", util::percentile(peak_kb, 1.0)}};
  return result;
}

}  // namespace rlock::bench
