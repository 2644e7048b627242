// An rlock protocol client (docs/clients.md) whose lock is Spring Integration's RedisLockRegistry
// (--redis, on the init's Redis) or JdbcLockRegistry (--jdbc, on the PostgreSQL of PG_ENDPOINT, its
// password from PGPASSFILE, database bank).
//
// Each increment is what Spring Integration's docs show: obtain(key), tryLock(10 TTLs), the work,
// unlock(). Neither registry renews: the lock lasts the registry's expiry, the TTL, and a holder
// that outlives it learns so only at unlock(), which throws (spring-integration PR #2661), after its
// write. The JDBC registry's INT_LOCK table lives in a schema of rlock's own, rlock_spring, which this
// client makes and marks with a comment, and refuses to use when another made it.
package rlock;

import com.fasterxml.jackson.databind.JsonNode;
import io.lettuce.core.RedisURI;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

public final class SpringLockClient implements Protocol.Adapter {
  static final String SCHEMA = "rlock_spring";
  static final String MARK = "made by the rlock adapter spring-jdbc-lock";

  private final boolean jdbc;
  private LockRegistry<?> registry;
  private long ttlMs;

  private SpringLockClient(boolean jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public void setUp(JsonNode init) throws Exception {
    ttlMs = init.get("ttl_ms").asLong();
    registry = jdbc ? jdbcRegistry() : redisRegistry(init.get("redis").get(0).asText());
    // The first acquisition loads most of the registry: part of the start-up, before the trial's clock.
    // On a busy machine the warm-up lock may expire before its unlock, which then throws: no matter.
    Lock warmUp = registry.obtain("rlock-warm-up-" + init.path("name").asText());
    try {
      if (warmUp.tryLock(10 * ttlMs, TimeUnit.MILLISECONDS)) warmUp.unlock();
    } catch (RuntimeException expired) {
      // the registry is loaded all the same
    }
  }

  private LockRegistry<?> redisRegistry(String url) {
    RedisURI uri = RedisURI.create(url);
    RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(uri.getHost(), uri.getPort());
    server.setDatabase(uri.getDatabase());
    String user = java.net.URI.create(url).getUserInfo();  // [user]:password
    if (user != null && user.contains(":")) server.setPassword(user.substring(user.indexOf(':') + 1));
    LettuceConnectionFactory factory = new LettuceConnectionFactory(server);
    factory.afterPropertiesSet();
    factory.start();
    return new RedisLockRegistry(factory, "rlock-spring", ttlMs);
  }

  private LockRegistry<?> jdbcRegistry() throws Exception {
    String endpoint = System.getenv("PG_ENDPOINT");
    if (endpoint == null || endpoint.isEmpty()) throw new IllegalArgumentException("no PostgreSQL: PG_ENDPOINT is not set");
    // pgjdbc reads the password from PGPASSFILE; the data source is one connection, as one worker is.
    SingleConnectionDataSource dataSource =
        new SingleConnectionDataSource("jdbc:postgresql://" + endpoint + "/bank?user=postgres", true);
    try (Connection connection = dataSource.getConnection()) {
      makeSchema(connection);
    }
    DefaultLockRepository repository = new DefaultLockRepository(dataSource);
    repository.setPrefix(SCHEMA + ".INT_");
    repository.setTransactionManager(new DataSourceTransactionManager(dataSource));
    repository.afterPropertiesSet();
    repository.afterSingletonsInstantiated();
    JdbcLockRegistry jdbcRegistry = new JdbcLockRegistry(repository, Duration.ofMillis(ttlMs));
    jdbcRegistry.setIdleBetweenTries(Duration.ofMillis(10));
    return jdbcRegistry;
  }

  // rlock_spring and its INT_LOCK, made where missing (Spring Integration's own PostgreSQL schema);
  // a schema of that name that rlock did not make is left alone and refused.
  private static void makeSchema(Connection connection) throws Exception {
    try (PreparedStatement owner = connection.prepareStatement(
             "SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = ?")) {
      owner.setString(1, SCHEMA);
      try (ResultSet row = owner.executeQuery()) {
        if (row.next()) {
          if (!MARK.equals(row.getString(1))) {
            throw new IllegalStateException("schema " + SCHEMA + " exists and rlock did not make it: left alone");
          }
          return;
        }
      }
    }
    String ddl;
    try (InputStream in = JdbcLockRegistry.class.getResourceAsStream("/org/springframework/integration/jdbc/schema-postgresql.sql")) {
      ddl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA " + SCHEMA);
      statement.execute("COMMENT ON SCHEMA " + SCHEMA + " IS '" + MARK + "'");
      int start = ddl.indexOf("CREATE TABLE INT_LOCK");
      String table = ddl.substring(start, ddl.indexOf(';', start));
      statement.execute(table.replaceFirst("INT_LOCK", SCHEMA + ".INT_LOCK"));
      connection.commit();
    } catch (Exception e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(true);
    }
  }

  @Override
  public String increment(JsonNode request) throws Protocol.TrialOver {
    Lock lock = registry.obtain(request.get("key").asText());
    try {
      if (!lock.tryLock(10 * ttlMs, TimeUnit.MILLISECONDS)) return "could not acquire the lock in 10 TTLs";
    } catch (InterruptedException | RuntimeException e) {
      return "acquire: " + e;
    }
    Protocol.readModifyWrite(request);
    Protocol.step(request.get("id").asLong(), "release");
    try {
      lock.unlock();
    } catch (RuntimeException e) {
      return "unlock: " + e;
    }
    return null;
  }

  public static void main(String[] args) {
    if (args.length != 1 || !(args[0].equals("--redis") || args[0].equals("--jdbc"))) {
      System.err.println("usage: client.jar --redis|--jdbc");
      System.exit(2);
    }
    Protocol.serve(new SpringLockClient(args[0].equals("--jdbc")));
    System.exit(0);
  }
}
