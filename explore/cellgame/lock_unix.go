//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package cellgame

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive flock on path (made if missing), waiting
// for other holders; unlock releases it. The kernel releases it when the
// process dies, so a killed save blocks no one.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
