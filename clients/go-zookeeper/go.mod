module rlock.local/go-zookeeper

go 1.23.0

replace rlock.local/goprotocol => ../goprotocol

require (
	github.com/go-zookeeper/zk v1.0.4
	rlock.local/goprotocol v0.0.0
)
