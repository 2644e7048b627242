#include "store/synthetic_run.h"

#include "bank/account_store.h"
#include "chaos/generator.h"
#include "store/run_record.h"

namespace rlock::store {

checker::TrialInput synthetic_trial(const chaos::TrialSpec& spec, const chaos::ChaosSetup& setup) {
  chaos::Schedule schedule = chaos::schedule_for(spec, setup);
  checker::TrialInput input(spec);
  long long balance = bank::AccountStore::kInitialBalance;
  for (std::size_t i = 0; i < schedule.workers.size(); ++i) {
    const lab::WorkerPlan& w = schedule.workers[i];
    double read_at = w.delay_seconds + static_cast<double>(i) * 0.1;
    bool overlapping = spec.number % 3 == 0 && i == 1;  // read before the first worker wrote
    if (overlapping) read_at = schedule.workers[0].delay_seconds + 0.01;
    input.history.push_back(checker::Operation{
        w.name,
        w.amount,
        checker::Outcome::ok,
        {checker::Section{read_at, read_at + w.work_seconds + 0.05, true, static_cast<long long>(i) + 1}}});
    if (!overlapping) balance += w.amount;
    input.stuck.push_back(false);
  }
  input.struck = spec.number % 2 == 0;
  input.final_balance = balance;
  input.ms = 100 + static_cast<double>(spec.number % 7) * 10;
  return input;
}

std::vector<std::filesystem::path> write_synthetic_shards(const chaos::Campaign& campaign,
                                                          const chaos::ChaosSetup& setup, int shards) {
  std::vector<std::filesystem::path> dirs;
  for (int k = 1; k <= shards; ++k) {
    chaos::Campaign part = campaign;
    part.shard = chaos::Shard{k, shards};
    chaos::ChaosSetup written = setup;
    written.run_dir = new_run_dir(setup.dir, setup.seed, part.shard);
    write_run_record(part, written);
    for (const chaos::TrialSpec& spec : chaos::all_trials(part))
      record_trial(written.run_dir, synthetic_trial(spec, setup));
    seal_run(written.run_dir);
    dirs.push_back(written.run_dir);
  }
  return dirs;
}

}  // namespace rlock::store
