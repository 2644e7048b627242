// An rlock protocol client (docs/clients.md) whose lock is the npm package redlock (v5), on ioredis.
//
// Given one server, it is a single-instance lock; given three, Redlock's quorum. The work runs inside
// redlock.using(), which extends the lock automatically before it expires and aborts the routine's
// signal when an extension fails: the client then stops before writing, as the library intends.
// No fencing token. Installed by `npm ci` from the committed package-lock.json.
import Redis from "ioredis";
import Redlock from "redlock";
import { readModifyWrite, receive, send } from "../protocol.mjs";

async function main() {
  const init = await receive("init");
  if (init === null) return;
  const ttl = init.ttl_ms;
  const servers = init.redis.map(
    (url) => new Redis(url, { maxRetriesPerRequest: 0, connectTimeout: 2000, enableOfflineQueue: false })
  );
  for (const server of servers) server.on("error", () => {}); // a server down is a refusal, not a crash
  // Retries every 10 ms (with jitter) for about 10 TTLs; extends when a third of the TTL is left.
  const redlock = new Redlock(servers, {
    retryCount: Math.ceil((10 * ttl) / 10),
    retryDelay: 10,
    retryJitter: 5,
    automaticExtensionThreshold: Math.floor(ttl / 3),
  });
  redlock.on("error", () => {}); // failed attempts on single servers; the quorum decides
  send({ type: "init_ok" });
  for (;;) {
    const request = await receive("increment");
    if (request === null) break;
    let ended = false;
    try {
      await redlock.using([request.key], ttl, async (signal) => {
        ended = !(await readModifyWrite(request, signal));
      });
      if (ended) break;
      send({ type: "done", id: request.id });
    } catch (error) {
      if (ended) break;
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
