// An rlock protocol client (docs/clients.md) whose lock is github.com/go-zookeeper/zk's Lock, against
// the ZooKeeper of ZOOKEEPER_CONNECT (or --connect HOST:PORT, or an ensemble's HOST:PORT,...).
//
// One connection whose session lasts the TTL, as a service keeps one; each increment is what the
// library offers: NewLock(conn, "/locks/"+key, WorldACL(PermAll)), Lock(), the work, Unlock(). Lock
// waits without a bound (it takes no timeout). The library gives no signal when the session is lost:
// the lock node goes with it, the connection opens a new session, and the holder learns of it only at
// Unlock (zk: node does not exist), after its write. The harness hands out Redis URLs only, so
// ZooKeeper's address comes from the command line or the environment.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"

	protocol "rlock.local/goprotocol"
)

// connect opens the connection to the servers of address (HOST:PORT, or an ensemble's members
// comma-separated) and waits, at most limit, for its first session.
func connect(address string, ttl, limit time.Duration) (*zk.Conn, error) {
	conn, events, err := zk.Connect(strings.Split(address, ","), ttl)
	if err != nil {
		return nil, err
	}
	deadline := time.After(limit)
	for {
		select {
		case event := <-events:
			if event.State == zk.StateHasSession {
				go func() {
					for range events { // the library drops events nobody reads; these are read and let go
					}
				}()
				return conn, nil
			}
		case <-deadline:
			conn.Close()
			return nil, fmt.Errorf("ZooKeeper at %s gave no session within %v", address, limit)
		}
	}
}

func main() {
	address := flag.String("connect", os.Getenv("ZOOKEEPER_CONNECT"), "ZooKeeper's HOST:PORT")
	flag.Parse()
	var conn *zk.Conn
	setUp := func(init protocol.Message) (err error) {
		if *address == "" {
			return fmt.Errorf("no ZooKeeper: give --connect or ZOOKEEPER_CONNECT")
		}
		conn, err = connect(*address, init.TTL(), 10*init.TTL())
		return err
	}
	protocol.Serve(setUp, func(request protocol.Message) (string, error) {
		lock := zk.NewLock(conn, "/locks/"+request.Key, zk.WorldACL(zk.PermAll))
		if err := lock.Lock(); err != nil {
			return fmt.Sprintf("acquire: %v", err), nil
		}
		if _, err := protocol.ReadModifyWrite(request, nil); err != nil {
			return "", err
		}
		if err := protocol.Step(request.ID, "release"); err != nil {
			return "", err
		}
		if err := lock.Unlock(); err != nil {
			return fmt.Sprintf("release: %v", err), nil
		}
		return "", nil
	})
}
