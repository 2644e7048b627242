#include "runner/interruption.h"

#include <unistd.h>

#include <csignal>

namespace rlock::runner {
namespace {

volatile std::sig_atomic_t noted = 0;

void on_interruption(int signal) {
  if (noted != 0) {  // the second: at once, by the signal itself
    ::signal(signal, SIG_DFL);
    ::raise(signal);
    return;
  }
  noted = signal;
  constexpr char kSaid[] =
      "\nchaos: interrupted: the jobs end their trials, their servers stop and the run is sealed as interrupted "
      "(a second signal kills at once)\n";
  (void)!::write(STDERR_FILENO, kSaid, sizeof kSaid - 1);
}

}  // namespace

CatchInterruptions::CatchInterruptions() {
  noted = 0;
  struct sigaction action {};
  action.sa_handler = on_interruption;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &int_);
  ::sigaction(SIGTERM, &action, &term_);
}

CatchInterruptions::~CatchInterruptions() {
  ::sigaction(SIGINT, &int_, nullptr);
  ::sigaction(SIGTERM, &term_, nullptr);
}

int interruption() { return noted; }

std::string signal_name(int signal) { return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal"; }

void leave_interruptions_to_the_campaign() {
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_IGN);
}

}  // namespace rlock::runner
