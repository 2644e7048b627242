/* ttl: the article's plain lock. SET NX PX, read, write unchecked, release (src/lab/lab_worker.cpp). */
#define WATCHDOG 0
#define FENCED 0
#define CLAIMS 0
#include "world.pml"
