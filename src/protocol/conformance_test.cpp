// check_conformance on small Python clients, real processes that speak the protocol: one that keeps
// every rule passes; one that never flushes its stdout, one that writes garbage, one whose write is
// not its read plus its amount and one that says nothing of a refused claim each break one rule, in
// one line quoting it; and every rule quoted is a passage of docs/clients.md.
#include "protocol/conformance.h"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "host/temp_dir.h"

namespace rlock::protocol {
namespace {

using namespace std::chrono_literals;

// A Python client: `body` handles `m`, each message, with send(), which flushes unless `flush` is False.
std::string python_client(const std::string& body) {
  return "python3 -c '\n"
         "import json, sys\n"
         "flush = True\n"
         "def send(m):\n"
         "    sys.stdout.write(json.dumps(m) + \"\\n\")\n"
         "    if flush: sys.stdout.flush()\n" +
         body + "'";
}

// A plain client of any lock: reads, writes its read plus the amount, says done; `write` the balance.
std::string plain_client(const std::string& settings = "",
                         const std::string& write = "r[\"balance\"] + m[\"amount\"]") {
  return python_client(settings +
                       "for line in sys.stdin:\n"
                       "    m = json.loads(line)\n"
                       "    if m[\"type\"] == \"init\": send({\"type\": \"init_ok\"})\n"
                       "    if m[\"type\"] != \"increment\": continue\n"
                       "    send({\"type\": \"read\", \"id\": m[\"id\"]})\n"
                       "    r = json.loads(sys.stdin.readline())\n"
                       "    send({\"type\": \"write\", \"id\": m[\"id\"], \"balance\": " +
                       write +
                       "})\n"
                       "    sys.stdin.readline()\n"
                       "    send({\"type\": \"done\", \"id\": m[\"id\"]})\n");
}

// A fencing client that claims token 7 and says done with no error, whatever the claim's answer.
std::string careless_fencing_client() {
  return python_client(
      "for line in sys.stdin:\n"
      "    m = json.loads(line)\n"
      "    if m[\"type\"] == \"init\": send({\"type\": \"init_ok\"})\n"
      "    if m[\"type\"] != \"increment\": continue\n"
      "    send({\"type\": \"read\", \"id\": m[\"id\"], \"token\": 7 + m[\"id\"], \"claim\": True})\n"
      "    r = json.loads(sys.stdin.readline())\n"
      "    if r.get(\"claimed\"):\n"
      "        send({\"type\": \"write\", \"id\": m[\"id\"], \"balance\": r[\"balance\"] + m[\"amount\"], \"token\": 7 "
      "+ "
      "m[\"id\"]})\n"
      "        sys.stdin.readline()\n"
      "    send({\"type\": \"done\", \"id\": m[\"id\"]})\n");
}

class Conformance_ : public ::testing::Test {
 protected:
  Conformance check(const std::string& command) {
    return check_conformance(ConformanceSetup{command, {"redis://127.0.0.1:1/0"}, 200ms, 3s, dir_.path() / "stderr"});
  }
  host::TempDir dir_{"conformance_test"};
};

std::string joined(const std::vector<std::string>& lines) {
  std::string all;
  for (const std::string& l : lines) all += l + "\n";
  return all;
}

TEST_F(Conformance_, AClientThatKeepsTheRulesPasses) {
  Conformance result = check(plain_client());
  EXPECT_TRUE(result.broken.empty()) << joined(result.broken);
  EXPECT_NE(joined(result.passed).find("3 increments"), std::string::npos) << joined(result.passed);
}

TEST_F(Conformance_, AClientThatNeverFlushesIsToldSo) {
  Conformance result = check(plain_client("flush = False\n"));
  ASSERT_EQ(result.broken.size(), 1u) << joined(result.broken);
  EXPECT_NE(result.broken[0].find("does not flush its stdout"), std::string::npos) << result.broken[0];
  EXPECT_NE(result.broken[0].find("\"flushes its stdout after each line\""), std::string::npos) << result.broken[0];
}

TEST_F(Conformance_, GarbageOnStdoutIsAProtocolError) {
  Conformance result = check(plain_client("print(\"hello\", flush=True)\n"));
  ASSERT_EQ(result.broken.size(), 1u) << joined(result.broken);
  EXPECT_NE(result.broken[0].find("write diagnostics to stderr"), std::string::npos) << result.broken[0];
}

TEST_F(Conformance_, AWriteThatIsNotItsReadPlusItsAmountIsAProtocolError) {
  Conformance result = check(plain_client("", "r[\"balance\"] + 1"));
  ASSERT_EQ(result.broken.size(), 1u) << joined(result.broken);
  EXPECT_NE(result.broken[0].find("not its read plus its amount"), std::string::npos) << result.broken[0];
}

TEST_F(Conformance_, ADoneWithNoErrorAfterARefusedClaimIsToldSo) {
  Conformance result = check(careless_fencing_client());
  ASSERT_EQ(result.broken.size(), 1u) << joined(result.broken);
  EXPECT_NE(result.broken[0].find("increment 4"), std::string::npos) << result.broken[0];
  EXPECT_NE(result.broken[0].find("should have said `done` with an error"), std::string::npos) << result.broken[0];
}

TEST(ConformanceRules, EachIsAPassageOfTheClientsGuide) {
  std::ifstream in(RLOCK_CLIENTS_DOC);
  std::stringstream text;
  text << in.rdbuf();
  // The guide wraps its lines: a rule may span two, the second indented.
  std::string doc;
  for (char c : text.str()) {
    if (c == '\n' || c == ' ') {
      if (!doc.empty() && doc.back() != ' ') doc += ' ';
    } else {
      doc += c;
    }
  }
  for (std::string_view rule : conformance_rules()) EXPECT_NE(doc.find(rule), std::string::npos) << rule;
}

}  // namespace
}  // namespace rlock::protocol
