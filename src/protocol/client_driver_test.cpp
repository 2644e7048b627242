#include "protocol/client_driver.h"

#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "host/temp_dir.h"

namespace rlock::protocol {
namespace {

using namespace std::chrono_literals;

// A client written in sh: `script` runs with the harness's lines on its stdin.
class ScriptedClient : public ::testing::Test {
 protected:
  ClientDriver start(const std::string& script) { return ClientDriver("A", script, dir_.path() / "client-A.stderr"); }

  // The client's next message, waited for up to 5 s.
  static protocol::ClientMessage next(ClientDriver& driver) {
    auto deadline = ClientDriver::Clock::now() + 5s;
    while (ClientDriver::Clock::now() < deadline) {
      wait_for_any({&driver}, 100ms);
      if (std::optional<protocol::ClientMessage> message = driver.receive()) return *message;
    }
    throw std::runtime_error("the client said nothing in 5 s");
  }

  // The client error's text that `step` throws.
  template <typename Step>
  static std::string client_error(Step&& step) {
    try {
      step();
    } catch (const ClientError& e) {
      return e.what();
    }
    return "(no client error)";
  }

  // The client error of a handshake that fails.
  static std::string handshake_error(ClientDriver& driver) {
    return client_error([&] {
      driver.send_init(init());
      driver.await_init_ok(5s);
    });
  }

  static constexpr const char* kInitOk = R"(read l; echo '{"type":"init_ok"}'; read l; )";

  // Worker A's init; no server is asked.
  static protocol::Init init() {
    return protocol::Init{1, "A", {"redis://127.0.0.1:6391/0"}, 200, std::nullopt, std::nullopt};
  }

  host::TempDir dir_{"rlock_client_driver_test"};
};

TEST_F(ScriptedClient, AnIncrementIsServedFromTheAccount) {
  ClientDriver driver = start(std::string(kInitOk) +
                              R"(echo '{"type":"read","id":1}'; read l; echo '{"type":"write","id":1,"balance":105}'; )"
                              R"(read l; echo '{"type":"done","id":1}'; read l)");
  driver.send_init(init());
  driver.await_init_ok(5s);
  ServedAccount account(100);
  driver.send_increment(protocol::Increment{1, "lock:account:1", 5});
  EXPECT_TRUE(driver.under_way());

  protocol::ReadOk read_ok = driver.serve_read(account, std::get<protocol::Read>(next(driver)), 5);
  EXPECT_EQ(read_ok, (protocol::ReadOk{1, 100, std::nullopt}));
  driver.send(read_ok);
  protocol::WriteOk write_ok = driver.serve_write(account, std::get<protocol::Write>(next(driver)));
  EXPECT_EQ(write_ok, (protocol::WriteOk{1, true}));
  driver.send(write_ok);
  EXPECT_EQ(next(driver), (protocol::ClientMessage{protocol::Done{1, std::nullopt}}));
  EXPECT_FALSE(driver.under_way());
  EXPECT_EQ(account.balance(), 105);
}

TEST_F(ScriptedClient, AStepOfTheIncrementIsPassedOnAndAnsweredWithItsId) {
  ClientDriver driver = start(std::string(kInitOk) + R"(echo '{"type":"step","id":1,"step":"release"}'; read l; )" +
                              R"(echo "{\"type\":\"done\",\"id\":1,\"error\":$l}"; read l)");
  driver.send_init(init());
  driver.await_init_ok(5s);
  driver.send_increment(protocol::Increment{1, "lock:account:1", 5});
  protocol::ClientMessage step = next(driver);
  ASSERT_EQ(step, (protocol::ClientMessage{protocol::Step{1, "release"}}));
  driver.answer(std::get<protocol::Step>(step));
  EXPECT_EQ(next(driver), (protocol::ClientMessage{protocol::Done{1, R"({"id":1,"type":"step_ok"})"}}));
}

TEST_F(ScriptedClient, AStepWithAnotherIdIsAClientError) {
  ClientDriver driver = start(std::string(kInitOk) + R"(echo '{"type":"step","id":2,"step":"release"}'; read l)");
  driver.send_init(init());
  driver.await_init_ok(5s);
  driver.send_increment(protocol::Increment{1, "lock:account:1", 5});
  EXPECT_EQ(client_error([&] { next(driver); }),
            R"(worker A: sent an unknown id: {"type":"step","id":2,"step":"release"})");
}

TEST_F(ScriptedClient, AnyOtherAnswerToInitIsAClientError) {
  ClientDriver driver = start(R"(read l; echo '{"type":"done","id":1}'; read l)");
  driver.send_init(init());
  EXPECT_EQ(client_error([&] { driver.await_init_ok(5s); }), R"(worker A: answered init with {"type":"done","id":1})");
}

TEST_F(ScriptedClient, AMessageWithAnotherIdIsAClientError) {
  ClientDriver driver = start(std::string(kInitOk) + R"(echo '{"type":"read","id":2}'; read l)");
  driver.send_init(init());
  driver.await_init_ok(5s);
  driver.send_increment(protocol::Increment{1, "lock:account:1", 5});
  EXPECT_EQ(client_error([&] { next(driver); }), R"(worker A: sent an unknown id: {"type":"read","id":2})");
}

TEST_F(ScriptedClient, AMessageBeforeAnyIncrementHasAnUnknownId) {
  ClientDriver driver = start(R"(read l; echo '{"type":"init_ok"}'; echo '{"type":"done","id":1}'; read l)");
  driver.send_init(init());
  driver.await_init_ok(5s);
  EXPECT_EQ(client_error([&] { next(driver); }), R"(worker A: sent an unknown id: {"type":"done","id":1})");
}

TEST_F(ScriptedClient, AClientErrorQuotesTheEndOfItsStderrOnTheSameLine) {
  ClientDriver driver = start("echo 'Traceback:' >&2; echo '  oops' >&2; echo hello; read l");
  EXPECT_EQ(
      handshake_error(driver),
      "worker A: the client wrote a line that is not a protocol message: hello; its stderr ends: Traceback:   oops");
}

TEST_F(ScriptedClient, AClientThatExitsIsAClientError) {
  ClientDriver driver = start("exit 0");
  EXPECT_EQ(handshake_error(driver), "worker A: the client closed its stdout (it exited)");
}

TEST_F(ScriptedClient, AWriteThatIsNotItsReadPlusItsAmountIsAClientError) {
  ClientDriver driver = start(std::string(kInitOk) + "read l");
  ServedAccount account(100);
  driver.serve_read(account, protocol::Read{1, std::nullopt, false}, 5);
  EXPECT_EQ(client_error([&] {
              driver.serve_write(account, protocol::Write{1, 106, std::nullopt});
            }),
            "worker A: increment 1 wrote 106, not its read 100 plus its amount 5");
}

TEST_F(ScriptedClient, SilenceLongerThanTheLimitIsAClientError) {
  ClientDriver driver = start(std::string(kInitOk) + "read l");
  driver.reset_silence();
  EXPECT_NO_THROW(driver.check_silence(5s));
  std::this_thread::sleep_for(5ms);
  EXPECT_EQ(client_error([&] { driver.check_silence(1ms); }), "worker A: said nothing for 1 ms");
}

TEST_F(ScriptedClient, ALineLongerThan64KiBIsAClientErrorThoughNoNewlineComes) {
  ClientDriver driver = start("read l; head -c 200000 /dev/zero | tr '\\0' x; sleep 30");
  auto began = ClientDriver::Clock::now();
  std::string error = handshake_error(driver);
  EXPECT_EQ(error.substr(0, 64), "worker A: the client wrote a line longer than 64 KiB: " + std::string(10, 'x'));
  EXPECT_LT(ClientDriver::Clock::now() - began, 4s);
}

TEST_F(ScriptedClient, MoreThan64MessagesInOneIncrementIsAClientError) {
  ClientDriver driver = start(std::string(kInitOk) + R"(while :; do echo '{"type":"read","id":1}'; done)");
  driver.send_init(init());
  driver.await_init_ok(5s);
  driver.send_increment(protocol::Increment{1, "lock:account:1", 5});
  EXPECT_EQ(client_error([&] {
              for (int i = 0; i < 1000; ++i) next(driver);
            }),
            "worker A: sent more than 64 messages in one increment");
}

TEST_F(ScriptedClient, ItsStderrIsKeptUpToTheCapAndTheRestCountedAndDropped) {
  {
    ClientDriver driver = start("read l; head -c 3000000 /dev/zero >&2; echo 'the end' >&2; exit 0");
    std::string nuls;
    for (int i = 0; i < 400 - 8; ++i) nuls += "\\x00";
    EXPECT_EQ(handshake_error(driver),
              "worker A: the client closed its stdout (it exited); its stderr ends: " + nuls + "the end");
  }
  std::ifstream in(dir_.path() / "client-A.stderr", std::ios::binary);
  std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string note = "\n[rlock: 1951432 more bytes of stderr dropped past the first 1048576]\n";
  EXPECT_EQ(kept.size(), kClientStderrCap + note.size());
  EXPECT_TRUE(kept.ends_with(note));
}

TEST_F(ScriptedClient, EscapeCodesAndNulsOfAClientAreEscapedInItsError) {
  ClientDriver driver = start(R"(printf '\033[31mred\000\n' >&2; printf '\033]0;title\007\n'; read l)");
  EXPECT_EQ(handshake_error(driver),
            "worker A: the client wrote a line that is not a protocol message: \\x1B]0;title\\x07; its stderr ends: "
            "\\x1B[31mred\\x00");
}

TEST_F(ScriptedClient, AClientGetsOnlyTheAllowedVariables) {
  ::setenv("DATABASE_URL", "postgresql://u:secret@h/bank", 1);
  ClientDriver driver = start("echo \"[${DATABASE_URL:-none}] [${PATH:+path}]\" >&2; exit 0");
  EXPECT_EQ(handshake_error(driver),
            "worker A: the client closed its stdout (it exited); its stderr ends: [none] [path]");
}

}  // namespace
}  // namespace rlock::protocol
