//go:build !redsync_before_setnx_on_extend

// extendOptions: an extend that finds the key gone sets it again where no one else holds it
// (WithSetNXOnExtend, go-redsync/redsync#149, from v4.12.0 on).
package main

import "github.com/go-redsync/redsync/v4"

var extendOptions = []redsync.Option{redsync.WithSetNXOnExtend()}
