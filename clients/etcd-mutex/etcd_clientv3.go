//go:build etcd_clientv3

// The etcd client at its import path in v3.4, go.etcd.io/etcd/clientv3 (module go.etcd.io/etcd),
// under the names main.go uses (etcd_client.go gives them from v3.5's path).
package main

import (
	"go.etcd.io/etcd/clientv3"
	"go.etcd.io/etcd/clientv3/concurrency"
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
