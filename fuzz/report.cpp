// The report's input: a chaos.json text in a run directory of its own, drawn as `rlock report` draws
// it (report/report.h): a page, or rlock::Error; anything else escaping is a bug.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "lab/wording.h"
#include "report/report.h"
#include "rlock/error.h"

namespace {

// One directory for the whole run, removed at exit.
struct RunDir {
  RunDir() {
    std::string name = (std::filesystem::temp_directory_path() / "rlock-fuzz-report-XXXXXX").string();
    path = ::mkdtemp(name.data());
  }
  ~RunDir() { std::filesystem::remove_all(path); }
  std::filesystem::path path;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static RunDir run;
  std::ofstream(run.path / "chaos.json", std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    rlock::report::report_html({run.path}, rlock::lab::Lang::en);
  } catch (const rlock::Error&) {
  }
  return 0;
}
