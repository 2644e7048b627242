// An rlock protocol client (docs/clients.md) whose lock is bsm/redislock on go-redis v9, one server.
//
// Obtain(key, TTL) retrying every 10 ms for 10 TTLs, then, as the library's README advises for work
// that may outlast the TTL, Refresh(TTL) every third of it from a goroutine while the work runs. A
// refresh that finds the lock gone (ErrNotObtained) stops the increment before its write, as a
// service watching its lock would; a paused process pauses its refreshes too. No fencing token.
package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/bsm/redislock"
	goredislib "github.com/redis/go-redis/v9"

	protocol "rlock.local/goprotocol"
)

// refresh extends lock every ttl/3 until stop is closed or a refresh fails, which sets lost.
func refresh(lock *redislock.Lock, ttl time.Duration, stop <-chan struct{}, lost *atomic.Bool) {
	ticker := time.NewTicker(ttl / 3)
	defer ticker.Stop()
	for {
		select {
		case <-stop:
			return
		case <-ticker.C:
			if err := lock.Refresh(context.Background(), ttl, nil); err != nil {
				lost.Store(true)
				return
			}
		}
	}
}

func main() {
	var locker *redislock.Client
	var ttl time.Duration
	setUp := func(init protocol.Message) error {
		ttl = init.TTL()
		options, err := goredislib.ParseURL(init.Redis[0])
		if err != nil {
			return err
		}
		options.DialTimeout, options.ReadTimeout, options.WriteTimeout = 2*time.Second, 2*time.Second, 2*time.Second
		locker = redislock.New(goredislib.NewClient(options))
		return nil
	}
	protocol.Serve(setUp, func(request protocol.Message) (string, error) {
		retry := redislock.LimitRetry(redislock.LinearBackoff(10*time.Millisecond), int(10*ttl/(10*time.Millisecond)))
		lock, err := locker.Obtain(context.Background(), request.Key, ttl, &redislock.Options{RetryStrategy: retry})
		if err != nil {
			return fmt.Sprintf("acquire: %v", err), nil
		}
		var lost atomic.Bool
		stop := make(chan struct{})
		go refresh(lock, ttl, stop, &lost)
		failure, err := protocol.ReadModifyWrite(request, func() string {
			if lost.Load() {
				return "a refresh found the lock gone before the write"
			}
			return ""
		})
		close(stop)
		if failure != "" || err != nil {
			return failure, err
		}
		if err := protocol.Step(request.ID, "release"); err != nil {
			return "", err
		}
		if err := lock.Release(context.Background()); err != nil {
			return fmt.Sprintf("release: %v", err), nil
		}
		return "", nil
	})
}
