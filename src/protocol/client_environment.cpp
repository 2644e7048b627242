#include "protocol/client_environment.h"

#include <algorithm>
#include <array>

extern char** environ;

namespace rlock::protocol {
namespace {

// Where programs and their libraries are found, whose they are, their language and clock, and
// what the adapters in clients/ read: ETCD_ENDPOINT, ZOOKEEPER_CONNECT, HAZELCAST_MEMBERS and
// PG_ENDPOINT (the etcd, ZooKeeper, Hazelcast and PostgreSQL adapters' default servers), PGPASSFILE
// (the path of PostgreSQL's password file, never a password), JAVA_HOME, and the sanitizers' options
// for `rlock client` built with them.
constexpr std::array<std::string_view, 24> kAllowed{"PATH",
                                                    "HOME",
                                                    "USER",
                                                    "LOGNAME",
                                                    "SHELL",
                                                    "LANG",
                                                    "LANGUAGE",
                                                    "TZ",
                                                    "TMPDIR",
                                                    "PYTHONPATH",
                                                    "PYTHONHOME",
                                                    "VIRTUAL_ENV",
                                                    "PYENV_ROOT",
                                                    "PYENV_VERSION",
                                                    "NODE_PATH",
                                                    "ETCD_ENDPOINT",
                                                    "ZOOKEEPER_CONNECT",
                                                    "HAZELCAST_MEMBERS",
                                                    "PG_ENDPOINT",
                                                    "PGPASSFILE",
                                                    "JAVA_HOME",
                                                    "ASAN_OPTIONS",
                                                    "UBSAN_OPTIONS",
                                                    "LSAN_OPTIONS"};

}  // namespace

bool passed_to_clients(std::string_view name) {
  return name.starts_with("LC_") || std::find(kAllowed.begin(), kAllowed.end(), name) != kAllowed.end();
}

std::vector<std::string> client_environment(const std::vector<std::string>& environment) {
  std::vector<std::string> passed;
  for (const std::string& entry : environment) {
    std::size_t equals = entry.find('=');
    if (equals != std::string::npos && passed_to_clients(std::string_view(entry).substr(0, equals)))
      passed.push_back(entry);
  }
  return passed;
}

std::vector<std::string> client_environment() {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) environment.emplace_back(*entry);
  return client_environment(environment);
}

std::vector<std::string> with_overrides(std::vector<std::string> environment,
                                        const std::vector<std::string>& overrides) {
  for (const std::string& override : overrides) {
    std::string_view name = std::string_view(override).substr(0, override.find('=') + 1);  // NAME=
    std::erase_if(environment, [name](const std::string& entry) { return entry.starts_with(name); });
    environment.push_back(override);
  }
  return environment;
}

}  // namespace rlock::protocol
