package kernel

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"
)

// Serve runs a kernel for the connection file until the client asks it to shut
// down, ctx is cancelled, or the process that started it dies (JPY_PARENT_PID,
// or a change of parent process). It is what `nimbook kernel --connection-file
// FILE` does. SIGINT interrupts the running cell instead of killing the
// process. Serve returns nil on a shutdown request and when the parent died.
func Serve(ctx context.Context, connectionFile string, exec Executor, opts Options) error {
	info, err := ReadConnectionFile(connectionFile)
	if err != nil {
		return err
	}
	k, err := NewKernel(info, exec, opts)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-sigs:
				k.debug.Printf("SIGINT: interrupting the running cell")
				k.Interrupt()
			}
		}
	}()

	parentPID, _ := strconv.Atoi(os.Getenv("JPY_PARENT_PID"))
	orphaned := watchParent(ctx, parentPID, parentPollInterval)
	go func() {
		select {
		case <-orphaned:
			k.debug.Printf("parent process is gone: exiting")
			cancel()
		case <-ctx.Done():
		}
	}()

	err = k.Run(ctx)
	select {
	case <-orphaned:
		return nil
	default:
	}
	return err
}

// parentPollInterval is how often the kernel checks that its parent lives.
const parentPollInterval = 500 * time.Millisecond

// watchParent returns a channel closed when process pid (if > 0) is gone or
// when this process's parent changes (it was re-parented: the parent died).
func watchParent(ctx context.Context, pid int, every time.Duration) <-chan struct{} {
	gone := make(chan struct{})
	ppid := os.Getppid()
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if os.Getppid() != ppid || (pid > 0 && !processAlive(pid)) {
					close(gone)
					return
				}
			}
		}
	}()
	return gone
}

// ErrUsage marks command-line mistakes (exit status 2 in the command).
var ErrUsage = errors.New("kernel: bad usage")

// Usage is the help text of the kernel command.
const Usage = `usage:
  nimbook kernel install [--user] [--prefix DIR] [--binary PATH]
  nimbook kernel [--debug] --connection-file FILE

The kernel writes its errors to standard error; --debug (or the environment
variable ` + DebugEnv + `=1) adds what it does: listening, shutdown, requests
refused.
`

// DebugEnv is the environment variable that, set to 1, makes the kernel
// command log what it does on standard error, as --debug does.
const DebugEnv = "NIMBOOK_KERNEL_DEBUG"

// Main runs the `kernel` command with the arguments that follow "kernel":
//
//	install [--user] [--prefix DIR] [--binary PATH]   register the kernelspec
//	[--debug] --connection-file FILE [ignored...]     serve (also -f FILE)
//
// The kernel logs its errors to stderr, and what it does too with --debug
// or NIMBOOK_KERNEL_DEBUG=1 (DebugEnv). newExec is called only to serve.
// Errors wrap ErrUsage when the arguments are wrong.
func Main(ctx context.Context, args []string, newExec func() (Executor, error), stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "install" {
		return mainInstall(args[1:], stdout, stderr)
	}
	file := ""
	debug := os.Getenv(DebugEnv) == "1"
	for i := 0; i < len(args) && file == ""; i++ {
		a := args[i]
		switch {
		case a == "-h" || a == "-help" || a == "--help":
			fmt.Fprint(stdout, Usage)
			return nil
		case a == "--debug" || a == "-debug":
			debug = true
		case a == "--connection-file" || a == "-connection-file" || a == "-f":
			if i+1 == len(args) {
				return fmt.Errorf("%w: %s needs a file name\n%s", ErrUsage, a, Usage)
			}
			file = args[i+1]
		case strings.HasPrefix(a, "--connection-file="), strings.HasPrefix(a, "-f="):
			file = a[strings.IndexByte(a, '=')+1:]
		default:
			return fmt.Errorf("%w: unexpected argument %q\n%s", ErrUsage, a, Usage)
		}
	}
	// Arguments after the connection file are ignored: some launchers add their own.
	if file == "" {
		return fmt.Errorf("%w: no --connection-file\n%s", ErrUsage, Usage)
	}
	// Check the file before building the session, which may be costly.
	if _, err := ReadConnectionFile(file); err != nil {
		return err
	}
	exec, err := newExec()
	if err != nil {
		return err
	}
	opts := Options{Log: stderr}
	if debug {
		opts.Debug = stderr
	}
	return Serve(ctx, file, exec, opts)
}

func mainInstall(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("kernel install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	user := fs.Bool("user", false, "install for the current user (the default)")
	prefix := fs.String("prefix", "", "install into `DIR`/share/jupyter/kernels/nimbook")
	binary := fs.String("binary", "", "the nimbook executable `PATH` the kernelspec starts (default: this program)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", ErrUsage, fs.Arg(0))
	}
	if *user && *prefix != "" {
		return fmt.Errorf("%w: --user and --prefix exclude each other", ErrUsage)
	}
	dir, err := Install(InstallOptions{Prefix: *prefix, Binary: *binary})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "installed kernelspec nimbook in %s\n", dir)
	return nil
}
