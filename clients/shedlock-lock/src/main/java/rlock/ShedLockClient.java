// An rlock protocol client (docs/clients.md) whose lock is ShedLock's, as a service's scheduled job
// takes it: LockProvider.lock with lockAtMostFor = the TTL and no lockAtLeastFor, the work, then
// unlock(). ShedLock hands out no token and never renews: the lock is held as long as its lease says.
// A refused lock is asked again every 10 ms for 10 TTLs (ShedLock itself skips the run instead).
//
// --jdbc: JdbcTemplateLockProvider on PostgreSQL, the lease computed from this JVM's clock (the
// clock ShedLock#231 is about); --jdbc-db-time: the same with usingDbTime(), the lease computed by
// PostgreSQL; --redis: the Spring Data Redis provider (Lettuce) on the init's Redis, a key with
// PX = lockAtMostFor. The PostgreSQL is PG_ENDPOINT's (HOST:PORT, database bank, user postgres, the
// password from PGPASSFILE); its lock table is rlock_shedlock.shedlock, a schema this client makes
// and marks with a comment, and refuses to use when another made it.
package rlock;

import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.TimeZone;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

public final class ShedLockClient implements Protocol.Adapter {
  private static final String SCHEMA = "rlock_shedlock";
  private static final String TABLE = SCHEMA + ".shedlock";
  private static final String MARK = "rlock: the lock table of its ShedLock adapters (clients/shedlock-lock)";

  private enum Provider { jdbc, jdbcDbTime, redis }

  private final Provider provider;
  private LockProvider locks;
  private long ttlMs;

  private ShedLockClient(Provider provider) {
    this.provider = provider;
  }

  @Override
  public void setUp(JsonNode init) throws Exception {
    ttlMs = init.get("ttl_ms").asLong();
    locks = provider == Provider.redis ? redisProvider(init) : jdbcProvider();
    // The first lock loads and compiles most of ShedLock and its driver: part of the start-up,
    // which comes before the trial's clock, not of the first increment.
    Optional<SimpleLock> warmUp = locks.lock(configuration("rlock-warm-up:" + init.path("name").asText()));
    warmUp.ifPresent(SimpleLock::unlock);
  }

  private LockProvider redisProvider(JsonNode init) {
    URI url = URI.create(init.get("redis").get(0).asText());
    String database = url.getPath() == null ? "" : url.getPath().replace("/", "");
    RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(url.getHost(), url.getPort());
    server.setDatabase(database.isEmpty() ? 0 : Integer.parseInt(database));
    LettuceConnectionFactory factory = new LettuceConnectionFactory(
        server, LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
    factory.afterPropertiesSet();
    factory.start();
    return new RedisLockProvider(factory, "rlock");
  }

  private LockProvider jdbcProvider() throws SQLException {
    String endpoint = System.getenv("PG_ENDPOINT");
    if (endpoint == null || endpoint.isEmpty()) {
      throw new IllegalStateException("PG_ENDPOINT (HOST:PORT of PostgreSQL) is not set: eval \"$(scripts/services.sh env)\"");
    }
    HikariConfig pool = new HikariConfig();
    pool.setJdbcUrl("jdbc:postgresql://" + endpoint + "/bank");
    pool.setUsername("postgres");
    pool.setMaximumPoolSize(2);
    pool.setConnectionTimeout(2000);
    DataSource source = new HikariDataSource(pool);
    makeTable(source);
    JdbcTemplateLockProvider.Configuration.Builder configuration =
        JdbcTemplateLockProvider.Configuration.builder().withJdbcTemplate(new JdbcTemplate(source)).withTableName(TABLE);
    if (provider == Provider.jdbcDbTime) {
      configuration.usingDbTime();
    } else {
      configuration.withTimeZone(TimeZone.getTimeZone("UTC"));
    }
    return new JdbcTemplateLockProvider(configuration.build());
  }

  // The table of ShedLock's documentation, in a schema of rlock's own: made once by whichever client
  // comes first (an advisory lock orders them), refused when the schema is not marked as rlock's.
  private static void makeTable(DataSource source) throws SQLException {
    try (Connection connection = source.getConnection()) {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.execute("SELECT pg_advisory_xact_lock(hashtext('" + TABLE + "'))");
        try (ResultSet mark = statement.executeQuery(
                 "SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = '" + SCHEMA + "'")) {
          if (mark.next() && !MARK.equals(mark.getString(1))) {
            throw new IllegalStateException("schema " + SCHEMA + " exists and is not rlock's: not touched");
          }
        }
        statement.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
        try (PreparedStatement comment = connection.prepareStatement("COMMENT ON SCHEMA " + SCHEMA + " IS '" + MARK + "'")) {
          comment.execute();
        }
        statement.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (name VARCHAR(64) NOT NULL PRIMARY KEY,"
            + " lock_until TIMESTAMP NOT NULL, locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL)");
      }
      connection.commit();
    }
  }

  // lockAtMostFor = the TTL, no lockAtLeastFor: the lease starts now by this JVM's clock.
  private LockConfiguration configuration(String name) {
    return new LockConfiguration(ClockProvider.now(), name, Duration.ofMillis(ttlMs), Duration.ZERO);
  }

  @Override
  public String increment(JsonNode request) throws Protocol.TrialOver {
    String key = request.get("key").asText();
    Optional<SimpleLock> lock = Optional.empty();
    long deadline = System.nanoTime() + 10 * ttlMs * 1_000_000;
    try {
      while ((lock = locks.lock(configuration(key))).isEmpty()) {
        if (System.nanoTime() > deadline) return "could not acquire the lock in 10 TTLs";
        Thread.sleep(10);
      }
    } catch (Exception e) {
      return "acquire: " + e;
    }
    Protocol.readModifyWrite(request);
    Protocol.step(request.get("id").asLong(), "release");
    try {
      lock.get().unlock();
    } catch (Exception e) {
      return "release: " + e;
    }
    return null;
  }

  public static void main(String[] args) {
    Provider provider = null;
    if (args.length == 1) {
      switch (args[0]) {
        case "--jdbc" -> provider = Provider.jdbc;
        case "--jdbc-db-time" -> provider = Provider.jdbcDbTime;
        case "--redis" -> provider = Provider.redis;
        default -> provider = null;
      }
    }
    if (provider == null) {
      System.err.println("usage: client.jar --jdbc | --jdbc-db-time | --redis");
      System.exit(2);
    }
    Protocol.serve(new ShedLockClient(provider));
    System.exit(0);
  }
}
