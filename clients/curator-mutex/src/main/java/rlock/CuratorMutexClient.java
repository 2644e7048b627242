// An rlock protocol client (docs/clients.md) whose lock is Apache Curator's InterProcessMutex on the
// ZooKeeper of ZOOKEEPER_CONNECT (or --connect HOST:PORT).
//
// One Curator client whose ZooKeeper session lasts the TTL, so that a holder paused past it loses its
// ephemeral lock node; each increment is what Curator's docs show: acquire(10 TTLs), the work,
// release(). With --fenced (curator-mutex-fenced) the lock node's czxid, which grows with every
// node ZooKeeper creates, is claimed at the read as a fencing token. The harness hands out Redis
// URLs only, so ZooKeeper's address comes from the command line or the environment.
package rlock;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.data.Stat;

public final class CuratorMutexClient implements Protocol.Adapter {
  /** InterProcessMutex, its lock node's path made visible for the fence. */
  private static final class Mutex extends InterProcessMutex {
    Mutex(CuratorFramework client, String path) {
      super(client, path);
    }

    String lockNode() {
      return getLockPath();
    }
  }

  private final String connect;
  private final boolean fenced;
  private CuratorFramework client;
  private long ttlMs;

  private CuratorMutexClient(String connect, boolean fenced) {
    this.connect = connect;
    this.fenced = fenced;
  }

  @Override
  public void setUp(JsonNode init) throws Exception {
    ttlMs = init.get("ttl_ms").asLong();
    if (connect == null || connect.isEmpty()) throw new IllegalArgumentException("no ZooKeeper: give --connect or ZOOKEEPER_CONNECT");
    client = CuratorFrameworkFactory.newClient(connect, (int) ttlMs, (int) ttlMs, new RetryNTimes(3, 10));
    client.start();
    if (!client.blockUntilConnected((int) (10 * ttlMs), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("ZooKeeper at " + connect + " does not answer");
    }
    // The first acquisition loads and compiles most of Curator: here it is part of the start-up,
    // which comes before the trial's clock, not of the first increment.
    Mutex warmUp = new Mutex(client, "/locks/rlock-warm-up/" + init.path("name").asText());
    if (warmUp.acquire(10 * ttlMs, TimeUnit.MILLISECONDS)) warmUp.release();
  }

  @Override
  public String increment(JsonNode request) throws Protocol.TrialOver {
    Mutex mutex = new Mutex(client, "/locks/" + request.get("key").asText());
    try {
      if (!mutex.acquire(10 * ttlMs, TimeUnit.MILLISECONDS)) return "could not acquire the lock in 10 TTLs";
    } catch (Exception e) {
      return "acquire: " + e;
    }
    String error = null;
    if (!fenced) {
      Protocol.readModifyWrite(request);
    } else {
      Long czxid = null;
      try {
        Stat stat = client.checkExists().forPath(mutex.lockNode());
        if (stat != null) czxid = stat.getCzxid();
      } catch (Exception e) {
        error = "czxid: " + e;
      }
      if (czxid != null) {
        error = Protocol.fencedReadModifyWrite(request, czxid);
      } else if (error == null) {
        error = "the lock node is gone: the session expired";
      }
    }
    Protocol.step(request.get("id").asLong(), "release");
    try {
      mutex.release();
    } catch (Exception e) {
      if (error == null) error = "release: " + e;
    }
    return error;
  }

  public static void main(String[] args) {
    String connect = System.getenv("ZOOKEEPER_CONNECT");
    boolean fenced = false;
    for (int i = 0; i < args.length; ++i) {
      if (args[i].equals("--fenced")) fenced = true;
      else if (args[i].equals("--connect") && i + 1 < args.length) connect = args[++i];
      else {
        System.err.println("usage: client.jar [--connect HOST:PORT] [--fenced]");
        System.exit(2);
      }
    }
    Protocol.serve(new CuratorMutexClient(connect, fenced));
    System.exit(0);
  }
}
