// An rlock protocol client (docs/clients.md) whose lock is the npm package redlock (v5), on ioredis.
//
// Given one server, it is a single-instance lock; given three, Redlock's quorum. The work runs inside
// redlock.using(), which extends the lock automatically before it expires and aborts the routine's
// signal when an extension fails: the client then stops before writing, as the library intends.
// With --acquire (node-redlock-acquire) it is redlock.acquire(), the work and lock.release(), with
// no extension and retryCount -1 (retry until it succeeds), as mike-marcacci/node-redlock#313 uses
// it. No fencing token. Installed by `npm ci` from the committed package-lock.json; a version's
// redlock may be another package of the same API, as an npm alias (@sesamecare-oss/redlock).
//   node client.mjs [BUILD] [--acquire]   BUILD: the folder whose node_modules holds the version to
//                                         run (the manifest's {build}), this one if none
import { nextIncrement, readModifyWrite, receive, requireFrom, send, step } from "../protocol.mjs";

const require = requireFrom(import.meta.url);
const Redis = require("ioredis");
const redlockModule = require("redlock");
const Redlock = redlockModule.default ?? redlockModule.Redlock;
const acquireMode = process.argv.includes("--acquire");

// One increment as redlock's README shows it: using(), or with --acquire acquire() and release().
// trial.ended: the harness closed stdin meanwhile.
async function increment(redlock, request, ttl, trial) {
  if (!acquireMode) {
    await redlock.using([request.key], ttl, async (signal) => {
      trial.ended = !(await readModifyWrite(request, signal)) || !(await step(request.id, "release"));
    });
    return;
  }
  const lock = await redlock.acquire([request.key], ttl);
  trial.ended = !(await readModifyWrite(request, { aborted: false })) || !(await step(request.id, "release"));
  await lock.release();
}

async function main() {
  const init = await receive("init");
  if (init === null) return;
  const ttl = init.ttl_ms;
  const servers = init.redis.map(
    (url) => new Redis(url, { maxRetriesPerRequest: 0, connectTimeout: 2000, enableOfflineQueue: false })
  );
  for (const server of servers) server.on("error", () => {}); // a server down is a refusal, not a crash
  // Retries every 10 ms (with jitter) for about 10 TTLs, or forever with --acquire; extends when a
  // third of the TTL is left.
  const redlock = new Redlock(servers, {
    retryCount: acquireMode ? -1 : Math.ceil((10 * ttl) / 10),
    retryDelay: 10,
    retryJitter: 5,
    automaticExtensionThreshold: Math.floor(ttl / 3),
  });
  redlock.on("error", () => {}); // failed attempts on single servers; the quorum decides
  send({ type: "init_ok" });
  for (;;) {
    const request = await nextIncrement();
    if (request === null) break;
    const trial = { ended: false };
    try {
      await increment(redlock, request, ttl, trial);
      if (trial.ended) break;
      send({ type: "done", id: request.id });
    } catch (error) {
      if (trial.ended) break;
      send({ type: "done", id: request.id, error: String(error.message || error) });
    }
  }
  await Promise.allSettled(servers.map((server) => server.quit()));
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(`node-redlock: ${error.stack || error}\n`);
  process.exit(1);
});
