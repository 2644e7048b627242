//go:build !etcd_clientv3

// The etcd client at its import path since v3.5, go.etcd.io/etcd/client/v3, under the names main.go
// uses; etcd_clientv3.go gives the same names from v3.4's path.
package main

import (
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type (
	etcdClient  = clientv3.Client
	etcdConfig  = clientv3.Config
	etcdMutex   = concurrency.Mutex
	etcdSession = concurrency.Session
)

var (
	newClient  = clientv3.New
	newSession = concurrency.NewSession
	withTTL    = concurrency.WithTTL
	newMutex   = concurrency.NewMutex
)
