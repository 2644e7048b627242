//! rlock's line protocol v1 (docs/clients.md) as the Rust adapters speak it: one JSON object a line
//! on stdin and stdout, an increment's read and write through the harness, and the loop that answers
//! every increment with its done. Adapters depend on it by path. It blocks on stdin and is not meant
//! for concurrent use: an adapter speaks from one thread, and runs its library's futures in between.

use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::time::Duration;

thread_local! {
    /// The steps the harness asked to be announced (init's "steps"); the release alone when it
    /// names none, as protocol 1 first had it.
    static ANNOUNCED: RefCell<HashSet<String>> = RefCell::new(HashSet::from(["release".to_string()]));
}

/// The harness closed stdin: the trial ended.
#[derive(Debug)]
pub struct TrialOver;

/// What `init` says: the Redis servers the client was given and the lock's TTL.
pub struct Init {
    pub redis: Vec<String>,
    pub ttl: Duration,
}

/// One `increment`: take the lock on `key` and add `amount` to the account.
pub struct Increment {
    pub id: i64,
    pub key: String,
    pub amount: i64,
}

/// Writes one message, a line.
pub fn send(message: Value) {
    let mut out = std::io::stdout().lock();
    // A harness that went away ends the trial; the next receive sees stdin closed.
    let _ = writeln!(out, "{message}").and_then(|_| out.flush());
}

/// The next message, which must be of type `expected`; TrialOver at the end of stdin. Any other
/// message ends the adapter with a line on stderr: the harness counts a client error.
pub fn receive(expected: &str) -> Result<Value, TrialOver> {
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => return Err(TrialOver),
        Ok(_) => {}
    }
    match serde_json::from_str::<Value>(&line) {
        Ok(message) if message["type"] == expected => {
            if let (true, Some(steps)) = (expected == "init", message["steps"].as_array()) {
                let steps = steps.iter().filter_map(|s| s.as_str().map(String::from)).collect();
                ANNOUNCED.with(|announced| *announced.borrow_mut() = steps);
            }
            Ok(message)
        }
        _ => {
            let program = std::env::args().next().unwrap_or_default();
            eprintln!("{program}: expected {expected}, got {}", line.trim_end());
            std::process::exit(1)
        }
    }
}

fn integer(message: &Value, field: &str) -> i64 {
    message[field].as_i64().unwrap_or_else(|| {
        eprintln!("rustprotocol: {message} has no integer {field}");
        std::process::exit(1)
    })
}

/// Tells the harness the library is about to take the step `name` ("acquire", "acquired",
/// "release", "extend") of the increment `id`, and waits until the harness lets it (step_ok): a
/// fault may wait for it. Nothing when the harness did not ask for that step.
pub fn step(id: i64, name: &str) -> Result<(), TrialOver> {
    if !ANNOUNCED.with(|announced| announced.borrow().contains(name)) {
        return Ok(());
    }
    send(json!({"type": "step", "id": id, "step": name}));
    receive("step_ok").map(|_| ())
}

/// Once the lock is taken (the step "acquired"), reads the account and writes it plus the amount.
pub fn read_modify_write(request: &Increment) -> Result<(), TrialOver> {
    step(request.id, "acquired")?;
    send(json!({"type": "read", "id": request.id}));
    let balance = integer(&receive("read_ok")?, "balance");
    send(json!({"type": "write", "id": request.id, "balance": balance + request.amount}));
    receive("write_ok").map(|_| ())
}

/// Answers init with init_ok once `set_up` accepted it, then runs each increment through
/// `increment`, whose Some is the increment's error, and sends its done, until the harness closes
/// stdin. A refusal of `set_up` ends the adapter with its line on stderr.
pub fn serve<S>(
    set_up: impl FnOnce(&Init) -> Result<S, String>,
    mut increment: impl FnMut(&mut S, &Increment) -> Result<Option<String>, TrialOver>,
) {
    let Ok(init) = receive("init") else { return };
    let redis = init["redis"].as_array().into_iter().flatten();
    let init = Init {
        redis: redis
            .filter_map(|url| url.as_str().map(String::from))
            .collect(),
        ttl: Duration::from_millis(integer(&init, "ttl_ms").max(0) as u64),
    };
    let mut state = set_up(&init).unwrap_or_else(|error| {
        let program = std::env::args().next().unwrap_or_default();
        eprintln!("{program}: {error}");
        std::process::exit(1)
    });
    send(json!({"type": "init_ok"}));
    while let Ok(message) = receive("increment") {
        let request = Increment {
            id: integer(&message, "id"),
            key: message["key"].as_str().unwrap_or_default().to_string(),
            amount: integer(&message, "amount"),
        };
        if step(request.id, "acquire").is_err() {
            return;
        }
        let Ok(failure) = increment(&mut state, &request) else {
            return;
        };
        let mut done = json!({"type": "done", "id": request.id});
        if let Some(error) = failure {
            done["error"] = json!(error);
        }
        send(done);
    }
}
