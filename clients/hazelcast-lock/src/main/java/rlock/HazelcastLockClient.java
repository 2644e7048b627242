// An rlock protocol client (docs/clients.md) whose lock is Hazelcast's FencedLock, in the CP
// subsystem of the members HAZELCAST_MEMBERS names (HOST:PORT,... or --members), as
// scripts/services.sh starts them.
//
// Each increment is what Hazelcast's docs show: tryLock(10 TTLs), the work, unlock(). The lock is
// held by the client's CP session, which its heartbeats keep alive: the members' session TTL (2 s,
// HazelcastMember) is the lease, whatever rlock's TTL, which bounds only the wait. A holder paused
// past it loses its session and the lock with it, and unlock() says so. With --fenced
// (hazelcast-lock-fenced) the lock is taken with tryLockAndGetFence, and the fence, which grows with
// every new holder, is claimed at the read as the fencing token. The harness hands out Redis URLs
// only, so the members' addresses come from the command line or the environment.
package rlock;

import com.fasterxml.jackson.databind.JsonNode;
import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.lock.FencedLock;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

public final class HazelcastLockClient implements Protocol.Adapter {
  private final String members;
  private final boolean fenced;
  private HazelcastInstance client;
  private long ttlMs;

  private HazelcastLockClient(String members, boolean fenced) {
    this.members = members;
    this.fenced = fenced;
  }

  @Override
  public void setUp(JsonNode init) throws Exception {
    ttlMs = init.get("ttl_ms").asLong();
    if (members == null || members.isEmpty()) throw new IllegalArgumentException("no Hazelcast: give --members or HAZELCAST_MEMBERS");
    ClientConfig config = new ClientConfig();
    config.setClusterName(HazelcastMember.CLUSTER);
    config.setProperty("hazelcast.logging.type", "none");
    config.getNetworkConfig().setAddresses(Arrays.asList(members.split(",")));
    config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(10 * ttlMs);
    try {
      client = HazelcastClient.newHazelcastClient(config);
    } catch (IllegalStateException e) {
      throw new IllegalStateException("Hazelcast at " + members + " does not answer: " + e.getMessage());
    }
    // The first acquisition loads most of the CP client and opens its session: part of the
    // start-up, before the trial's clock, not of the first increment.
    FencedLock warmUp = client.getCPSubsystem().getLock("rlock-warm-up-" + init.path("name").asText());
    if (warmUp.tryLock(10 * ttlMs, TimeUnit.MILLISECONDS)) warmUp.unlock();
  }

  @Override
  public String increment(JsonNode request) throws Protocol.TrialOver {
    FencedLock lock = client.getCPSubsystem().getLock(request.get("key").asText());
    long fence;
    try {
      fence = fenced ? lock.tryLockAndGetFence(10 * ttlMs, TimeUnit.MILLISECONDS)
                     : (lock.tryLock(10 * ttlMs, TimeUnit.MILLISECONDS) ? 1 : FencedLock.INVALID_FENCE);
    } catch (RuntimeException e) {
      return "acquire: " + e;
    }
    if (fence == FencedLock.INVALID_FENCE) return "could not acquire the lock in 10 TTLs";
    String error = null;
    if (fenced) {
      error = Protocol.fencedReadModifyWrite(request, fence);
    } else {
      Protocol.readModifyWrite(request);
    }
    Protocol.step(request.get("id").asLong(), "release");
    try {
      lock.unlock();
    } catch (RuntimeException e) {
      if (error == null) error = "unlock: " + e;
    }
    return error;
  }

  public static void main(String[] args) {
    String members = System.getenv("HAZELCAST_MEMBERS");
    boolean fenced = false;
    for (int i = 0; i < args.length; ++i) {
      if (args[i].equals("--fenced")) fenced = true;
      else if (args[i].equals("--members") && i + 1 < args.length) members = args[++i];
      else {
        System.err.println("usage: client.jar [--members HOST:PORT,...] [--fenced]");
        System.exit(2);
      }
    }
    Protocol.serve(new HazelcastLockClient(members, fenced));
    System.exit(0);
  }
}
