// An rlock protocol client (docs/clients.md) whose lock is Redisson's, on one Redis server.
//
// As Redisson's docs show for a lock held as long as its holder lives: lockWatchdogTimeout set to the
// TTL, RLock.tryLock(10 TTLs) with no lease time, so that the watchdog renews the lock every third of
// the TTL while the JVM runs (a paused JVM pauses its watchdog), then unlock(). With --fenced
// (redisson-fenced) the lock is an RFencedLock, and the token that tryLockAndGetToken hands out is
// claimed at the read. An unlock that finds the lock gone (IllegalMonitorStateException) is the
// increment's error. With --replicated (redisson-lock-replicated), when the harness names the server's
// replica (under failover), Redisson runs in master/slave mode, reads and subscriptions on the master, as
// a deployment that wants only the master's answers does: its lock then WAITs for the replica after each
// write (checkLockSyncedSlaves, on by default) where the version does so in that mode.
package rlock;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;
import org.redisson.config.SubscriptionMode;

public final class RedissonLockClient implements Protocol.Adapter {
  private final boolean fenced;
  private final boolean replicated;
  private RedissonClient redisson;
  private long ttlMs;

  private RedissonLockClient(boolean fenced, boolean replicated) {
    this.fenced = fenced;
    this.replicated = replicated;
  }

  @Override
  public void setUp(JsonNode init) {
    ttlMs = init.get("ttl_ms").asLong();
    URI url = URI.create(init.get("redis").get(0).asText());
    String database = url.getPath() == null ? "" : url.getPath().replace("/", "");
    Config config = new Config().setLockWatchdogTimeout(ttlMs).setThreads(2).setNettyThreads(4);
    String address = "redis://" + url.getHost() + ":" + url.getPort();
    int db = database.isEmpty() ? 0 : Integer.parseInt(database);
    if (replicated && init.hasNonNull("replica")) {
      URI replica = URI.create(init.get("replica").asText());
      config.useMasterSlaveServers()
          .setMasterAddress(address)
          .addSlaveAddress("redis://" + replica.getHost() + ":" + replica.getPort())
          .setReadMode(ReadMode.MASTER)
          .setSubscriptionMode(SubscriptionMode.MASTER)
          .setDatabase(db)
          .setTimeout(2000)
          .setMasterConnectionMinimumIdleSize(1)
          .setMasterConnectionPoolSize(4)
          .setSlaveConnectionMinimumIdleSize(1)
          .setSlaveConnectionPoolSize(2)
          .setSubscriptionConnectionMinimumIdleSize(1)
          .setSubscriptionConnectionPoolSize(2);
    } else {
      config.useSingleServer()
          .setAddress(address)
          .setDatabase(db)
          .setTimeout(2000)
          .setConnectionMinimumIdleSize(1)
          .setConnectionPoolSize(4)
          .setSubscriptionConnectionMinimumIdleSize(1)
          .setSubscriptionConnectionPoolSize(2);
    }
    redisson = Redisson.create(config);
    // The first acquisition loads and compiles most of Redisson: here it is part of the start-up,
    // which comes before the trial's clock, not of the first increment.
    String warmUp = "rlock-warm-up:" + init.path("name").asText();
    RLock lock = fenced ? redisson.getFencedLock(warmUp) : redisson.getLock(warmUp);
    lock.lock();
    lock.unlock();
  }

  @Override
  public String increment(JsonNode request) throws Protocol.TrialOver {
    String key = request.get("key").asText();
    RLock lock = fenced ? redisson.getFencedLock(key) : redisson.getLock(key);
    Long token = null;
    try {
      boolean acquired;
      if (fenced) {
        token = ((RFencedLock) lock).tryLockAndGetToken(10 * ttlMs, TimeUnit.MILLISECONDS);
        acquired = token != null;
      } else {
        acquired = lock.tryLock(10 * ttlMs, TimeUnit.MILLISECONDS);
      }
      if (!acquired) return "could not acquire the lock in 10 TTLs";
    } catch (Exception e) {
      return "acquire: " + e;
    }
    String error = null;
    if (fenced) {
      error = Protocol.fencedReadModifyWrite(request, token);
    } else {
      Protocol.readModifyWrite(request);
    }
    Protocol.step(request.get("id").asLong(), "release");
    try {
      lock.unlock();
    } catch (Exception e) {
      if (error == null) error = "release: " + e;
    }
    return error;
  }

  public static void main(String[] args) {
    boolean fenced = args.length == 1 && args[0].equals("--fenced");
    boolean replicated = args.length == 1 && args[0].equals("--replicated");
    if (args.length > 1 || (args.length == 1 && !fenced && !replicated)) {
      System.err.println("usage: client.jar [--fenced | --replicated]");
      System.exit(2);
    }
    Protocol.serve(new RedissonLockClient(fenced, replicated));
    System.exit(0);
  }
}
