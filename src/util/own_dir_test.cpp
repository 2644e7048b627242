// not_own_dir on scratch directories: one's own, one that others can write, one below a
// directory others can write (sticky or not), a link of one's own; as root, another user's
// directory and another user's link.
#include "util/own_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "host/temp_dir.h"
#include "rlock/error.h"

namespace rlock::util {
namespace {

namespace fs = std::filesystem;

constexpr uid_t kNobody = 65534;

TEST(NotOwnDir, OnesOwnDirectoryAndOneNotMadeYetUnderItAreOwn) {
  host::TempDir dir;
  EXPECT_EQ(not_own_dir(dir.path()), "");
  EXPECT_EQ(not_own_dir(dir.path() / "lab" / "chaos"), "");
  EXPECT_NO_THROW(check_own_dir(dir.path(), "the data directory"));
}

TEST(NotOwnDir, ADirectoryOthersCanWriteIsNot) {
  host::TempDir dir;
  ::chmod(dir.path().c_str(), 0777);
  EXPECT_EQ(not_own_dir(dir.path()), dir.path().string() + " can be written by every user (mode 0777)");
  EXPECT_NE(not_own_dir(dir.path() / "new"), "") << "another user can make it first";
  ::chmod(dir.path().c_str(), 01777);  // sticky, as /tmp: nobody else can replace what rlock makes there
  EXPECT_EQ(not_own_dir(dir.path() / "new"), "");
  EXPECT_NE(not_own_dir(dir.path()), "") << "but rlock writes in no directory others can write";
  ::chmod(dir.path().c_str(), 0770);
  EXPECT_EQ(not_own_dir(dir.path()), dir.path().string() + " can be written by its group (mode 0770)");
  EXPECT_THROW(check_own_dir(dir.path(), "the data directory"), UsageError);
}

TEST(NotOwnDir, ALinkOfOnesOwnIsFollowedAndItsTargetJudged) {
  host::TempDir dir;
  fs::create_directory(dir.path() / "real");
  fs::create_directory_symlink(dir.path() / "real", dir.path() / "link");
  EXPECT_EQ(not_own_dir(dir.path() / "link"), "");
  ::chmod((dir.path() / "real").c_str(), 0777);
  EXPECT_NE(not_own_dir(dir.path() / "link"), "");
  EXPECT_EQ(not_own_dir(dir.path() / "link" / ".." / "real" / ".."), "");
}

TEST(NotOwnDir, AnotherUsersDirectoryOrLinkIsNot) {
  if (::geteuid() != 0) GTEST_SKIP() << "only root can give a directory to another user";
  host::TempDir dir;
  fs::create_directory(dir.path() / "theirs");
  ASSERT_EQ(::chown((dir.path() / "theirs").c_str(), kNobody, kNobody), 0);
  EXPECT_EQ(not_own_dir(dir.path() / "theirs"),
            (dir.path() / "theirs").string() + " is owned by user 65534, neither you nor root");
  EXPECT_NE(not_own_dir(dir.path() / "theirs" / "lab"), "") << "another user's directory above it";
  fs::create_directory(dir.path() / "mine");
  fs::create_directory_symlink(dir.path() / "mine", dir.path() / "planted");
  ASSERT_EQ(::lchown((dir.path() / "planted").c_str(), kNobody, kNobody), 0);
  EXPECT_EQ(not_own_dir(dir.path() / "planted"),
            (dir.path() / "planted").string() + " is a symbolic link of user 65534, neither you nor root");
}

}  // namespace
}  // namespace rlock::util
