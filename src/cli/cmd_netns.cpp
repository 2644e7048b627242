// rlock netns cleanup: removes the network namespaces (with their links and nftables rules) that a
// run of rlock left behind when it died before removing them: those its marker says rlock created,
// whose creating process is gone, never one by its name (src/host/netns.h). Prints each one removed.
// Needs root.
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "host/netns.h"

namespace rlock::cli {
namespace {

struct NetnsOptions {
  std::string action;  // only "cleanup" so far
};

void cleanup() {
  std::vector<std::string> removed = host::NetnsBridge::cleanup_leftovers();
  for (const std::string& name : removed) fmt::print("removed network namespace {}\n", name);
  fmt::print("netns cleanup: {} left over\n", removed.size());
}

}  // namespace

void register_netns(CLI::App& app, const GlobalOptions& /*global*/) {
  auto options = std::make_shared<NetnsOptions>();
  CLI::App* cmd = app.add_subcommand("netns", "the network namespaces of a real partition (--netns): cleanup");
  cmd->add_option("ACTION", options->action, "cleanup: remove what a crashed run left (namespaces, links, rules)")
      ->required()
      ->check(CLI::IsMember({"cleanup"}));
  cmd->callback([options] { cleanup(); });  // the options live as long as the callback
}

}  // namespace rlock::cli
