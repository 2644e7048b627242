// A campaign's interruption: SIGINT (Ctrl-C) and SIGTERM, caught in the campaign's process while a
// CatchInterruptions lives there. The first one is noted (interruption()) and the campaign stops
// cleanly: its jobs end their trials, the servers they started stop, the run is sealed as
// interrupted (campaign.h). A second one kills the campaign at once, by that signal (a shell shows
// 130 for SIGINT, 143 for SIGTERM); its jobs, and their workers, clients and servers, die with it
// (host/child.h). Job processes leave both signals to their campaign.
//
// One CatchInterruptions at a time, in a process with no other threads; interruption() is
// async-signal-safe to read.
#pragma once

#include <signal.h>

#include <string>

namespace rlock::runner {

class CatchInterruptions {
 public:
  CatchInterruptions();   // catches SIGINT and SIGTERM; none noted yet
  ~CatchInterruptions();  // gives them back their earlier actions
  CatchInterruptions(const CatchInterruptions&) = delete;
  CatchInterruptions& operator=(const CatchInterruptions&) = delete;

 private:
  struct sigaction int_ {
  }, term_{};
};

// The signal that interrupted the campaign, 0 while none did.
int interruption();

// "SIGINT" or "SIGTERM".
std::string signal_name(int signal);

// In a job process: SIGINT and SIGTERM ignored (a terminal's Ctrl-C reaches the whole process
// group); the campaign tells its jobs when to stop.
void leave_interruptions_to_the_campaign();

}  // namespace rlock::runner
