/*
 * The small world of `rlock explore` (docs/explore.md): two workers, A and B, each add 1 to one
 * account under a strategy's lock on one Redis key. Included by ttl.pml, watchdog.pml,
 * fenced-retry.pml and fenced-claim.pml, which say the strategy first:
 *   WATCHDOG  a watchdog renews the holder's lease (A:extend); the TTL runs out only while its
 *             worker is paused
 *   FENCED    the acquisition mints a fencing token (A:fence) and the write is fenced
 *   CLAIMS    the read claims the account with the token (A:claim); the write needs the claim
 * Chosen at `spin -D...` time (scripts/models.sh): K, the bound (default 2), the events
 * EV_EXPIRY, EV_PAUSE, EV_RESTART, EV_FAILOVER (each absent, 0, or 1), and ORDERS (below).
 *
 * Every step and event is one d_step that prints `STEP <token>`, so a trail's length is its
 * number of tokens plus one (the judge's), and `spin -t` prints the order.
 * What the servers are reduced to, and why that keeps the property, is in docs/explore.md.
 */
#ifndef K
#define K 2
#endif
#ifndef EV_EXPIRY
#define EV_EXPIRY 0
#endif
#ifndef EV_PAUSE
#define EV_PAUSE 0
#endif
#ifndef EV_RESTART
#define EV_RESTART 0
#endif
#ifndef EV_FAILOVER
#define EV_FAILOVER 0
#endif

/* A worker's next step (pc); DONE: its program ended (released, or gave up within K). */
#define ACQUIRE 0
#define FENCE 1
#define CLAIM 2
#define READ 3
#define WRITE 4
#define RELEASE 5
#define DONE 6

#define NOBODY 0 /* the lock key is absent; otherwise it holds worker w's token, w + 1 */
#define INITIAL 0

/* Redis: the lock key and the fence counter (kAcquireFenced's INCR). */
byte key = NOBODY;
byte counter = 0;
/* PostgreSQL: the account row (balance, fence). */
byte balance = INITIAL;
byte row_fence = 0;
/* What the checkers see: writes applied, and whether one of them was computed from a stale read. */
byte applied = 0;
bool stale_applied = false;

/* The workers' own state: program counter, fencing token, the balance read, whether the last
 * write or claim was accepted, the bound's counters, the watchdog running, paused. */
byte pc[2];
byte token[2];
byte seen[2];
bool accepted[2];
byte retries[2];
byte restarts[2];
byte extends[2];
bool watching[2];
bool paused[2];

/* Each event at most once. */
bool expired = false;
bool pause_used = false;
bool restarted = false;
bool failed_over = false;

/* Counting orders (ORDERS 1 or 2, scripts/models.sh --orders): the order so far is part of the
 * state, so no two orders share one and each whole order is one end state: with ORDERS 1 pan's
 * error count is the losing orders, with ORDERS 2 (every end an error) all of them. */
#ifndef ORDERS
#define ORDERS 0
#endif
#if ORDERS
#define HISTORY 96
byte history[HISTORY];
byte taken = 0;
inline took(code) {
  assert(taken < HISTORY);
  history[taken] = code;
  taken++
}
#else
inline took(code) {
  skip
}
#endif

#define NAME(w) ('A' + (w))
#define FINISHED (pc[0] == DONE && pc[1] == DONE)

/* kAcquire / kAcquireFenced: SET NX PX (and INCR, in the same script). Refused, the worker asks
 * again later, at most K times for one acquisition; then it gives up. */
inline acquire(w) {
  if
  :: key == NOBODY ->
    key = w + 1;
    watching[w] = WATCHDOG;
#if FENCED
    counter++;
    token[w] = counter;
    pc[w] = FENCE
#else
    pc[w] = READ
#endif
  :: else ->
    if
    :: retries[w] < K -> retries[w]++
    :: else -> pc[w] = DONE
    fi
  fi
}

/* The write took effect: was it computed from the balance it replaced? */
inline apply(w) {
  stale_applied = stale_applied || balance != seen[w];
  balance = seen[w] + 1;
  applied++;
  accepted[w] = true
}

/* The three writes of src/lab/lab_worker.cpp and src/bank/fenced_writes.cpp. */
inline write(w) {
#if CLAIMS
  /* claimed_write: UPDATE ... SET balance WHERE fence = $token */
  if
  :: row_fence == token[w] -> apply(w)
  :: else -> accepted[w] = false
  fi;
#elif FENCED
  /* fenced_write: UPDATE ... SET balance, fence = $token WHERE fence < $token */
  if
  :: row_fence < token[w] -> row_fence = token[w]; apply(w)
  :: else -> accepted[w] = false
  fi;
#else
  /* write_balance: UPDATE ... SET balance, unchecked */
  apply(w);
#endif
  pc[w] = RELEASE
}

/* kRelease deletes the key only while it holds the worker's token. A rejected write (or claim)
 * starts again from the acquisition, at most K times. */
inline release(w) {
  watching[w] = false;
  if
  :: key == w + 1 -> key = NOBODY
  :: else -> skip
  fi;
#if FENCED
  if
  :: !accepted[w] && restarts[w] < K -> restarts[w]++; retries[w] = 0; pc[w] = ACQUIRE
  :: else -> pc[w] = DONE
  fi
#else
  pc[w] = DONE
#endif
}

active [2] proctype worker() {
end:
  do
  :: d_step { pc[_pid] == ACQUIRE && !paused[_pid] -> printf("STEP %c:acquire\n", NAME(_pid)); took(_pid * 8 + 1); acquire(_pid) }
  :: d_step { pc[_pid] == FENCE && !paused[_pid] ->
      printf("STEP %c:fence\n", NAME(_pid)); took(_pid * 8 + 2);
      /* the token the acquisition's script returned, taken in hand */
#if CLAIMS
      pc[_pid] = CLAIM
#else
      pc[_pid] = READ
#endif
    }
  :: d_step { pc[_pid] == CLAIM && !paused[_pid] ->
      printf("STEP %c:claim\n", NAME(_pid)); took(_pid * 8 + 3);
      /* claim_read: UPDATE ... SET fence = $token WHERE fence < $token RETURNING balance */
      if
      :: row_fence < token[_pid] -> row_fence = token[_pid]; seen[_pid] = balance; pc[_pid] = READ
      :: else -> accepted[_pid] = false; pc[_pid] = RELEASE
      fi
    }
  :: d_step { pc[_pid] == READ && !paused[_pid] ->
      printf("STEP %c:read\n", NAME(_pid)); took(_pid * 8 + 4);
#if !CLAIMS
      seen[_pid] = balance;
#endif
      /* with a claim, the balance came back with it: the read takes it in hand */
      pc[_pid] = WRITE
    }
  :: d_step { pc[_pid] == WRITE && !paused[_pid] -> printf("STEP %c:write\n", NAME(_pid)); took(_pid * 8 + 5); write(_pid) }
  :: d_step { pc[_pid] == RELEASE && !paused[_pid] -> printf("STEP %c:release\n", NAME(_pid)); took(_pid * 8 + 6); release(_pid) }
  /* kExtend: PEXPIRE while the key holds the token; a failed renewal stops the watchdog, and so
   * does the worker's reaching its release (lab_worker.cpp stops it just before). */
  :: d_step { watching[_pid] && pc[_pid] != RELEASE && !paused[_pid] && extends[_pid] < K ->
      printf("STEP %c:extend\n", NAME(_pid)); took(_pid * 8 + 7);
      extends[_pid]++;
      if
      :: key != _pid + 1 -> watching[_pid] = false
      :: else -> skip
      fi
    }
  od
}

/* The explorer's events, between the workers' steps, each at most once, none after both ended. */
active proctype events() {
end:
  do
  :: d_step { EV_EXPIRY && !expired && !FINISHED && key != NOBODY && (!WATCHDOG || paused[key - 1]) ->
      printf("STEP expire\n"); took(21); expired = true; key = NOBODY }
  :: d_step { EV_PAUSE && !pause_used && pc[0] != DONE -> printf("STEP pause:A\n"); took(22); pause_used = true; paused[0] = true }
  :: d_step { EV_PAUSE && !pause_used && pc[1] != DONE -> printf("STEP pause:B\n"); took(23); pause_used = true; paused[1] = true }
  :: d_step { paused[0] -> printf("STEP resume:A\n"); took(24); paused[0] = false }
  :: d_step { paused[1] -> printf("STEP resume:B\n"); took(25); paused[1] = false }
  /* no persistence: the lock and the fence counter are gone */
  :: d_step { EV_RESTART && !restarted && !FINISHED -> printf("STEP restart\n"); took(26); restarted = true; key = NOBODY; counter = 0 }
  /* the replica never got the lock's last write: the key is gone, the rest stays */
  :: d_step { EV_FAILOVER && !failed_over && !FINISHED -> printf("STEP failover\n"); took(27); failed_over = true; key = NOBODY }
  od
}

/* Once both programs ended: no applied write was computed from a stale read (no lost update, no
 * overlap of accepted sections), and the balance is the initial one plus the applied increments. */
active proctype judge() {
  d_step { FINISHED -> assert(ORDERS != 2 && !stale_applied && balance == INITIAL + applied) }
}
