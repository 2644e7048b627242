// The lock library's whole public API in one include: a lock on one Redis server and what goes
// with it. Redlock, over several independent servers, is apart: rlock/patterns/redlock.h.
//
//   error.h             Error, OutcomeUnknown (sent, answer lost), UsageError
//   redis_address.h     where a Redis is: a URL, optionally through a Sentinel
//   redis_connection.h  one synchronous connection, its timeouts and replies
//   token.h             the random token that proves ownership of one acquisition
//   lock_key.h          a resource's lock key, fence counter and release channel; fences
//   lua_script.h        a Lua script run by its SHA
//   redis_lock.h        the lock: acquire (optionally fenced), extend, holds, release
//   acquire.h           the acquisition policy: retry while busy, bounded patience, a deadline
//   scoped_lease.h      a lease released at the end of its scope
//   watchdog.h          a thread that keeps a held lock alive
//   release_waiter.h    how a refused client waits: poll, or notify on a release
// Each header states its own thread-safety; none of the types is shared between threads.
#pragma once

#include "rlock/acquire.h"
#include "rlock/error.h"
#include "rlock/lock_key.h"
#include "rlock/lua_script.h"
#include "rlock/redis_address.h"
#include "rlock/redis_connection.h"
#include "rlock/redis_lock.h"
#include "rlock/release_waiter.h"
#include "rlock/scoped_lease.h"
#include "rlock/token.h"
#include "rlock/watchdog.h"
