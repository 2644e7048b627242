// An rlock protocol client (docs/clients.md) whose lock is etcd's own Go concurrency.Mutex
// (go.etcd.io/etcd/client/v3; v3.4's import path behind the build tag etcd_clientv3), against the
// etcd of ETCD_ENDPOINT (or --endpoint HOST:PORT; a cluster's members as HOST:PORT,HOST:PORT,...,
// which the client balances across and fails over between).
//
// Each increment opens a concurrency.Session whose lease is the TTL in whole seconds (etcd grants no
// shorter one), kept alive by the session's own goroutine, and locks NewMutex(session, "/locks/"+key)
// for at most 10 TTLs, as etcd's docs show. With --fenced (etcd-mutex-fenced) the mutex key's create
// revision, which etcd raises with every acquisition, is claimed at the read as a fencing token. With
// --session (etcd-mutex-session) the process keeps one session for its life (a new one once it
// expired), as a service does, and an Unlock that failed is retried once, one TTL later, in the
// background: the setting of etcd-io/etcd#22082, where a retried Unlock deletes the same session's
// newer lock. With --pinned (etcd-mutex-pinned) the client is connected to the first endpoint it is
// given alone, as each of Jepsen's clients is to one node. The harness hands out Redis URLs only, so etcd's endpoint comes from the command line
// or environment.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	protocol "rlock.local/goprotocol"
)

// createRevision is the create revision of the mutex's key while it is still there (ours).
func createRevision(client *etcdClient, mutex *etcdMutex) (int64, error) {
	got, err := client.Get(context.Background(), mutex.Key())
	if err != nil {
		return 0, err
	}
	if len(got.Kvs) == 0 {
		return 0, fmt.Errorf("the lock key is gone: its lease expired")
	}
	return got.Kvs[0].CreateRevision, nil
}

func main() {
	endpoint := flag.String("endpoint", os.Getenv("ETCD_ENDPOINT"), "etcd's HOST:PORT, or its members' comma-separated")
	fenced := flag.Bool("fenced", false, "claim the lock key's create revision as a fencing token")
	kept := flag.Bool("session", false, "keep one session across increments; retry a failed Unlock one TTL later")
	pinned := flag.Bool("pinned", false, "connect to the first of the endpoints alone")
	flag.Parse()
	var client *etcdClient
	var ttl time.Duration
	setUp := func(init protocol.Message) (err error) {
		ttl = init.TTL()
		if *endpoint == "" {
			return fmt.Errorf("no etcd endpoint: give --endpoint or ETCD_ENDPOINT")
		}
		endpoints := strings.Split(*endpoint, ",")
		if *pinned {
			endpoints = endpoints[:1]
		}
		client, err = newClient(etcdConfig{Endpoints: endpoints, DialTimeout: 2 * time.Second})
		return err
	}
	leaseSeconds := func() int { return int((ttl + time.Second - 1) / time.Second) }
	var shared *etcdSession
	// The increment's session: its own, closed when it ends, or the process's while it lives.
	sessionOf := func() (*etcdSession, func(), error) {
		if !*kept {
			session, err := newSession(client, withTTL(leaseSeconds()))
			if err != nil {
				return nil, nil, err
			}
			return session, func() { session.Close() }, nil
		}
		if shared != nil {
			select {
			case <-shared.Done():
				shared = nil
			default:
			}
		}
		if shared == nil {
			session, err := newSession(client, withTTL(leaseSeconds()))
			if err != nil {
				return nil, nil, err
			}
			shared = session
		}
		return shared, func() {}, nil
	}
	protocol.Serve(setUp, func(request protocol.Message) (string, error) {
		session, release, err := sessionOf()
		if err != nil {
			return fmt.Sprintf("session: %v", err), nil
		}
		defer release()
		mutex := newMutex(session, "/locks/"+request.Key)
		waiting, cancel := context.WithTimeout(context.Background(), 10*ttl)
		defer cancel()
		if err := mutex.Lock(waiting); err != nil {
			return fmt.Sprintf("acquire: %v", err), nil
		}
		failure, err := "", error(nil)
		if *fenced {
			revision, lookup := createRevision(client, mutex)
			if lookup != nil {
				failure = fmt.Sprintf("revision: %v", lookup)
			} else {
				failure, err = protocol.FencedReadModifyWrite(request, revision)
			}
		} else {
			failure, err = protocol.ReadModifyWrite(request, nil)
		}
		if err != nil {
			return "", err
		}
		if err := protocol.Step(request.ID, "release"); err != nil {
			return "", err
		}
		if unlock := mutex.Unlock(context.Background()); unlock != nil {
			if failure == "" {
				failure = fmt.Sprintf("release: %v", unlock)
			}
			if *kept {
				go func() {
					time.Sleep(ttl)
					mutex.Unlock(context.Background())
				}()
			}
		}
		return failure, nil
	})
}
