/* watchdog: the plain lock whose lease a watchdog renews every TTL/3 until the release
 * (src/lock/watchdog.cpp); the write is unchecked. The TTL runs out only while its worker is paused. */
#define WATCHDOG 1
#define FENCED 0
#define CLAIMS 0
#include "world.pml"
