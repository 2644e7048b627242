//! An rlock protocol client (docs/clients.md) whose lock is rslock's `LockManager`, a Redlock on
//! redis-rs and Tokio. Given one server, a single-instance lock; given three (catalogue name
//! rslock3), Redlock's quorum. Each increment is what its README shows: `acquire(key, TTL)`, the
//! work, `release()`; no extension and no fencing token. `acquire` retries without end, so the
//! adapter gives it 10 TTLs, as a service bounds a wait; `release` is best effort and says nothing of
//! a lock that expired under its holder.

use rslock::LockManager;
use rustprotocol::{read_modify_write, serve, step, Increment, Init};
use std::time::Duration;

struct Locks {
    runtime: tokio::runtime::Runtime,
    manager: LockManager,
    ttl: Duration,
}

fn set_up(init: &Init) -> Result<Locks, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|error| format!("a Tokio runtime: {error}"))?;
    if init.redis.is_empty() {
        return Err("init names no Redis server".into());
    }
    let manager = LockManager::new(init.redis.clone());
    Ok(Locks {
        runtime,
        manager,
        ttl: init.ttl,
    })
}

fn increment(
    locks: &mut Locks,
    request: &Increment,
) -> Result<Option<String>, rustprotocol::TrialOver> {
    let (manager, ttl) = (&locks.manager, locks.ttl);
    // The timer is made inside the runtime, whose clock it needs.
    let acquired = locks.runtime.block_on(async {
        tokio::time::timeout(10 * ttl, manager.acquire(request.key.as_bytes(), ttl)).await
    });
    let guard = match acquired {
        Err(_) => return Ok(Some(format!("acquire: not acquired within {:?}", 10 * ttl))),
        Ok(Err(error)) => return Ok(Some(format!("acquire: {error}"))),
        Ok(Ok(guard)) => guard,
    };
    read_modify_write(request)?;
    step(request.id, "release")?;
    locks.runtime.block_on(guard.release());
    Ok(None)
}

fn main() {
    serve(set_up, increment);
}
