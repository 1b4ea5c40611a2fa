// Command nimbook explores impartial combinatorial games: it runs job files
// and notebooks into reports, answers nimber questions, and serves as a
// Jupyter kernel. See README.md.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := context.Background(), func() {}
	// A kernel traps SIGINT itself (an interrupt stops the running cell,
	// not the kernel) and ends on SIGTERM as any process does.
	if len(os.Args) < 2 || os.Args[1] != "kernel" {
		ctx, stop = notifyContext(ctx)
	}
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	code, msg := exitStatus(ctx, err)
	if msg != "" {
		fmt.Fprintln(os.Stderr, "nimbook:", msg)
	}
	stop()
	os.Exit(code)
}

// notifyContext returns a context cancelled by SIGINT (Ctrl-C) or SIGTERM,
// its cause a *signalError naming the signal. The work stops at its next
// check and removes what it was writing; a second signal ends the process
// at once, for work that does not stop.
func notifyContext(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			se := &signalError{sig: s}
			cancel(se)
			select {
			case <-ch:
				fmt.Fprintln(os.Stderr, "\nnimbook:", se.Error())
				os.Exit(se.code())
			case <-done:
			}
		case <-done:
		}
	}()
	stopped := false
	return ctx, func() {
		if !stopped {
			stopped = true
			signal.Stop(ch)
			close(done)
			cancel(nil)
		}
	}
}

// signalError is the cause of a context a signal cancelled; it reads
// "interrupted" and is a context.Canceled, as work stopped by Ctrl-C is.
type signalError struct{ sig os.Signal }

func (e *signalError) Error() string {
	if e.sig == syscall.SIGTERM {
		return "terminated"
	}
	return "interrupted"
}

func (e *signalError) Is(target error) bool { return target == context.Canceled }

// code is the shell's status for a process a signal ended: 128 + its number.
func (e *signalError) code() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}
