// One member of the three-member Hazelcast cluster whose CP subsystem serves the hazelcast-lock
// adapter's FencedLocks, as scripts/services.sh starts it: on 127.0.0.1:PORT, joining the others by
// TCP (no multicast, no phoning home), cluster name "rlock". The CP session's TTL is the lease of
// every FencedLock: 2 s with heartbeats every second, the least the CP subsystem takes. Once the CP
// subsystem's discovery has completed it writes the id in the file --id names to FILE.ready, which
// services.sh reads as the proof that the member on the port is the one it started.
package rlock;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

public final class HazelcastMember {
  static final String CLUSTER = "rlock";
  static final int SESSION_TTL_S = 2;

  private HazelcastMember() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 4 || !args[0].equals("--id")) {
      System.err.println("usage: HazelcastMember --id FILE PORT HOST:PORT,HOST:PORT,HOST:PORT");
      System.exit(2);
    }
    Path id = Path.of(args[1]);
    int port = Integer.parseInt(args[2]);
    String[] members = args[3].split(",");

    Config config = new Config();
    config.setClusterName(CLUSTER);
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.local.localAddress", "127.0.0.1");
    // 127.0.0.1 alone, not every interface: the server socket has a property of its own
    config.setProperty("hazelcast.socket.bind.any", "false");
    config.setProperty("hazelcast.socket.server.bind.any", "false");
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(port).setPortAutoIncrement(false);
    network.getInterfaces().setEnabled(true).addInterface("127.0.0.1");
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(Arrays.asList(members));
    config.getCPSubsystemConfig()
        .setCPMemberCount(members.length)
        .setSessionHeartbeatIntervalSeconds(1)
        .setSessionTimeToLiveSeconds(SESSION_TTL_S);

    HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
    if (!member.getCPSubsystem().getCPSubsystemManagementService().awaitUntilDiscoveryCompleted(5, TimeUnit.MINUTES)) {
      System.err.println("the CP subsystem's discovery did not complete within 5 minutes");
      System.exit(1);
    }
    Path ready = Path.of(id + ".ready." + port);
    Path fresh = Files.createTempFile(id.getParent(), "ready", ".tmp");
    Files.write(fresh, Files.readAllBytes(id));
    Files.move(fresh, ready, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
