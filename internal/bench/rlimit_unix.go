//go:build unix

package bench

import "syscall"

// RaiseFileLimit raises this process's soft open-file limit to the hard one (every charger is a
// socket) and returns the limit in force.
func RaiseFileLimit() (uint64, error) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, err
	}
	if l.Cur < l.Max {
		l.Cur = l.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			return 0, err
		}
	}
	return l.Cur, nil
}
