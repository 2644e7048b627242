module rlock.local/bsm-redislock

go 1.22

replace rlock.local/goprotocol => ../goprotocol

require (
	github.com/bsm/redislock v0.9.4
	github.com/redis/go-redis/v9 v9.0.3
	rlock.local/goprotocol v0.0.0
)

require (
	github.com/cespare/xxhash/v2 v2.2.0 // indirect
	github.com/dgryski/go-rendezvous v0.0.0-20200823014737-9f7001d12a5f // indirect
)
