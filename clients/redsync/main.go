// An rlock protocol client (docs/clients.md) whose lock is go-redsync/redsync (v4) on go-redis v9.
//
// Given one server, a single-instance lock; given three (catalogue name redsync3), Redlock's quorum.
// Each increment is what its README shows: NewMutex(key, WithExpiry(TTL)), Lock(), the work,
// Unlock(). No renewal and no fencing token. Lock retries every 10 ms for 10 TTLs; an Unlock that
// finds the lock gone is the increment's error.
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/go-redsync/redsync/v4"
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	goredislib "github.com/redis/go-redis/v9"

	protocol "rlock.local/goprotocol"
)

func main() {
	var locks *redsync.Redsync
	var ttl time.Duration
	setUp := func(init protocol.Message) error {
		ttl = init.TTL()
		var pools []redsyncredis.Pool
		for _, url := range init.Redis {
			options, err := goredislib.ParseURL(url)
			if err != nil {
				return err
			}
			options.DialTimeout, options.ReadTimeout, options.WriteTimeout = 2*time.Second, 2*time.Second, 2*time.Second
			options.MaxRetries = -1 // a refused command is redsync's to count, not go-redis's to retry
			pools = append(pools, goredis.NewPool(goredislib.NewClient(options)))
		}
		locks = redsync.New(pools...)
		return nil
	}
	protocol.Serve(setUp, func(request protocol.Message) (string, error) {
		mutex := locks.NewMutex(request.Key, redsync.WithExpiry(ttl), redsync.WithRetryDelay(10*time.Millisecond),
			redsync.WithTries(int(10*ttl/(10*time.Millisecond))))
		if err := mutex.LockContext(context.Background()); err != nil {
			return fmt.Sprintf("acquire: %v", err), nil
		}
		if _, err := protocol.ReadModifyWrite(request, nil); err != nil {
			return "", err
		}
		if ok, err := mutex.UnlockContext(context.Background()); !ok || err != nil {
			return fmt.Sprintf("release: the lock was no longer ours (%v)", err), nil
		}
		return "", nil
	})
}
