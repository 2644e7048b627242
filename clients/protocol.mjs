// The line protocol of rlock's lock clients (docs/clients.md), as the Node adapters speak it: one JSON
// object a line on stdin and stdout, and an increment's read and write through the harness. Adapters
// import it from the folder above theirs.
import readline from "node:readline";

const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();

export function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// The next message, which must be of type `expected`; null when the harness closed stdin.
export async function receive(expected) {
  const { value, done } = await lines.next();
  if (done) return null;
  const message = JSON.parse(value);
  if (message.type !== expected) throw new Error(`expected ${expected}, got ${value}`);
  return message;
}

// read and write through the harness; false when the trial ended meanwhile.
export async function readModifyWrite(request, signal) {
  send({ type: "read", id: request.id });
  const read = await receive("read_ok");
  if (read === null) return false;
  if (signal.aborted) throw signal.error;
  send({ type: "write", id: request.id, balance: read.balance + request.amount });
  return (await receive("write_ok")) !== null;
}
