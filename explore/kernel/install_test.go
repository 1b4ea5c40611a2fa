package kernel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fakeBinary writes an executable file to stand for the nimbook command.
func fakeBinary(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bin", "nimbook")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInstall(t *testing.T) {
	bin := fakeBinary(t)
	dir := t.TempDir()
	tests := []struct {
		name string
		opts InstallOptions
		env  map[string]string
		want string
	}{
		{name: "prefix", opts: InstallOptions{Prefix: filepath.Join(dir, "usr")}, want: filepath.Join(dir, "usr/share/jupyter/kernels/nimbook")},
		{name: "JUPYTER_DATA_DIR", env: map[string]string{"JUPYTER_DATA_DIR": filepath.Join(dir, "data")}, want: filepath.Join(dir, "data/kernels/nimbook")},
		{name: "home", env: map[string]string{"JUPYTER_DATA_DIR": "", "HOME": filepath.Join(dir, "home")}, want: filepath.Join(dir, "home/.local/share/jupyter/kernels/nimbook")},
		{name: "prefix wins", opts: InstallOptions{Prefix: filepath.Join(dir, "p2")}, env: map[string]string{"JUPYTER_DATA_DIR": filepath.Join(dir, "data2")}, want: filepath.Join(dir, "p2/share/jupyter/kernels/nimbook")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			tc.opts.Binary = bin
			got, err := Install(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("Install = %s, want %s", got, tc.want)
			}
			b, err := os.ReadFile(filepath.Join(got, "kernel.json"))
			if err != nil {
				t.Fatal(err)
			}
			var spec map[string]any
			if err := json.Unmarshal(b, &spec); err != nil {
				t.Fatal(err)
			}
			argv, _ := json.Marshal(spec["argv"])
			if string(argv) != `["`+bin+`","kernel","--connection-file","{connection_file}"]` ||
				spec["display_name"] != "nimbook" || spec["language"] != "starlark" || spec["interrupt_mode"] != "message" {
				t.Errorf("kernel.json:\n%s", b)
			}
			entries, _ := os.ReadDir(got)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if strings.Join(names, " ") != "kernel.json logo-64x64.png" {
				t.Errorf("kernelspec files %v (temporary files left?)", names)
			}
			// Installing again replaces the files.
			if _, err := Install(tc.opts); err != nil {
				t.Errorf("second install: %v", err)
			}
		})
	}
}

func TestInstallErrors(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "plain")
	if err := os.WriteFile(notExec, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	blocked := filepath.Join(dir, "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := fakeBinary(t)
	tests := []struct {
		name string
		opts InstallOptions
		want string
	}{
		{name: "missing binary", opts: InstallOptions{Binary: filepath.Join(dir, "nope"), Prefix: dir}, want: "binary"},
		{name: "directory binary", opts: InstallOptions{Binary: dir, Prefix: dir}, want: "not an executable"},
		{name: "not executable", opts: InstallOptions{Binary: notExec, Prefix: dir}, want: "not an executable"},
		{name: "prefix is a file", opts: InstallOptions{Binary: bin, Prefix: blocked}, want: "install"},
	}
	if runtime.GOOS == "windows" {
		tests = tests[:2]
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Install(tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "kernel: ") {
				t.Errorf("error %v, want one about %q", err, tc.want)
			}
		})
	}
}

func TestInstallRefusesGoBuild(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	if !isGoBuildTemp(exe) {
		t.Skipf("test binary %s is not in a go-build directory (go test -c?)", exe)
	}
	_, err = Install(InstallOptions{Prefix: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "go build -o nimbook") {
		t.Errorf("error %v, want a refusal with a hint", err)
	}
}

func TestIsGoBuildTemp(t *testing.T) {
	for p, want := range map[string]bool{
		"/tmp/go-build2861541/b001/exe/nimbook":             true,
		"/home/u/.cache/tmp/go-build99/b001/kernel.test":    true,
		"/usr/local/bin/nimbook":                            false,
		"/home/u/go/bin/nimbook":                            false,
		"/home/u/src/go-builder/nimbook":                    true, // conservative: --binary overrides
		`C:\Users\u\AppData\Local\Temp\go-build1\exe\x.exe`: runtime.GOOS == "windows",
	} {
		if got := isGoBuildTemp(p); got != want {
			t.Errorf("isGoBuildTemp(%s) = %v, want %v", p, got, want)
		}
	}
}

func TestLogo(t *testing.T) {
	b := Logo(64)
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 64 || r.Dy() != 64 {
		t.Errorf("logo is %v", r)
	}
	if !bytes.Equal(b, Logo(64)) {
		t.Error("logo is not deterministic")
	}
}

func TestMainArgs(t *testing.T) {
	bin := fakeBinary(t)
	dir := t.TempDir()
	noExec := func() (Executor, error) { return nil, errors.New("must not be called") }
	tests := []struct {
		name  string
		args  []string
		usage bool   // error wraps ErrUsage
		err   string // error text, "" for success
		out   string // stdout contains
	}{
		{name: "help", args: []string{"--help"}, out: "usage:"},
		{name: "nothing", args: nil, usage: true, err: "no --connection-file"},
		{name: "stray argument", args: []string{"serve"}, usage: true, err: "unexpected argument"},
		{name: "file missing its value", args: []string{"--connection-file"}, usage: true, err: "needs a file name"},
		{name: "unreadable file", args: []string{"-f", filepath.Join(dir, "none.json"), "--ignored"}, err: "no such file"},
		{name: "install", args: []string{"install", "--prefix", dir, "--binary", bin}, out: "installed kernelspec nimbook in " + filepath.Join(dir, "share/jupyter/kernels/nimbook")},
		{name: "install user and prefix", args: []string{"install", "--user", "--prefix", dir}, usage: true, err: "exclude"},
		{name: "install bad flag", args: []string{"install", "--global"}, usage: true, err: "global"},
		{name: "install extra", args: []string{"install", "now"}, usage: true, err: "now"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := Main(context.Background(), tc.args, noExec, &stdout, &stderr)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one with %q", err, tc.err)
			}
			if errors.Is(err, ErrUsage) != tc.usage {
				t.Errorf("errors.Is(%v, ErrUsage) = %v", err, !tc.usage)
			}
			if !strings.Contains(stdout.String(), tc.out) {
				t.Errorf("stdout %q, want %q", stdout.String(), tc.out)
			}
		})
	}
}

func TestWatchParent(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil || runtime.GOOS == "windows" {
		t.Skip("needs sleep(1)")
	}
	cmd := exec.Command(sleep, "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gone := watchParent(ctx, cmd.Process.Pid, 5*time.Millisecond)
	select {
	case <-gone:
		t.Fatal("parent reported gone while alive")
	case <-time.After(50 * time.Millisecond):
	}
	cmd.Process.Kill()
	cmd.Wait() // reaped: no zombie left to look alive
	select {
	case <-gone:
	case <-time.After(60 * time.Second): // a hang guard only
		t.Fatal("parent death not noticed")
	}
}
