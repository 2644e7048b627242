#include "nemesis/nemesis.h"

#include <signal.h>

#include <gtest/gtest.h>

#include "host/temp_dir.h"
#include "lab/log_dir.h"
#include "rlock/error.h"
#include "testing/test_env.h"

namespace rlock::nemesis {
namespace {

using testing::error_message;

constexpr int kPort = 6459;  // a port of this test alone

// A Redis of the test's own, a run to record into, and the targets on them.
class NemesisTest : public ::testing::Test {
 protected:
  NemesisTest() : server_(kPort, temp_.path()), dir_(temp_.path() / "run") {
    dir_.start_new_run(lab::wall_seconds());
    log_.emplace(dir_, lab::Lang::en);
    targets_.log = &*log_;
    targets_.key = LockKey::for_account(1);
    targets_.workers = {"A", "B"};
    targets_.redis = &server_.connection();
  }

  std::vector<Operation> recorded() const { return operations_in(lab::read_events(dir_)); }
  bool holds_lock() { return !server_.connection().checked({"GET", targets_.key.lock}).is_nil(); }

  host::TempDir temp_;
  host::LocalRedis server_;
  lab::LogDir dir_;
  std::optional<lab::RunLog> log_;
  Targets targets_;
};

TEST_F(NemesisTest, ExpireDeletesTheLockAndIsRecordedByName) {
  server_.connection().checked({"SET", targets_.key.lock, "token", "PX", "60000"});
  apply({OpKind::expire}, targets_);
  EXPECT_FALSE(holds_lock());
  EXPECT_EQ(recorded(), std::vector<Operation>{Operation{OpKind::expire}});
}

TEST_F(NemesisTest, ARestartOfARedisOfItsOwnComesBackEmptyOnItsPort) {
  server_.connection().checked({"SET", targets_.key.lock, "token", "PX", "60000"});
  pid_t before = server_.pid();
  targets_.own = &server_;
  apply({OpKind::restart}, targets_);
  EXPECT_NE(server_.pid(), before);
  EXPECT_FALSE(holds_lock());
  EXPECT_EQ(recorded(), std::vector<Operation>{Operation{OpKind::restart}});
}

TEST_F(NemesisTest, AWorkerIsSignalledByNameAndAnEndedOneLeavesNoRecord) {
  std::vector<std::pair<std::size_t, int>> sent;
  bool running = true;
  targets_.signal = [&](std::size_t worker, int number) {
    sent.emplace_back(worker, number);
    return running;
  };
  apply({OpKind::pause, "B"}, targets_);
  running = false;
  apply({OpKind::resume, "B"}, targets_);
  std::vector<std::pair<std::size_t, int>> expected{{1, SIGSTOP}, {1, SIGCONT}};
  EXPECT_EQ(sent, expected);
  std::vector<Operation> paused{Operation{OpKind::pause, "B"}};
  EXPECT_EQ(recorded(), paused);
}

TEST_F(NemesisTest, AnOperationWithoutWhatItActsOnSaysWhat) {
  EXPECT_NE(error_message<Error>([&] { apply({OpKind::failover}, targets_); }).find("has no failover pair"),
            std::string::npos);
  EXPECT_NE(error_message<Error>([&] {
              apply({OpKind::pause, "C"}, targets_);
            }).find("names no worker"),
            std::string::npos);
}

}  // namespace
}  // namespace rlock::nemesis
