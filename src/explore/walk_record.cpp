#include "explore/walk_record.h"

#include <algorithm>

#include <fmt/format.h>

#include "chaos/campaign.h"
#include "chaos/faults/fault.h"
#include "checker/history.h"
#include "checker/judge.h"
#include "checker/tally.h"
#include "lab/run_log.h"
#include "lab/wording.h"
#include "rlock/error.h"
#include "store/run_record.h"
#include "timeline/timeline_svg.h"

namespace rlock::explore {
namespace fs = std::filesystem;
namespace {

chaos::ChaosSetup setup_of(const Servers& servers, const fs::path& explore_dir, std::uint64_t seed,
                           const fs::path& run_dir) {
  chaos::ChaosSetup setup{servers.redis, servers.conninfo, explore_dir, seed, std::chrono::milliseconds(60'000)};
  setup.run_dir = run_dir;
  setup.failover_port = servers.failover_port;
  return setup;
}

// The campaign a walk is kept as: its strategy under the fault its events make, a trial an order.
chaos::Campaign campaign_of(const World& world, long long orders) {
  return chaos::Campaign{{world.strategy}, {}, {walk_fault(world)}, static_cast<int>(std::max(1LL, orders)), 1};
}

// The move during which an event stamped `t` was recorded.
double step_of(const std::vector<double>& started, double t) {
  auto after = std::upper_bound(started.begin(), started.end(), t);
  return after == started.begin() ? 0 : static_cast<double>(after - started.begin() - 1);
}

}  // namespace

WalkRecord::WalkRecord(const World& world, const Servers& servers, const fs::path& explore_dir, std::uint64_t seed,
                       const fs::path& run_dir)
    : world_(world),
      servers_(servers),
      explore_dir_(explore_dir),
      seed_(seed),
      run_dir_(run_dir.empty() ? store::new_run_dir(explore_dir, seed) : run_dir),
      cells_(checker::empty_table(campaign_of(world, 1))) {
  fs::create_directories(run_dir_);
  orders_.emplace(run_dir_ / "orders.txt");
}

fs::path WalkRecord::shortest_dir(const OrderRun& run) const {
  return run_dir_ / "trials" /
         fmt::format("{}-{}-{}", lab::to_string(world_.strategy), chaos::to_string(walk_fault(world_)),
                     run.judged.input.spec.number);
}

void WalkRecord::add(const OrderRun& run) {
  store::record_trial(run_dir_, run.judged.input);
  checker::tally(cells_, run.judged.result);
  orders_->append_line(order_text(run.order));
  if (!run.losing() || (kept_ && run.order.size() >= kept_size_)) return;
  if (kept_) fs::remove_all(*kept_);
  kept_ = shortest_dir(run);
  kept_size_ = run.order.size();
  fs::create_directories(*kept_);
}

fs::path WalkRecord::finish(Exploration& walk) {
  orders_.reset();
  chaos::Campaign campaign = campaign_of(world_, walk.orders);
  chaos::ChaosSetup setup = setup_of(servers_, explore_dir_, seed_, run_dir_);
  store::write_run_record(campaign, setup);
  checker::write_json((run_dir_ / "chaos.json").string(), cells_, campaign, setup);
  if (kept_ && walk.shortest) {
    lab::LogDir kept(*kept_);
    lab::write_events(kept, walk.shortest->events, lab::Lang::en);
    steps_as_seconds(kept, *walk.shortest);
    timeline::write_timeline(kept, kept.timeline(),
                             timeline::SvgOptions{fmt::format("rlock explore: {}, the shortest losing order",
                                                              lab::to_string(world_.strategy))});
  }
  store::seal_run(run_dir_);
  return kept_.value_or(fs::path());
}

void steps_as_seconds(const lab::LogDir& dir, OrderRun& order) {
  const std::vector<double>& started = order.started;
  for (checker::Operation& op : order.judged.input.history) {
    for (checker::Section& section : op.sections) {
      section.read_at = step_of(started, section.read_at);
      section.wrote_at = step_of(started, section.wrote_at);
    }
  }
  order.judged.result = checker::judge(order.judged.input);
  std::vector<lab::Event> events = lab::read_events(dir);
  for (lab::Event& event : events) {
    event.t = step_of(started, event.t);
    if (event.sent_at()) event.fields["sent_at"] = step_of(started, *event.sent_at());
  }
  lab::write_events(dir, events, lab::Lang::en);
}

}  // namespace rlock::explore
