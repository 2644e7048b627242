//go:build redsync_before_setnx_on_extend

// extendOptions before v4.12.0, which has no WithSetNXOnExtend: an extend that finds the key gone fails.
package main

import "github.com/go-redsync/redsync/v4"

var extendOptions []redsync.Option
