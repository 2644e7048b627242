// The lock a campaign holds on its chaos directory (DATA_DIR/chaos) while it runs: a second
// campaign there would clear the first's trials, share its accounts and ports, and write into its
// run. An flock(2) on chaos/campaign.lock, which names the holder's pid; the kernel lets it go
// when the holder and its jobs are gone, however they ended.
//
// Owned by the campaign's process (its jobs inherit it while they run). Not thread-safe.
#pragma once

#include <filesystem>

namespace rlock::runner {

class CampaignLock {
 public:
  // Takes the lock, creating `chaos_dir`; throws UsageError, in one line naming the running
  // campaign's pid, when another campaign holds it, and Error when the file cannot be opened.
  explicit CampaignLock(const std::filesystem::path& chaos_dir);
  ~CampaignLock();
  CampaignLock(const CampaignLock&) = delete;
  CampaignLock& operator=(const CampaignLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace rlock::runner
