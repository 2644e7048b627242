// An rlock protocol client (docs/clients.md) whose lock is the npm package redis-semaphore's Mutex, on
// ioredis, used as its README's "lost lock handling" example: Mutex(key, lockTimeout = TTL), whose
// timer refreshes the key every 0.8 TTL, acquire() retrying every 10 ms for up to 10 TTLs, the write
// made only while mutex.isAcquired (a refresh that finds the key not ours calls onLockLost and clears
// it), release() at the end. No fencing token.
//   node client.mjs [BUILD]   BUILD: the folder whose node_modules holds the version to run (the
//                             manifest's {build}), this one if none.
import { nextIncrement, readModifyWrite, receive, requireFrom, send, step } from "../protocol.mjs";

const require = requireFrom(import.meta.url);
const Redis = require("ioredis");
const { Mutex } = require("redis-semaphore");

async function main() {
  const init = await receive("init");
  if (init === null) return;
  const ttl = init.ttl_ms;
  const server = new Redis(init.redis[0], {
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    enableOfflineQueue: false,
    lazyConnect: true,
  });
  server.on("error", () => {}); // a server down is a refusal, not a crash
  await server.connect(); // connected before init_ok: with no offline queue, a first command sent early fails
  send({ type: "init_ok" });
  for (;;) {
    const request = await nextIncrement();
    if (request === null) break;
    const lost = { error: null };
    const mutex = new Mutex(server, request.key, {
      lockTimeout: ttl,
      acquireTimeout: 10 * ttl,
      retryInterval: 10,
      onLockLost: (error) => (lost.error = error),
    });
    const signal = {
      get aborted() {
        return !mutex.isAcquired;
      },
      get error() {
        return lost.error ?? new Error("the lock was lost");
      },
    };
    let ended = false;
    let error = null;
    let acquired = false;
    try {
      await mutex.acquire();
      acquired = true;
      ended = !(await readModifyWrite(request, signal));
    } catch (caught) {
      error = caught;
    }
    if (acquired && !ended) ended = !(await step(request.id, "release"));
    try {
      await mutex.release();
    } catch (caught) {
      error ??= caught;
    }
    if (ended) break;
    send({ type: "done", id: request.id, ...(error ? { error: `${error.message || error}` } : {}) });
  }
  await server.quit().catch(() => {});
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(`redis-semaphore: ${error.stack || error}\n`);
  process.exit(1);
});
