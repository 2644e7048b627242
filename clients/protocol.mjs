// The line protocol of rlock's lock clients (docs/clients.md), as the Node adapters speak it: one JSON
// object a line on stdin and stdout, and an increment's read and write through the harness; and where
// an adapter's library comes from. Adapters import it from the folder above theirs.
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();

export function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// The steps the harness asked to be announced (init's "steps"); a harness that names none asks for
// the release alone, as protocol 1 first had it.
let announced = new Set(["release"]);

// The next message, which must be of type `expected`; null when the harness closed stdin.
export async function receive(expected) {
  const { value, done } = await lines.next();
  if (done) return null;
  const message = JSON.parse(value);
  if (message.type !== expected) throw new Error(`expected ${expected}, got ${value}`);
  if (expected === "init" && Array.isArray(message.steps)) announced = new Set(message.steps);
  return message;
}

// Tells the harness the library is about to take the step `name` ("acquire", "acquired", "release",
// "extend") of the increment `id`, and waits until the harness lets it (step_ok): a fault may wait
// for it. Nothing when the harness did not ask for that step. False when the trial ended meanwhile.
export async function step(id, name) {
  if (!announced.has(name)) return true;
  send({ type: "step", id, step: name });
  return (await receive("step_ok")) !== null;
}

// The next increment, its "acquire" step announced; null when the harness closed stdin.
export async function nextIncrement() {
  const request = await receive("increment");
  if (request === null || !(await step(request.id, "acquire"))) return null;
  return request;
}

// read and write through the harness, once the lock is taken ("acquired"); false when the trial
// ended meanwhile.
export async function readModifyWrite(request, signal) {
  if (!(await step(request.id, "acquired"))) return false;
  send({ type: "read", id: request.id });
  const read = await receive("read_ok");
  if (read === null) return false;
  if (signal.aborted) throw signal.error;
  send({ type: "write", id: request.id, balance: read.balance + request.amount });
  return (await receive("write_ok")) !== null;
}

// require() of the version of the libraries to run: the node_modules of the adapter's first argument,
// the manifest's {build} (so that one source serves every version), or without one of the folder of
// `adapterUrl`, the adapter's import.meta.url.
export function requireFrom(adapterUrl) {
  const build = process.argv[2]?.startsWith("--") === false ? process.argv[2] : fileURLToPath(new URL(".", adapterUrl));
  return createRequire(join(resolve(build), "package.json"));
}
