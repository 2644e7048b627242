// rlock's line protocol v1 (docs/clients.md) as the Java adapters speak it: one JSON object a line on
// stdin and stdout, an increment's read and write through the harness, and the loop that answers
// every increment with its done. Each adapter's pom.xml adds this folder to its sources. Used from
// the main thread only.
package rlock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

final class Protocol {
  /** The harness closed stdin: the trial ended. */
  static final class TrialOver extends Exception {}

  /** What an adapter does with init and with each increment (its error, or null). */
  interface Adapter {
    void setUp(JsonNode init) throws Exception;

    String increment(JsonNode request) throws TrialOver;
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  /** The steps the harness asked to be announced (init's "steps"); the release alone when it names none. */
  private static java.util.Set<String> announced = java.util.Set.of("release");
  private static final BufferedReader IN =
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

  private Protocol() {}

  static ObjectNode message(String type, long id) {
    return JSON.createObjectNode().put("type", type).put("id", id);
  }

  static void send(ObjectNode message) {
    System.out.println(message.toString());
    System.out.flush();
  }

  /** The next message, which must be of type expected; any other ends the adapter (a client error). */
  static JsonNode receive(String expected) throws TrialOver {
    String line;
    try {
      line = IN.readLine();
    } catch (IOException e) {
      throw new TrialOver();
    }
    if (line == null) throw new TrialOver();
    try {
      JsonNode message = JSON.readTree(line);
      if (expected.equals(message.path("type").asText())) {
        if (expected.equals("init") && message.path("steps").isArray()) {
          java.util.Set<String> steps = new java.util.HashSet<>();
          message.get("steps").forEach(step -> steps.add(step.asText()));
          announced = steps;
        }
        return message;
      }
    } catch (IOException e) {
      // reported below
    }
    System.err.println("expected " + expected + ", got " + line);
    System.exit(1);
    return null;
  }

  /**
   * Tells the harness the library is about to take the step name ("acquire", "acquired",
   * "release", "extend") of the increment id, and waits until the harness lets it (step_ok): a
   * fault may wait for it. Nothing when the harness did not ask for that step.
   */
  static void step(long id, String name) throws TrialOver {
    if (!announced.contains(name)) return;
    send(message("step", id).put("step", name));
    receive("step_ok");
  }

  /** Once the lock is taken (the step "acquired"), reads the account and writes it plus the amount. */
  static void readModifyWrite(JsonNode request) throws TrialOver {
    long id = request.get("id").asLong();
    step(id, "acquired");
    send(message("read", id));
    long balance = receive("read_ok").get("balance").asLong();
    send(message("write", id).put("balance", balance + request.get("amount").asLong()));
    receive("write_ok");
  }

  /** Claims the account with token at the read and writes with it; the refusal, or null. */
  static String fencedReadModifyWrite(JsonNode request, long token) throws TrialOver {
    long id = request.get("id").asLong();
    step(id, "acquired");
    send(message("read", id).put("token", token).put("claim", true));
    JsonNode read = receive("read_ok");
    if (!read.path("claimed").asBoolean()) {
      return "the claim of token " + token + " was refused: a newer holder claimed the account";
    }
    send(message("write", id).put("balance", read.get("balance").asLong() + request.get("amount").asLong())
        .put("token", token));
    if (!receive("write_ok").path("applied").asBoolean()) return "the write with token " + token + " was refused";
    return null;
  }

  /** Answers init once the adapter set up, then every increment with its done, until stdin ends. */
  static void serve(Adapter adapter) {
    try {
      JsonNode init = receive("init");
      adapter.setUp(init);
      send(JSON.createObjectNode().put("type", "init_ok"));
      for (;;) {
        JsonNode request = receive("increment");
        step(request.get("id").asLong(), "acquire");
        String error = adapter.increment(request);
        ObjectNode done = message("done", request.get("id").asLong());
        if (error != null) done.put("error", error);
        send(done);
      }
    } catch (TrialOver over) {
      // the trial ended
    } catch (Exception e) {
      System.err.println("set-up failed: " + e);
      System.exit(1);
    }
  }
}
