// An rlock protocol client (docs/clients.md) whose lock is go-redsync/redsync (v4) on go-redis v9.
//
// Given one server, a single-instance lock; given three (catalogue name redsync3), Redlock's quorum.
// Each increment is what its README shows: NewMutex(key, WithExpiry(TTL)), Lock(), the work,
// Unlock(). No renewal and no fencing token. Lock retries every 10 ms for 10 TTLs; an Unlock that
// finds the lock gone is the increment's error. Between the read and the write, --valid asks
// ValidContext() (redsync-valid) and --extend ExtendContext() (redsync3-extend, with the option
// WithSetNXOnExtend where the library has it: extend_option.go), and skip the write when it says no.
package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/go-redsync/redsync/v4"
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	goredislib "github.com/redis/go-redis/v9"

	protocol "rlock.local/goprotocol"
)

// check is the question --valid or --extend asks of the mutex before the write: a non-empty answer,
// the lock is not ours, is the increment's error. Nil for neither. An extend of increment id is
// announced as its step "extend" first.
func check(valid, extend bool, mutex *redsync.Mutex, id int64) func() string {
	ask := func(name string, call func(context.Context) (bool, error)) func() string {
		return func() string {
			if ok, err := call(context.Background()); !ok || err != nil {
				return fmt.Sprintf("%s: the lock is not ours (%v)", name, err)
			}
			return ""
		}
	}
	switch {
	case valid:
		return ask("valid", mutex.ValidContext)
	case extend:
		return ask("extend", func(ctx context.Context) (bool, error) {
			if err := protocol.Step(id, "extend"); err != nil {
				return false, err
			}
			return mutex.ExtendContext(ctx)
		})
	}
	return nil
}

func main() {
	valid := flag.Bool("valid", false, "ask ValidContext() before the write")
	extend := flag.Bool("extend", false, "extend the lock before the write")
	flag.Parse()
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
		options := []redsync.Option{redsync.WithExpiry(ttl), redsync.WithRetryDelay(10 * time.Millisecond),
			redsync.WithTries(int(10 * ttl / (10 * time.Millisecond)))}
		if *extend {
			options = append(options, extendOptions...)
		}
		mutex := locks.NewMutex(request.Key, options...)
		if err := mutex.LockContext(context.Background()); err != nil {
			return fmt.Sprintf("acquire: %v", err), nil
		}
		failure, err := protocol.ReadModifyWrite(request, check(*valid, *extend, mutex, request.ID))
		if err != nil {
			return "", err
		}
		if err := protocol.Step(request.ID, "release"); err != nil {
			return "", err
		}
		if ok, err := mutex.UnlockContext(context.Background()); (!ok || err != nil) && failure == "" {
			failure = fmt.Sprintf("release: the lock was no longer ours (%v)", err)
		}
		return failure, nil
	})
}
