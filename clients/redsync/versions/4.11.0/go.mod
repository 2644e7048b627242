module rlock.local/redsync

go 1.26.0

replace rlock.local/goprotocol => ../goprotocol

require (
	github.com/go-redsync/redsync/v4 v4.11.0
	github.com/redis/go-redis/v9 v9.23.0
	rlock.local/goprotocol v0.0.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/hashicorp/errwrap v1.1.0 // indirect
	github.com/hashicorp/go-multierror v1.1.1 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)
