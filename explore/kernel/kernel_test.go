package kernel_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/kernel/internal/fakeexec"
)

// This file drives an in-process kernel with zmq4 client sockets and a framing
// written independently of the kernel's, so that both sides check each other.

type tmsg struct {
	Header       map[string]any
	ParentHeader map[string]any
	Content      map[string]any
}

func (m *tmsg) typ() string    { return fmt.Sprint(m.Header["msg_type"]) }
func (m *tmsg) parent() string { return fmt.Sprint(m.ParentHeader["msg_id"]) }

type client struct {
	t       testing.TB
	key     []byte
	session string
	ctx     context.Context
	socks   map[string]zmq4.Socket
	in      map[string]chan *tmsg
	hb      zmq4.Socket
	n       int
	date    string // header date of the requests sent; "" is now
}

// wait bounds every wait for a message: it only guards against a hang, so
// it is generous enough for a machine loaded many times over.
const wait = 60 * time.Second

// clients numbers the test clients: two clients of one test need sessions
// (and so message ids) of their own.
var clients atomic.Int64

// dial connects a client to every socket of the kernel described by info.
func dial(t testing.TB, info kernel.ConnectionInfo) *client {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c := &client{t: t, key: []byte(info.Key), session: fmt.Sprintf("client-%p-%d", t, clients.Add(1)), ctx: ctx,
		socks: map[string]zmq4.Socket{}, in: map[string]chan *tmsg{}}
	ep := func(port int) string {
		if info.Transport == "ipc" {
			return fmt.Sprintf("ipc://%s-%d", info.IP, port)
		}
		return fmt.Sprintf("tcp://%s:%d", info.IP, port)
	}
	id := zmq4.WithID(zmq4.SocketIdentity(c.session))
	for name, s := range map[string]struct {
		sock zmq4.Socket
		port int
	}{
		"shell":   {zmq4.NewDealer(ctx, id), info.ShellPort},
		"control": {zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity(c.session+"-control"))), info.ControlPort},
		"stdin":   {zmq4.NewDealer(ctx, id), info.StdinPort},
		"iopub":   {zmq4.NewSub(ctx), info.IOPubPort},
	} {
		if err := s.sock.Dial(ep(s.port)); err != nil {
			t.Fatalf("dial %s: %v", name, err)
		}
		if name == "iopub" {
			if err := s.sock.SetOption(zmq4.OptionSubscribe, ""); err != nil {
				t.Fatal(err)
			}
		}
		c.socks[name] = s.sock
		ch := make(chan *tmsg, 100)
		c.in[name] = ch
		go c.read(s.sock, ch)
		t.Cleanup(func() { s.sock.Close() })
	}
	c.hb = zmq4.NewReq(ctx)
	if err := c.hb.Dial(ep(info.HBPort)); err != nil {
		t.Fatalf("dial hb: %v", err)
	}
	t.Cleanup(func() { c.hb.Close() })
	return c
}

func (c *client) sign(frames ...[]byte) string { return signWith(c.key, frames...) }

// signWith is the protocol's signature, written apart from the kernel's.
func signWith(key []byte, frames ...[]byte) string {
	if len(key) == 0 {
		return "" // no key: messages are not signed
	}
	mac := hmac.New(sha256.New, key)
	for _, f := range frames {
		mac.Write(f)
	}
	return hex.EncodeToString(mac.Sum(nil))
}

func (c *client) read(s zmq4.Socket, ch chan *tmsg) {
	for {
		raw, err := s.Recv()
		if err != nil {
			return
		}
		f := raw.Frames
		i := 0
		for i < len(f) && string(f[i]) != "<IDS|MSG>" {
			i++
		}
		if len(f) < i+6 {
			c.t.Errorf("short message: %q", f)
			continue
		}
		if got, want := string(f[i+1]), c.sign(f[i+2:i+6]...); got != want {
			c.t.Errorf("reply signature %s, want %s", got, want)
		}
		var m tmsg
		for j, dst := range []any{&m.Header, &m.ParentHeader, &m.Content} {
			if err := json.Unmarshal(f[i+2+[]int{0, 1, 3}[j]], dst); err != nil {
				c.t.Errorf("bad JSON frame: %v", err)
			}
		}
		ch <- &m
	}
}

// sendKey sends a request signed with key on the named socket and returns its msg_id.
func (c *client) sendKey(key []byte, sock, msgType string, content any) string {
	c.t.Helper()
	c.n++
	id := fmt.Sprintf("%s-%d", c.session, c.n)
	hdr, _ := json.Marshal(map[string]any{"msg_id": id, "session": c.session, "username": "test",
		"date": c.sentAt(), "msg_type": msgType, "version": "5.3"})
	body, _ := json.Marshal(content)
	frames := [][]byte{hdr, []byte("{}"), []byte("{}"), body}
	sig := []byte(signWith(key, frames...))
	msg := zmq4.NewMsgFrom(append([][]byte{[]byte("<IDS|MSG>"), sig}, frames...)...)
	if err := c.socks[sock].Send(msg); err != nil {
		c.t.Fatalf("send %s: %v", msgType, err)
	}
	return id
}

// sentAt is the date of the next request's header: now, unless the test
// set c.date to pretend the request was sent earlier.
func (c *client) sentAt() string {
	if c.date != "" {
		return c.date
	}
	return time.Now().UTC().Format("2006-01-02T15:04:05.000000Z")
}

func (c *client) send(sock, msgType string, content any) string {
	c.t.Helper()
	return c.sendKey(c.key, sock, msgType, content)
}

// next returns the next message on sock, failing after a while.
func (c *client) next(sock string) *tmsg {
	c.t.Helper()
	select {
	case m := <-c.in[sock]:
		return m
	case <-time.After(wait):
		c.t.Fatalf("no message on %s after %v", sock, wait)
		return nil
	}
}

// reply waits for the reply to request id on sock.
func (c *client) reply(sock, id string) *tmsg {
	c.t.Helper()
	m := c.next(sock)
	if m.parent() != id {
		c.t.Fatalf("%s: got %s for %s, want the reply to %s", sock, m.typ(), m.parent(), id)
	}
	return m
}

// iopub returns the iopub messages of request id, from busy to idle.
func (c *client) iopub(id string) []*tmsg {
	c.t.Helper()
	var out []*tmsg
	for {
		m := c.next("iopub")
		if m.parent() != id {
			continue
		}
		out = append(out, m)
		if m.typ() == "status" && m.Content["execution_state"] == "idle" {
			return out
		}
	}
}

func types(ms []*tmsg) string {
	var s []string
	for _, m := range ms {
		t := m.typ()
		if t == "status" {
			t = fmt.Sprint(m.Content["execution_state"])
		}
		s = append(s, t)
	}
	return strings.Join(s, ",")
}

// start runs a kernel with the fake executor and returns a connected client and
// the channel that receives Run's result.
func start(t testing.TB, info kernel.ConnectionInfo) (*client, *kernel.Kernel, <-chan error) {
	t.Helper()
	return startWith(t, info, &fakeexec.Executor{}, kernel.Options{})
}

// startWith is start with another executor and options.
func startWith(t testing.TB, info kernel.ConnectionInfo, exec kernel.Executor, opts kernel.Options) (*client, *kernel.Kernel, <-chan error) {
	t.Helper()
	return startSetup(t, info, exec, opts, nil)
}

// startAt is start with the kernel reading the time from clk.
func startAt(t testing.TB, clk kernel.Clock, opts kernel.Options) (*client, *kernel.Kernel, <-chan error) {
	t.Helper()
	return startSetup(t, tcpInfo(), &fakeexec.Executor{}, opts, func(k *kernel.Kernel) { kernel.SetClock(k, clk) })
}

// startSetup is startWith calling setup, when not nil, before Run.
func startSetup(t testing.TB, info kernel.ConnectionInfo, exec kernel.Executor, opts kernel.Options, setup func(*kernel.Kernel)) (*client, *kernel.Kernel, <-chan error) {
	t.Helper()
	var logb syncBuffer
	opts.Log, opts.Debug = &logb, &logb
	k, err := kernel.NewKernel(info, exec, opts)
	if err != nil {
		t.Fatal(err)
	}
	if setup != nil {
		setup(k)
	}
	done := make(chan error, 1)
	finished := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- k.Run(ctx); close(finished) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-finished:
		case <-time.After(wait):
			t.Errorf("kernel did not stop")
		}
		if t.Failed() {
			t.Logf("kernel log:\n%s", logb.String())
		}
	})
	return dial(t, k.Info()), k, done
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func tcpInfo() kernel.ConnectionInfo {
	return kernel.ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", Key: "secret-key", SignatureScheme: "hmac-sha256"}
}

func execute(c *client, code string, extra map[string]any) (reply *tmsg, io []*tmsg) {
	c.t.Helper()
	content := map[string]any{"code": code, "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true}
	for k, v := range extra {
		content[k] = v
	}
	id := c.send("shell", "execute_request", content)
	r := c.reply("shell", id)
	return r, c.iopub(id)
}

func TestKernelInfo(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	id := c.send("shell", "kernel_info_request", map[string]any{})
	r := c.reply("shell", id)
	if r.typ() != "kernel_info_reply" || r.Content["protocol_version"] != "5.3" || r.Content["status"] != "ok" {
		t.Fatalf("reply %s %v", r.typ(), r.Content)
	}
	if li, _ := r.Content["language_info"].(map[string]any); li["name"] != "fake" {
		t.Errorf("language_info %v", r.Content["language_info"])
	}
	if got := types(c.iopub(id)); got != "busy,idle" {
		t.Errorf("iopub %s, want busy,idle", got)
	}
	// The same on control, answered on control.
	id = c.send("control", "kernel_info_request", map[string]any{})
	if r := c.reply("control", id); r.typ() != "kernel_info_reply" {
		t.Errorf("control reply %s", r.typ())
	}
	if got := types(c.iopub(id)); got != "busy,idle" {
		t.Errorf("control iopub %s", got)
	}
}

func TestExecute(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	tests := []struct {
		name, code string
		extra      map[string]any
		iopub      string
		status     string
		count      float64
		check      func(t *testing.T, io []*tmsg, r *tmsg)
	}{
		{name: "result", code: "print hi\nwarn careful\n1+2", iopub: "busy,execute_input,stream,stream,execute_result,idle", status: "ok", count: 1,
			check: func(t *testing.T, io []*tmsg, r *tmsg) {
				if io[2].Content["name"] != "stdout" || io[2].Content["text"] != "hi\n" || io[3].Content["name"] != "stderr" {
					t.Errorf("streams %v %v", io[2].Content, io[3].Content)
				}
				res := io[4].Content
				if res["execution_count"] != 1.0 || res["data"].(map[string]any)["text/plain"] != "3" {
					t.Errorf("execute_result %v", res)
				}
			}},
		{name: "display", code: "html x", iopub: "busy,execute_input,display_data,idle", status: "ok", count: 2,
			check: func(t *testing.T, io []*tmsg, r *tmsg) {
				if d := io[2].Content["data"].(map[string]any); d["text/html"] != "<b>x</b>" {
					t.Errorf("display_data %v", d)
				}
			}},
		{name: "error", code: "print before\nfail boom", iopub: "busy,execute_input,stream,error,idle", status: "error", count: 3,
			check: func(t *testing.T, io []*tmsg, r *tmsg) {
				e := io[3].Content
				if e["ename"] != "ValueError" || e["evalue"] != "boom" || r.Content["ename"] != "ValueError" {
					t.Errorf("error %v, reply %v", e, r.Content)
				}
				if tb, _ := e["traceback"].([]any); len(tb) != 1 || tb[0] != "ValueError: boom" {
					t.Errorf("traceback %v", e["traceback"])
				}
			}},
		{name: "plain error", code: "nonsense", iopub: "busy,execute_input,error,idle", status: "error", count: 4,
			check: func(t *testing.T, io []*tmsg, r *tmsg) {
				if e := io[2].Content; e["ename"] != "Error" || !strings.Contains(fmt.Sprint(e["evalue"]), "unknown command") {
					t.Errorf("error %v", e)
				}
			}},
		{name: "panic", code: "panic", iopub: "busy,execute_input,error,idle", status: "error", count: 5},
		{name: "silent", code: "print quiet\n1+1", extra: map[string]any{"silent": true}, iopub: "busy,idle", status: "ok", count: 5},
		{name: "no history", code: "1+1", extra: map[string]any{"store_history": false}, iopub: "busy,execute_input,execute_result,idle", status: "ok", count: 5},
		{name: "state kept", code: "cells", iopub: "busy,execute_input,execute_result,idle", status: "ok", count: 6,
			check: func(t *testing.T, io []*tmsg, r *tmsg) {
				if got := io[2].Content["data"].(map[string]any)["text/plain"]; got != "8" {
					t.Errorf("cells = %v, want 8", got)
				}
			}},
		{name: "input refused", code: "input name?", iopub: "busy,execute_input,error,idle", status: "error", count: 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, io := execute(c, tc.code, tc.extra)
			if got := types(io); got != tc.iopub {
				t.Fatalf("iopub %s, want %s", got, tc.iopub)
			}
			if r.typ() != "execute_reply" || r.Content["status"] != tc.status || r.Content["execution_count"] != tc.count {
				t.Errorf("reply %s %v, want status %s count %v", r.typ(), r.Content, tc.status, tc.count)
			}
			if tc.check != nil {
				tc.check(t, io, r)
			}
		})
	}
}

func TestInput(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	id := c.send("shell", "execute_request", map[string]any{"code": "input name?", "allow_stdin": true})
	req := c.next("stdin")
	if req.typ() != "input_request" || req.Content["prompt"] != "name?" || req.parent() != id {
		t.Fatalf("stdin: %s %v", req.typ(), req.Content)
	}
	c.send("stdin", "input_reply", map[string]any{"value": "bob"})
	if r := c.reply("shell", id); r.Content["status"] != "ok" {
		t.Fatalf("reply %v", r.Content)
	}
	io := c.iopub(id)
	if got := types(io); got != "busy,execute_input,stream,idle" || io[2].Content["text"] != "got bob\n" {
		t.Errorf("iopub %s %v", got, io[len(io)-2].Content)
	}
}

func TestIntrospection(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	// "é" is two bytes and one code point: offsets are code points on the wire.
	id := c.send("shell", "complete_request", map[string]any{"code": "é pr", "cursor_pos": 4})
	r := c.reply("shell", id)
	if m, _ := r.Content["matches"].([]any); len(m) != 1 || m[0] != "print" ||
		r.Content["cursor_start"] != 2.0 || r.Content["cursor_end"] != 4.0 {
		t.Errorf("complete_reply %v", r.Content)
	}
	c.iopub(id)

	id = c.send("shell", "inspect_request", map[string]any{"code": "é sleep 1", "cursor_pos": 4, "detail_level": 0})
	r = c.reply("shell", id)
	if r.Content["found"] != true || r.Content["data"].(map[string]any)["text/plain"] != "sleep: a fakeexec command" {
		t.Errorf("inspect_reply %v", r.Content)
	}
	c.iopub(id)

	for code, want := range map[string]string{"print a": "complete", "print a\\": "incomplete"} {
		id = c.send("shell", "is_complete_request", map[string]any{"code": code})
		if r := c.reply("shell", id); r.Content["status"] != want {
			t.Errorf("is_complete(%q) = %v, want %s", code, r.Content, want)
		}
		c.iopub(id)
	}
	for req, key := range map[string]string{"comm_info_request": "comms", "history_request": "history"} {
		id = c.send("shell", req, map[string]any{"hist_access_type": "tail", "n": 10})
		if r := c.reply("shell", id); r.Content["status"] != "ok" || r.Content[key] == nil {
			t.Errorf("%s: %v", req, r.Content)
		}
		c.iopub(id)
	}
}

func TestBadSignatureIgnored(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	bad := c.sendKey([]byte("wrong key"), "shell", "kernel_info_request", map[string]any{})
	good := c.send("shell", "kernel_info_request", map[string]any{})
	if r := c.next("shell"); r.parent() != good {
		t.Fatalf("got a reply to %s, want only the reply to %s (bad one was %s)", r.parent(), good, bad)
	}
	// Nothing at all about the bad request, on any socket.
	for _, m := range c.iopub(good) {
		if m.parent() == bad {
			t.Errorf("iopub answered the badly signed request")
		}
	}
	select {
	case m := <-c.in["shell"]:
		t.Errorf("unexpected %s for %s", m.typ(), m.parent())
	case <-time.After(200 * time.Millisecond):
	}
}

func TestInterrupt(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	id := c.send("shell", "execute_request", map[string]any{"code": "block"})
	for m := c.next("iopub"); m.typ() != "execute_input"; m = c.next("iopub") {
	}
	start := time.Now()
	iid := c.send("control", "interrupt_request", map[string]any{})
	if r := c.reply("control", iid); r.typ() != "interrupt_reply" || r.Content["status"] != "ok" {
		t.Fatalf("interrupt reply %s %v", r.typ(), r.Content)
	}
	r := c.reply("shell", id)
	if r.Content["status"] != "error" || r.Content["ename"] != "KeyboardInterrupt" {
		t.Errorf("interrupted cell reply %v", r.Content)
	}
	t.Logf("cell stopped %v after the interrupt", time.Since(start))
	// The session survives.
	r2, io := execute(c, "cells", nil)
	if r2.Content["status"] != "ok" || io[2].Content["data"].(map[string]any)["text/plain"] != "2" {
		t.Errorf("after interrupt: %v %v", r2.Content, types(io))
	}
}

func TestShutdown(t *testing.T) {
	for _, sock := range []string{"control", "shell"} {
		t.Run(sock, func(t *testing.T) {
			c, _, done := start(t, tcpInfo())
			id := c.send(sock, "shutdown_request", map[string]any{"restart": true})
			r := c.reply(sock, id)
			if r.typ() != "shutdown_reply" || r.Content["restart"] != true || r.Content["status"] != "ok" {
				t.Errorf("reply %s %v", r.typ(), r.Content)
			}
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run = %v, want nil after shutdown", err)
				}
			case <-time.After(wait):
				t.Fatal("kernel still running after shutdown")
			}
		})
	}
}

func TestHeartbeat(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	for _, ping := range []string{"ping", "pong"} {
		if err := c.hb.Send(zmq4.NewMsgString(ping)); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() {
			m, err := c.hb.Recv()
			if err == nil {
				got <- string(m.Bytes())
			}
		}()
		select {
		case s := <-got:
			if s != ping {
				t.Errorf("heartbeat echoed %q, want %q", s, ping)
			}
		case <-time.After(wait):
			t.Fatal("no heartbeat echo")
		}
	}
}

func TestIPC(t *testing.T) {
	info := kernel.ConnectionInfo{Transport: "ipc", IP: filepath.Join(t.TempDir(), "k"), Key: "k",
		ShellPort: 1, ControlPort: 2, StdinPort: 3, IOPubPort: 4, HBPort: 5}
	c, _, _ := start(t, info)
	r, io := execute(c, "20+22", nil)
	if r.Content["status"] != "ok" || types(io) != "busy,execute_input,execute_result,idle" {
		t.Errorf("ipc execute: %v %s", r.Content, types(io))
	}
}

func TestUnsignedKernel(t *testing.T) {
	// An empty key turns signing off: signatures are empty and not checked.
	info := tcpInfo()
	info.Key = ""
	k, err := kernel.NewKernel(info, &fakeexec.Executor{}, kernel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- k.Run(ctx) }()
	defer func() { cancel(); <-done }()
	c := dial(t, k.Info())
	id := c.send("shell", "kernel_info_request", map[string]any{})
	if r := c.reply("shell", id); r.typ() != "kernel_info_reply" {
		t.Errorf("reply %s", r.typ())
	}
}

// freePorts returns n tcp ports free a moment ago on 127.0.0.1.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// connectionFile writes a connection file for free loopback ports.
func connectionFile(t *testing.T) (kernel.ConnectionInfo, string) {
	t.Helper()
	p := freePorts(t, 5)
	info := kernel.ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", Key: "k", SignatureScheme: "hmac-sha256",
		ShellPort: p[0], ControlPort: p[1], StdinPort: p[2], IOPubPort: p[3], HBPort: p[4]}
	b, _ := json.Marshal(info)
	file := filepath.Join(t.TempDir(), "kernel-x.json")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return info, file
}

// TestMainServe starts the kernel the way Jupyter does, with arguments after
// the connection file that must be ignored. Standard error stays empty
// unless --debug or NIMBOOK_KERNEL_DEBUG=1 asks for the kernel's log.
func TestMainServe(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		env   string
		debug bool
	}{
		{name: "quiet", args: []string{"--connection-file", "FILE", "--extra", "ignored"}},
		{name: "--debug", args: []string{"--debug", "--connection-file", "FILE"}, debug: true},
		{name: "-f and the environment", args: []string{"-f", "FILE"}, env: "1", debug: true},
		{name: "environment not 1", args: []string{"-f", "FILE"}, env: "yes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(kernel.DebugEnv, tc.env)
			info, file := connectionFile(t)
			args := append([]string(nil), tc.args...)
			for i, a := range args {
				if a == "FILE" {
					args[i] = file
				}
			}
			done := make(chan error, 1)
			var logb syncBuffer
			go func() {
				done <- kernel.Main(context.Background(), args,
					func() (kernel.Executor, error) { return &fakeexec.Executor{}, nil }, io.Discard, &logb)
			}()
			c := dial(t, info)
			id := c.send("shell", "kernel_info_request", map[string]any{})
			if r := c.reply("shell", id); r.typ() != "kernel_info_reply" {
				t.Errorf("reply %s", r.typ())
			}
			id = c.send("control", "shutdown_request", map[string]any{"restart": false})
			c.reply("control", id)
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Main = %v", err)
				}
			case <-time.After(wait):
				t.Fatalf("Main did not return after shutdown; log:\n%s", logb.String())
			}
			log := logb.String()
			if got := strings.Contains(log, "listening: transport tcp") && strings.Contains(log, "shutdown requested"); got != tc.debug {
				t.Errorf("standard error:\n%s\nwant the kernel's log: %v", log, tc.debug)
			}
			if !tc.debug && log != "" {
				t.Errorf("standard error of a quiet kernel:\n%s", log)
			}
		})
	}
}

func TestNewKernelErrors(t *testing.T) {
	tests := []struct {
		name string
		info kernel.ConnectionInfo
		exec kernel.Executor
		want string
	}{
		{name: "nil executor", info: tcpInfo(), want: "nil Executor"},
		{name: "bad transport", info: kernel.ConnectionInfo{Transport: "udp", IP: "127.0.0.1"}, exec: &fakeexec.Executor{}, want: "transport"},
		{name: "bad address", info: kernel.ConnectionInfo{IP: "203.0.113.1", Key: "k"}, exec: &fakeexec.Executor{}, want: "shell socket"},
		{name: "open address without key", info: kernel.ConnectionInfo{IP: "0.0.0.0"}, exec: &fakeexec.Executor{}, want: "key is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k, err := kernel.NewKernel(tc.info, tc.exec, kernel.Options{})
			if err == nil {
				k.Close()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one about %q", err, tc.want)
			}
		})
	}
}
