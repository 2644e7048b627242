// A campaign's plan as a reader of its trial lines meets them (judged_run.h, merge.h): the planned
// cells (planned_cells), found by a line's row, client flag and fault, and which of their trials
// were met and which kept their directory, one bit each a trial of the plan, never a trial itself.
// The campaign's shard is the trials for_each_unmet gives: all of them for a whole campaign.
//
// A value; not thread-safe.
#pragma once

#include <charconv>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "chaos/campaign.h"
#include "rlock/error.h"
#include "store/run_record.h"
#include "store/trial_line.h"

namespace rlock::store {

class PlanTally {
 public:
  explicit PlanTally(const chaos::Campaign& campaign)
      : cells_(chaos::planned_cells(campaign)), trials_(campaign.trials), campaign_(campaign) {
    for (std::size_t c = 0; c < cells_.size(); ++c) {
      index_.emplace(
          CellKey{chaos::row_name(cells_[c]), cells_[c].client.has_value(), std::string(to_string(cells_[c].fault))},
          c);
      met_.emplace_back(static_cast<std::size_t>(trials_), false);
      kept_.emplace_back(static_cast<std::size_t>(trials_), false);
      std::string name = trial_dir_name(cells_[c]);
      by_dir_prefix_.emplace(name.substr(0, name.rfind('-')), c);
    }
  }

  // The spec of the trial `key` names, marked as met; throws Error, naming `where`, when it names no
  // trial of `shard`'s part of the plan or one met before.
  chaos::TrialSpec meet(const TrialKey& key, const chaos::Campaign& shard, const std::string& where) {
    auto& [row, client, fault, number] = key;
    auto found = index_.find(CellKey{row, client, fault});
    if (found == index_.end() || number < 0 || number >= trials_ || !chaos::in_shard(shard, found->second, number)) {
      throw Error(fmt::format("{} names no trial of {}", where,
                              shard.shard.whole() ? "the campaign" : "shard " + chaos::shard_name(shard.shard)));
    }
    std::vector<bool>::reference met = met_[found->second][static_cast<std::size_t>(number)];
    if (met) throw Error(fmt::format("{} names {} {} {} again", where, row, fault, number));
    met = true;
    chaos::TrialSpec spec = cells_[found->second];
    spec.number = number;
    return spec;
  }

  // Marks the trial `spec` (met) as one whose directory its shard may hold.
  void keep(const chaos::TrialSpec& spec) {
    auto found =
        index_.find(CellKey{chaos::row_name(spec), spec.client.has_value(), std::string(to_string(spec.fault))});
    kept_[found->second][static_cast<std::size_t>(spec.number)] = true;
  }

  // Whether `name` is the directory (trial_dir_name) of a trial of `shard` marked kept.
  bool kept(const std::string& name, const chaos::Campaign& shard) const {
    std::size_t dash = name.rfind('-');
    if (dash == std::string::npos) return false;
    auto found = by_dir_prefix_.find(name.substr(0, dash));
    int number = -1;
    std::string_view digits = std::string_view(name).substr(dash + 1);
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (found == by_dir_prefix_.end() || error != std::errc() || end != digits.data() + digits.size() || number < 0 ||
        number >= trials_ || !chaos::in_shard(shard, found->second, number)) {
      return false;
    }
    chaos::TrialSpec spec = cells_[found->second];
    spec.number = number;
    return trial_dir_name(spec) == name && kept_[found->second][static_cast<std::size_t>(number)];
  }

  // Calls `trial` with the spec of each trial of the campaign's shard not met.
  template <typename F>
  void for_each_unmet(F&& trial) const {
    for (std::size_t c = 0; c < cells_.size(); ++c) {
      for (int n = 0; n < trials_; ++n) {
        if (met_[c][static_cast<std::size_t>(n)] || !chaos::in_shard(campaign_, c, n)) continue;
        chaos::TrialSpec spec = cells_[c];
        spec.number = n;
        trial(spec);
      }
    }
  }

 private:
  using CellKey = std::tuple<std::string, bool, std::string>;
  std::vector<chaos::TrialSpec> cells_;
  int trials_;
  chaos::Campaign campaign_;
  std::map<CellKey, std::size_t> index_;
  std::map<std::string, std::size_t> by_dir_prefix_;  // ROW-FAULT of each cell
  std::vector<std::vector<bool>> met_;
  std::vector<std::vector<bool>> kept_;  // met, and anomalous, a client's error or an error's
};

}  // namespace rlock::store
