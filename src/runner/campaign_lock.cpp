#include "runner/campaign_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::runner {

CampaignLock::CampaignLock(const std::filesystem::path& chaos_dir) {
  std::filesystem::create_directories(chaos_dir);
  std::filesystem::path path = chaos_dir / "campaign.lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd_ < 0) throw Error(fmt::format("cannot open {}: {}", path.string(), std::strerror(errno)));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    char holder[32] = {};
    ssize_t n = ::pread(fd_, holder, sizeof holder - 1, 0);
    ::close(fd_);
    std::string pid = n > 0 ? std::string(holder, static_cast<std::size_t>(n)) : "unknown";
    throw UsageError(
        fmt::format("another campaign (pid {}) is running in {}: wait for it to end, or give this one "
                    "another --dir",
                    pid, chaos_dir.string()));
  }
  std::string pid = std::to_string(::getpid());
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // the lock holds all the same; only the pid in the message of a second campaign is missing
  }
}

CampaignLock::~CampaignLock() { ::close(fd_); }

}  // namespace rlock::runner
