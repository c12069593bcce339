//go:build unix

package explorer

import "syscall"

// closeFuzzPipesOnExec marks the descriptors a fuzz worker inherits from
// its coordinator (3, 4 and 5: its input, output and shared memory; not
// close-on-exec, since they came through exec) so that the children it
// starts do not inherit them. pgtest.Main starts a PostgreSQL server in
// every process of the test binary, each fuzz worker too; that server
// outlives a worker the coordinator stops, and holding the worker's output
// open it made the coordinator wait for that output's end for ever: the
// fuzzing stopped at its first worker restart (0 execs/s) and never
// ended. In any other process these are the binary's own descriptors,
// close-on-exec already.
func closeFuzzPipesOnExec() {
	for fd := 3; fd <= 5; fd++ {
		syscall.CloseOnExec(fd)
	}
}
