#include "host/netns.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "host/process.h"
#include "host/temp_dir.h"
#include "rlock/error.h"
#include "util/whole_file.h"

namespace rlock::host {
namespace {

namespace fs = std::filesystem;

constexpr const char* kNetnsDir = "/run/netns";  // where `ip netns add` mounts a namespace by name
constexpr const char* kBridge = "rlock";
constexpr std::size_t kMaxMembers = 200;

void need_root() {
  if (::geteuid() != 0) {
    throw Error("--netns needs root: network namespaces and nftables rules are root's to create");
  }
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path == nullptr ? "" : path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (!dir.empty() && ::access((fs::path(dir) / program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

// The file's non-empty lines, joined by "; " (`ip -batch` says what failed, then where).
std::string lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines.empty() ? "no message" : fmt::format("{}", fmt::join(lines, "; "));
}

// Runs `args` to the end; throws Error with what it wrote on stderr when it fails.
void run(const std::vector<std::string>& args) {
  TempDir dir("rlock-netns");
  fs::path err = dir.path() / "stderr";
  if (!reap(spawn_child(args, SpawnOptions{-1, err})).succeeded()) {
    throw Error(fmt::format("{} failed: {}", fmt::join(args, " "), lines_of(err)));
  }
}

// Runs `ip [-n NS] [-force] -batch FILE` with `lines` as the file; -force (`keep_going`) goes on
// after a failed line.
void ip_batch(const std::string& netns, const std::vector<std::string>& lines, bool keep_going = false) {
  TempDir dir("rlock-netns");
  fs::path file = dir.path() / "batch";
  util::write_whole_file(file, fmt::format("{}\n", fmt::join(lines, "\n")));
  std::vector<std::string> args{"ip"};
  if (!netns.empty()) args.insert(args.end(), {"-n", netns});
  if (keep_going) args.push_back("-force");
  args.insert(args.end(), {"-batch", file.string()});
  run(args);
}

void check_member_name(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 9;
  for (char c : name) ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'));
  if (!ok) throw UsageError(fmt::format("bad namespace member name '{}': 1 to 9 of a-z, 0-9", name));
}

// What identifies a network namespace: the device and inode that stat() of /proc/PID/ns/net gives.
using NetnsId = std::pair<dev_t, ino_t>;

std::optional<NetnsId> netns_id(const fs::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return std::nullopt;
  return NetnsId{st.st_dev, st.st_ino};
}

// A namespace rlock created, as its marker (NetnsBridge::kMarkerDir/NAME: "PID DEV INO") records it.
struct Marker {
  std::string name;
  pid_t owner = 0;
  NetnsId id;
};

fs::path marker_path(const std::string& name) { return fs::path(NetnsBridge::kMarkerDir) / name; }

void write_marker(const std::string& name, const NetnsId& id) {
  fs::create_directories(NetnsBridge::kMarkerDir);
  util::write_whole_file(marker_path(name), fmt::format("{} {} {}\n", ::getpid(), id.first, id.second));
}

std::optional<Marker> read_marker(const std::string& name) {
  std::ifstream in(marker_path(name));
  Marker marker{name, 0, {}};
  if (!(in >> marker.owner >> marker.id.first >> marker.id.second) || marker.owner <= 0) return std::nullopt;
  return marker;
}

// SIGKILLs every process that runs in one of the marked namespaces still there (the same namespace
// under the same name), removes them, and drops the markers. Returns the names removed.
std::vector<std::string> remove_namespaces(const std::vector<Marker>& markers) {
  auto ours = [](const Marker& marker) { return netns_id(fs::path(kNetnsDir) / marker.name) == marker.id; };
  std::set<NetnsId> ids;
  std::vector<std::string> removed, lines;
  for (const Marker& marker : markers) {
    if (!ours(marker)) continue;
    ids.insert(marker.id);
    removed.push_back(marker.name);
    lines.push_back("netns del " + marker.name);
  }
  std::error_code ignored;
  if (!lines.empty()) {
    for (const fs::directory_entry& entry : fs::directory_iterator("/proc", ignored)) {
      pid_t pid = 0;
      std::string name = entry.path().filename().string();
      if (std::from_chars(name.data(), name.data() + name.size(), pid).ec != std::errc{} || pid <= 0) continue;
      if (auto id = netns_id(entry.path() / "ns/net"); id && ids.count(*id)) ::kill(pid, SIGKILL);
    }
    try {
      ip_batch("", lines, /*keep_going=*/true);
    } catch (const Error&) {
      // Another run's cleanup may have removed some first: only those still there are a failure.
      if (std::any_of(markers.begin(), markers.end(), ours)) throw;
    }
  }
  for (const Marker& marker : markers) fs::remove(marker_path(marker.name), ignored);
  return removed;
}

}  // namespace

NetnsBridge::NetnsBridge(const std::vector<std::string>& members) {
  need_root();
  for (const char* program : {"ip", "nft"}) {
    if (!on_path(program)) {
      throw Error(fmt::format("--netns needs {} (Debian package {}), which is not on PATH", program,
                              std::string(program) == "ip" ? "iproute2" : "nftables"));
    }
  }
  if (members.empty() || members.size() > kMaxMembers) {
    throw UsageError(fmt::format("a namespace lab has 1 to {} members, not {}", kMaxMembers, members.size()));
  }
  for (const std::string& member : members) {
    check_member_name(member);
    std::string address = fmt::format("127.77.0.{}", address_.size() + 1);
    if (!address_.emplace(member, address).second) throw UsageError("namespace member named twice: " + member);
  }
  cleanup_leftovers();
  static std::atomic<int> labs{0};
  lab_ = fmt::format("{}{}-{}", kPrefix, ::getpid(), labs++);
  try {
    build(members);
  } catch (...) {
    teardown();
    throw;
  }
}

NetnsBridge::~NetnsBridge() { teardown(); }

// Creates the namespaces and marks each one created, even when the batch stopped half-way. A name
// taken already is someone else's namespace: nothing is created then.
void NetnsBridge::create_namespaces(const std::vector<std::string>& names) {
  std::vector<std::string> adds;
  for (const std::string& name : names) {
    if (netns_id(fs::path(kNetnsDir) / name)) {
      throw Error(fmt::format(
          "a network namespace named {} exists already and is not this run's: rlock leaves it alone", name));
    }
    adds.push_back("netns add " + name);
  }
  auto mark = [&] {
    for (const std::string& name : names) {
      if (auto id = netns_id(fs::path(kNetnsDir) / name)) {
        write_marker(name, *id);
        namespaces_.push_back(name);
      }
    }
  };
  try {
    ip_batch("", adds);
  } catch (const Error&) {
    mark();
    throw;
  }
  mark();
}

void NetnsBridge::build(const std::vector<std::string>& members) {
  std::vector<std::string> names{lab_};
  for (const std::string& member : members) names.push_back(namespace_of(member));
  create_namespaces(names);

  std::vector<std::string> bridge{fmt::format("link add {} type bridge", kBridge),
                                  fmt::format("link set {} up", kBridge)};
  for (const std::string& member : members) {
    bridge.push_back(
        fmt::format("link add {} type veth peer name eth0 netns {}", port_of(member), namespace_of(member)));
    bridge.push_back(fmt::format("link set {} master {} up", port_of(member), kBridge));
  }
  ip_batch(lab_, bridge);
  apply_rules();

  for (const std::string& member : members) {
    // 127/8 on eth0 is martian unless route_localnet is on (the header says why this range).
    run({"ip", "netns", "exec", namespace_of(member), "sh", "-c",
         "echo 1 > /proc/sys/net/ipv4/conf/all/route_localnet"});
    ip_batch(namespace_of(member),
             {"link set lo up", fmt::format("addr add {}/24 dev eth0", address(member)), "link set eth0 up"});
  }
}

void NetnsBridge::teardown() noexcept {
  try {
    std::vector<Marker> markers;
    for (const std::string& name : namespaces_) {
      if (auto marker = read_marker(name)) markers.push_back(*marker);
    }
    remove_namespaces(markers);
  } catch (const std::exception&) {
    // cleanup_leftovers() at the next start removes what is left (the owner is gone by then)
  }
  namespaces_.clear();
}

const std::string& NetnsBridge::address(const std::string& member) const {
  auto it = address_.find(member);
  if (it == address_.end()) throw Error("no namespace member named " + member);
  return it->second;
}

std::string NetnsBridge::namespace_of(const std::string& member) const {
  address(member);  // throws for an unknown member
  return fmt::format("{}-{}", lab_, member);
}

std::string NetnsBridge::port_of(const std::string& member) const { return kPrefix + member; }

pid_t NetnsBridge::spawn(const std::string& member, const std::vector<std::string>& args,
                         const SpawnOptions& options) const {
  std::vector<std::string> all{"ip", "netns", "exec", namespace_of(member)};
  all.insert(all.end(), args.begin(), args.end());
  return spawn_child(all, options);
}

void NetnsBridge::enter(const std::string& member) const {
  std::string path = (fs::path(kNetnsDir) / namespace_of(member)).string();
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::setns(fd, CLONE_NEWNET) != 0) {
    std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    throw Error(fmt::format("cannot enter network namespace {}: {}", path, why));
  }
  ::close(fd);
}

void NetnsBridge::partition(const std::string& a, const std::string& b) {
  address(a);  // throws for an unknown member
  address(b);
  cut_.insert(std::minmax(a, b));
  apply_rules();
}

void NetnsBridge::heal(const std::string& a, const std::string& b) {
  cut_.erase(std::minmax(a, b));
  apply_rules();
}

void NetnsBridge::heal_all() {
  cut_.clear();
  apply_rules();
}

// Writes the whole table again, in one nft transaction: the rules change at once, both ways.
void NetnsBridge::apply_rules() const {
  std::string rules = fmt::format(
      "table bridge {0}\ndelete table bridge {0}\n"
      "table bridge {0} {{\n  chain forward {{\n    type filter hook forward priority 0; policy accept;\n",
      kBridge);
  for (const auto& [a, b] : cut_) {
    rules += fmt::format("    iifname \"{0}\" oifname \"{1}\" drop\n    iifname \"{1}\" oifname \"{0}\" drop\n",
                         port_of(a), port_of(b));
  }
  rules += "  }\n}\n";
  TempDir dir("rlock-netns");
  fs::path file = dir.path() / "rules.nft";
  util::write_whole_file(file, rules);
  run({"ip", "netns", "exec", lab_, "nft", "-f", file.string()});
}

std::vector<std::string> NetnsBridge::cleanup_leftovers() {
  need_root();
  std::vector<Marker> leftovers;
  std::error_code ignored;
  for (const fs::directory_entry& entry : fs::directory_iterator(kMarkerDir, ignored)) {
    auto marker = read_marker(entry.path().filename().string());
    if (marker && !process_alive(marker->owner)) leftovers.push_back(*marker);
  }
  return remove_namespaces(leftovers);
}

}  // namespace rlock::host
