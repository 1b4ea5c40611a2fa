package kernel_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/kernel/internal/fakeexec"
)

// zmtpDial opens a raw ZMTP 3.0 connection as a DEALER, handshake done, so
// that a test can send frame headers no ZeroMQ library would.
func zmtpDial(t testing.TB, port int) net.Conn {
	t.Helper()
	c, err := zmtpTry(port)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func zmtpTry(port int) (net.Conn, error) {
	c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, err
	}
	g := make([]byte, 64)
	g[0], g[9], g[10] = 0xFF, 0x7F, 3
	copy(g[12:], "NULL")
	ready := []byte("\x05READY\x0bSocket-Type\x00\x00\x00\x06DEALER")
	if _, err := c.Write(append(g, append([]byte{0x04, byte(len(ready))}, ready...)...)); err != nil {
		c.Close()
		return nil, err
	}
	// The kernel's greeting and READY command.
	c.SetReadDeadline(time.Now().Add(wait))
	var hdr [64 + 2]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		c.Close()
		return nil, fmt.Errorf("handshake: %w", err)
	}
	if _, err := io.ReadFull(c, make([]byte, hdr[65])); err != nil {
		c.Close()
		return nil, fmt.Errorf("handshake: %w", err)
	}
	c.SetReadDeadline(time.Time{})
	return c, nil
}

// sendHuge announces a frame of size bytes and tries to send it, zeros.
func sendHuge(c net.Conn, size uint64) error {
	h := make([]byte, 9)
	h[0] = 0x02
	binary.BigEndian.PutUint64(h[1:], size)
	if _, err := c.Write(h); err != nil {
		return err
	}
	chunk := make([]byte, 1<<20)
	for sent := uint64(0); sent < size; sent += uint64(len(chunk)) {
		c.SetWriteDeadline(time.Now().Add(wait))
		if _, err := c.Write(chunk); err != nil {
			return err
		}
	}
	return nil
}

// TestHugeFramesDropped sends three unsigned 1 GiB frames, each on its own
// connection: the kernel must close each at the header, allocate almost
// nothing, and go on serving.
func TestHugeFramesDropped(t *testing.T) {
	c, k, _ := start(t, tcpInfo())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range 3 {
		conn := zmtpDial(t, k.Info().ShellPort)
		if err := sendHuge(conn, 1<<30); err == nil {
			t.Fatalf("frame %d: the kernel read a 1 GiB frame to the end", i)
		}
	}
	runtime.ReadMemStats(&after)
	// The kernel runs in this process: all of it allocated less than 64 MiB
	// (zmq4 alone allocated each frame's 1 GiB at its header before).
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Errorf("allocated %d MiB while receiving three 1 GiB frames", got>>20)
	}
	t.Logf("allocated %.1f MiB in all while receiving three 1 GiB frames", float64(after.TotalAlloc-before.TotalAlloc)/(1<<20))
	id := c.send("shell", "kernel_info_request", map[string]any{})
	if r := c.reply("shell", id); r.typ() != "kernel_info_reply" {
		t.Errorf("after the frames: %s", r.typ())
	}
}

// TestLargeMessageAnswered sends signed requests over the limit in frames
// each under it, and in one frame: each gets an error reply naming the
// limit, on a connection that stays up, so that the requests sent after
// it (before the reply) are answered too, in order.
func TestLargeMessageAnswered(t *testing.T) {
	// Each case's requests are one burst, dated a minute after the last:
	// on the test's clock, the cell queued behind a refused one is aborted
	// however late a loaded machine delivers it.
	c, _, _ := startAt(t, newKernelClock(), kernel.Options{MaxMessage: 64 << 10})
	pad := strings.Repeat("1", 40<<10) // each string fits, the message does not
	huge := strings.Repeat("2", 1<<20)
	tests := []struct {
		name, sock, req string
		content         map[string]any
	}{
		{"execute in frames under the limit", "shell", "execute_request", map[string]any{"code": "1+1", "padding": pad, "more": pad}},
		{"execute of 1 MiB", "shell", "execute_request", map[string]any{"code": huge}},
		{"complete", "shell", "complete_request", map[string]any{"code": huge, "cursor_pos": 3}},
		{"inspect", "shell", "inspect_request", map[string]any{"code": huge, "cursor_pos": 3}},
		{"is_complete", "shell", "is_complete_request", map[string]any{"code": huge}},
		{"history", "shell", "history_request", map[string]any{"pattern": huge}},
		{"kernel_info on control", "control", "kernel_info_request", map[string]any{"padding": huge}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			c.date = stamp(clientStart.Add(time.Duration(i) * time.Minute))
			id := c.send(tc.sock, tc.req, tc.content)
			next := c.send(tc.sock, "kernel_info_request", map[string]any{}) // sent before the reply
			var queued string
			if tc.req == "execute_request" {
				// A cell queued behind is aborted, as behind any failing cell.
				queued = c.send(tc.sock, "execute_request", map[string]any{"code": "1+1"})
			}
			r := c.reply(tc.sock, id)
			want := strings.TrimSuffix(tc.req, "_request") + "_reply"
			if r.typ() != want || r.Content["status"] != "error" || r.Content["ename"] != "MessageTooLarge" ||
				!strings.Contains(fmt.Sprint(r.Content["evalue"]), "limit of 64 KiB") {
				t.Errorf("reply %s %v, want an error %s naming the limit", r.typ(), r.Content, want)
			}
			io := c.iopub(id)
			wantIO := "busy,idle"
			if tc.req == "execute_request" {
				wantIO = "busy,error,idle"
				if _, ok := r.Content["execution_count"]; !ok {
					t.Errorf("execute_reply without execution_count: %v", r.Content)
				}
			}
			if got := types(io); got != wantIO {
				t.Errorf("iopub %s, want %s", got, wantIO)
			}
			if r := c.reply(tc.sock, next); r.typ() != "kernel_info_reply" {
				t.Errorf("the request after: %s", r.typ())
			}
			if queued != "" {
				if r := c.reply(tc.sock, queued); r.Content["status"] != "aborted" {
					t.Errorf("the cell queued after: %v, want aborted", r.Content)
				}
			}
		})
	}
	c.t = t
	c.date = stamp(clientStart.Add(time.Hour))
	if r, _ := execute(c, "20+22", nil); r.Content["status"] != "ok" {
		t.Errorf("a cell after: %v", r.Content)
	}
}

// TestLargeMessageUnsigned: a request over the limit whose signature does
// not verify is dropped unanswered, as any such message, and the kernel
// goes on.
func TestLargeMessageUnsigned(t *testing.T) {
	c, _, _ := startWith(t, tcpInfo(), &fakeexec.Executor{}, kernel.Options{MaxMessage: 64 << 10})
	bad := c.sendKey([]byte("not the key"), "shell", "execute_request", map[string]any{"code": strings.Repeat("1", 1<<20)})
	id := c.send("shell", "kernel_info_request", map[string]any{})
	if r := c.next("shell"); r.parent() != id {
		t.Errorf("got %s to %s, want the reply to %s only (not to the bad %s)", r.typ(), r.parent(), id, bad)
	}
}

// TestControlServesOnlyControl sends an execute_request on control while a
// cell runs: it is refused at once, and an interrupt still lands.
func TestControlServesOnlyControl(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	id := c.send("shell", "execute_request", map[string]any{"code": "block"})
	for m := c.next("iopub"); m.typ() != "execute_input"; m = c.next("iopub") {
	}
	for _, req := range []string{"execute_request", "complete_request", "debug_request"} {
		cid := c.send("control", req, map[string]any{"code": "1+1", "cursor_pos": 0})
		r := c.reply("control", cid)
		if want := strings.TrimSuffix(req, "_request") + "_reply"; r.typ() != want || r.Content["status"] != "error" ||
			!strings.Contains(fmt.Sprint(r.Content["evalue"]), "shell socket") {
			t.Errorf("%s on control: %s %v, want an error %s", req, r.typ(), r.Content, want)
		}
	}
	// The cell blocks until interrupted: its KeyboardInterrupt is the
	// proof that the interrupt landed (how soon is TestInterrupt's log,
	// and the end-to-end tests').
	t0 := time.Now()
	iid := c.send("control", "interrupt_request", map[string]any{})
	if r := c.reply("control", iid); r.typ() != "interrupt_reply" {
		t.Fatalf("interrupt: %s", r.typ())
	}
	if r := c.reply("shell", id); r.Content["ename"] != "KeyboardInterrupt" {
		t.Errorf("cell: %v", r.Content)
	}
	t.Logf("interrupt landed %v after the control execute_request was refused", time.Since(t0))
}

// streams returns the text of the stream messages of a cell and their count.
func streams(io []*tmsg) (text string, n int) {
	var b strings.Builder
	for _, m := range io {
		if m.typ() == "stream" {
			b.WriteString(fmt.Sprint(m.Content["text"]))
			n++
		}
	}
	return b.String(), n
}

func TestStreamCoalesced(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	const prints = 200000
	r, io := execute(c, fmt.Sprintf("lines %d", prints), nil)
	if r.Content["status"] != "ok" {
		t.Fatalf("reply %v", r.Content)
	}
	text, n := streams(io)
	var want strings.Builder
	for i := range prints {
		fmt.Fprintf(&want, "line %d\n", i)
	}
	if text != want.String() {
		t.Errorf("the text of %d prints came out changed (%d bytes, want %d)", prints, len(text), want.Len())
	}
	// 2.3 MB in pieces of 64 KiB, or one every 50 ms.
	if n > 100 {
		t.Errorf("%d prints became %d stream messages", prints, n)
	}
	t.Logf("%d prints: %d iopub messages in all, %d of them stream", prints, len(io), n)
}

func TestOutputCapped(t *testing.T) {
	c, _, _ := startWith(t, tcpInfo(), &fakeexec.Executor{}, kernel.Options{MaxOutput: 1000})
	tests := []struct {
		name, code string
		shown      string // stdout text shown
		note       string
	}{
		{name: "one huge print", code: "big 300000", shown: strings.Repeat("x", 1000), note: "at most 1000 B"},
		{name: "many prints", code: "lines 1000", shown: "line 0\nline 1\n", note: "output truncated"},
		{name: "display too large", code: "print a\nhtml " + strings.Repeat("y", 2000) + "\nprint b", shown: "a\n", note: "a display of"},
		{name: "result too large", code: "print a\ntext 2000", shown: "a\n", note: "the result of"},
		{name: "under the limit", code: "print small\nhtml small", shown: "small\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, io := execute(c, tc.code, nil)
			if r.Content["status"] != "ok" {
				t.Fatalf("reply %v", r.Content)
			}
			var out, note string
			size := 0
			for _, m := range io {
				switch m.typ() {
				case "stream":
					if m.Content["name"] == "stderr" {
						note += fmt.Sprint(m.Content["text"])
					} else {
						out += fmt.Sprint(m.Content["text"])
					}
				case "display_data", "execute_result":
					size += len(fmt.Sprint(m.Content["data"]))
				}
			}
			if !strings.HasPrefix(out, tc.shown) || len(out)+size > 1000 {
				t.Errorf("stdout %d bytes %.40q…, displays %d bytes; want at most 1000 starting %.40q", len(out), out, size, tc.shown)
			}
			if tc.note == "" && note != "" || !strings.Contains(note, tc.note) {
				t.Errorf("note %q, want one about %q", note, tc.note)
			}
		})
	}
}

func TestMalformedRequests(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	tests := []struct {
		msgType string
		content any
		want    string
	}{
		{"execute_request", map[string]any{"code": 42}, `"code" must be a string, not a number`},
		{"execute_request", map[string]any{"silent": false}, `"code" is missing`},
		{"execute_request", map[string]any{"code": "1+1", "silent": "no"}, `"silent" must be true or false, not a string`},
		{"execute_request", []int{1}, "must be a JSON object, not an array"},
		{"complete_request", map[string]any{"code": "pr", "cursor_pos": -1}, `"cursor_pos" must be a whole number`},
		{"inspect_request", map[string]any{"code": []string{}}, `"code" must be a string, not an array`},
		{"is_complete_request", map[string]any{}, `"code" is missing`},
	}
	for _, tc := range tests {
		t.Run(tc.msgType, func(t *testing.T) {
			id := c.send("shell", tc.msgType, tc.content)
			r := c.reply("shell", id)
			if r.Content["status"] != "error" || r.Content["ename"] != "BadRequest" || !strings.Contains(fmt.Sprint(r.Content["evalue"]), tc.want) {
				t.Errorf("%s %v: reply %v, want an error about %q", tc.msgType, tc.content, r.Content, tc.want)
			}
			if got := fmt.Sprint(r.Content["evalue"]); strings.Contains(got, "Go ") || strings.Contains(got, "json:") {
				t.Errorf("message shows Go internals: %s", got)
			}
			c.iopub(id)
		})
	}
	// The session goes on, and the bad request counted no cell.
	r, _ := execute(c, "cells", nil)
	if r.Content["status"] != "ok" || r.Content["execution_count"] != 1.0 {
		t.Errorf("next cell: %v", r.Content)
	}
}

// TestAbortAfterError queues three cells; the first fails: the two others are
// answered "aborted" without running, and later cells run again.
func TestAbortAfterError(t *testing.T) {
	for _, stop := range []bool{true, false} {
		t.Run(fmt.Sprint("stop_on_error=", stop), func(t *testing.T) {
			// Sent in one burst, dated as such: on the test's clock, the
			// two behind are aborted however late a loaded machine
			// delivers them.
			c, _, _ := startAt(t, newKernelClock(), kernel.Options{})
			c.date = stamp(clientStart)
			var ids []string
			for _, code := range []string{"sleep 0.2\nfail boom", "print queued", "1+1"} {
				ids = append(ids, c.send("shell", "execute_request", map[string]any{"code": code, "stop_on_error": stop}))
			}
			want := []string{"error", "aborted", "aborted"}
			wantIO := []string{"busy,execute_input,error,idle", "busy,idle", "busy,idle"}
			if !stop {
				want = []string{"error", "ok", "ok"}
				wantIO = []string{"busy,execute_input,error,idle", "busy,execute_input,stream,idle", "busy,execute_input,execute_result,idle"}
			}
			for i, id := range ids {
				r := c.reply("shell", id)
				if r.Content["status"] != want[i] {
					t.Errorf("cell %d: %v, want status %s", i, r.Content, want[i])
				}
			}
			for i, id := range ids {
				if got := types(c.iopub(id)); got != wantIO[i] {
					t.Errorf("cell %d iopub %s, want %s", i, got, wantIO[i])
				}
			}
			c.date = stamp(clientStart.Add(time.Minute)) // once the error was seen
			r, _ := execute(c, "cells", nil)
			if r.Content["status"] != "ok" {
				t.Errorf("cell after: %v", r.Content)
			}
		})
	}
}

// TestAbortLateArrival: Run All's requests can reach the kernel after a
// quick cell failed; those sent before the failure are aborted all the same,
// those sent after it run, and past the grace every request runs. The
// kernel's clock is the test's: only the order of events counts.
func TestAbortLateArrival(t *testing.T) {
	clk := newKernelClock()
	c, _, _ := startAt(t, clk, kernel.Options{})
	sent := clientStart.Add(time.Second) // the failing cell's date
	c.date = stamp(sent)
	r, _ := execute(c, "fail boom", nil)
	if r.Content["status"] != "error" {
		t.Fatalf("failing cell: %v", r.Content)
	}
	c.date = stamp(sent.Add(-time.Millisecond)) // sent with the failing cell, arrived after it failed
	id := c.send("shell", "execute_request", map[string]any{"code": "print late", "stop_on_error": true})
	if r := c.reply("shell", id); r.Content["status"] != "aborted" {
		t.Errorf("request sent before the failure: %v, want aborted", r.Content)
	}
	c.iopub(id)
	c.date = stamp(sent.Add(time.Second)) // sent once the error was seen
	if r, _ := execute(c, "1+1", nil); r.Content["status"] != "ok" {
		t.Errorf("request sent after the failure: %v, want ok", r.Content)
	}
	// Past the grace, a request runs whatever its date.
	clk.advance(kernel.AbortGrace + time.Millisecond)
	c.date = stamp(sent.Add(-time.Millisecond))
	if r, _ := execute(c, "1+1", nil); r.Content["status"] != "ok" {
		t.Errorf("request dated before the failure, arriving past the grace: %v, want ok", r.Content)
	}
}

// TestAbortBurst: Run All's next request reaches the kernel a few
// milliseconds after a quick cell failed, with a date after the failure (CI,
// 2026-11-24: the page took 2 ms to start the third cell, the kernel failed
// the second in 0.3 ms). It was sent before the client could see the error,
// so it is aborted; the error reply waits for the burst to end. The test
// holds the kernel in that wait until the request has arrived, and dates it
// late enough that only the wait can abort it.
func TestAbortBurst(t *testing.T) {
	clk := newKernelClock()
	c, _, _ := startAt(t, clk, kernel.Options{})
	sent := clientStart.Add(time.Second)
	c.date = stamp(sent)
	execute(c, "1+1", nil) // the first cell starts the interpreter: this one fails at once
	asleep, release := clk.holdNextSleep()
	defer release()
	failing := c.send("shell", "execute_request", map[string]any{"code": "fail boom", "stop_on_error": true})
	select {
	case <-asleep: // the cell failed; the kernel waits for the end of the burst
	case <-time.After(wait):
		t.Fatal("the failing cell did not make the kernel wait for the burst")
	}
	reads := clk.reads()
	c.date = stamp(sent.Add(time.Minute)) // a date that alone would let it run
	late := c.send("shell", "execute_request", map[string]any{"code": "print late", "stop_on_error": true})
	clk.waitReads(t, reads) // the inbox stamped its arrival
	release()
	if r := c.reply("shell", failing); r.Content["status"] != "error" {
		t.Fatalf("failing cell: %v", r.Content)
	}
	if r := c.reply("shell", late); r.Content["status"] != "aborted" {
		t.Errorf("request of the same burst: %v, want aborted", r.Content)
	}
	c.date = stamp(sent.Add(2 * time.Minute))
	if r, _ := execute(c, "1+1", nil); r.Content["status"] != "ok" {
		t.Errorf("request sent after the error was seen: %v, want ok", r.Content)
	}
}

// TestAbortClockAhead: a browser's clock can run a few milliseconds ahead of
// the kernel's, and its dates are whole milliseconds, so Run All's cells all
// carry one date later than the kernel's time of the failure. The cell that
// arrives after the failure is aborted all the same: its date is compared
// with the failing request's, never with the kernel's clock (CI, 2026-11-24:
// a third cell sent at .669 ran after a failure at .668746).
func TestAbortClockAhead(t *testing.T) {
	clk := newKernelClock()
	c, _, _ := startAt(t, clk, kernel.Options{})
	browser := clientStart.Add(50 * time.Millisecond) // the kernel's clock fails the cell before that
	c.date = stampMS(browser)
	r, _ := execute(c, "fail boom", nil)
	if r.Content["status"] != "error" {
		t.Fatalf("failing cell: %v", r.Content)
	}
	id := c.send("shell", "execute_request", map[string]any{"code": "print late", "stop_on_error": true})
	if r := c.reply("shell", id); r.Content["status"] != "aborted" {
		t.Errorf("request sent with the failing cell: %v, want aborted", r.Content)
	}
	c.iopub(id)
	// A request sent once the error was seen runs: a person, or a program
	// reading the reply through the Notebook server, takes longer than the
	// dates' millisecond.
	c.date = stampMS(browser.Add(time.Second))
	if r, _ := execute(c, "1+1", nil); r.Content["status"] != "ok" {
		t.Errorf("request sent after the error was seen: %v, want ok", r.Content)
	}
}

func TestCommOpenClosed(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	id := c.send("shell", "comm_open", map[string]any{"comm_id": "c-1", "target_name": "jupyter.widget", "data": map[string]any{}})
	io := c.iopub(id)
	if got := types(io); got != "busy,comm_close,idle" || io[1].Content["comm_id"] != "c-1" {
		t.Errorf("iopub %s %v, want comm_close of c-1", got, io)
	}
}

func TestStatusStarting(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	m := c.next("iopub")
	if m.typ() != "status" || m.Content["execution_state"] != "starting" || len(m.ParentHeader) != 0 {
		t.Errorf("first iopub message %s %v (parent %v), want status starting", m.typ(), m.Content, m.ParentHeader)
	}
}

func TestKernelInfoVersion(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	id := c.send("shell", "kernel_info_request", map[string]any{})
	r := c.reply("shell", id)
	if v := fmt.Sprint(r.Content["implementation_version"]); v == "" || v == "0" {
		t.Errorf("implementation_version %q", v)
	}
	c2, _, _ := startWith(t, tcpInfo(), &fakeexec.Executor{}, kernel.Options{Version: "1.2.3"})
	id = c2.send("shell", "kernel_info_request", map[string]any{})
	if r := c2.reply("shell", id); r.Content["implementation_version"] != "1.2.3" {
		t.Errorf("implementation_version %v, want 1.2.3", r.Content["implementation_version"])
	}
}

// payloads returns the payload list of an execute reply.
func payloads(r *tmsg) []map[string]any {
	var out []map[string]any
	ps, _ := r.Content["payload"].([]any)
	for _, p := range ps {
		m, _ := p.(map[string]any)
		out = append(out, m)
	}
	return out
}

func TestHelp(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	for _, code := range []string{"print?", "??print", " sleep?? "} {
		r, io := execute(c, code, nil)
		p := payloads(r)
		if r.Content["status"] != "ok" || len(p) != 1 || p[0]["source"] != "page" ||
			!strings.HasSuffix(fmt.Sprint(p[0]["data"].(map[string]any)["text/plain"]), "a fakeexec command") {
			t.Errorf("%q: reply %v", code, r.Content)
		}
		if got := types(io); got != "busy,execute_input,idle" {
			t.Errorf("%q: iopub %s", code, got)
		}
	}
	r, io := execute(c, "nosuch?", nil)
	if text, _ := streams(io); r.Content["status"] != "ok" || len(payloads(r)) != 0 || text != "Object `nosuch` not found.\n" {
		t.Errorf("unknown name: %v, output %q", r.Content, text)
	}
}

// helper is an Executor with its own help and exit words.
type helper struct{ fakeexec.Executor }

func (h *helper) Help(code string) (string, bool) {
	return "help about " + code, strings.HasPrefix(code, "help ")
}
func (h *helper) IsExit(code string) bool { return code == "bye" }

func TestExit(t *testing.T) {
	tests := []struct {
		name, code string
		exec       kernel.Executor
	}{
		{"exit", "exit", &fakeexec.Executor{}},
		{"quit()", "quit()", &fakeexec.Executor{}},
		{"Helper", "bye", &helper{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, _, done := startWith(t, tcpInfo(), tc.exec, kernel.Options{})
			r, _ := execute(c, tc.code, nil)
			p := payloads(r)
			if r.Content["status"] != "ok" || len(p) != 1 || p[0]["source"] != "ask_exit" || p[0]["keepkernel"] != false {
				t.Errorf("reply %v, want an ask_exit payload", r.Content)
			}
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run = %v after exit", err)
				}
			case <-time.After(wait):
				t.Fatal("kernel still running after exit")
			}
		})
	}
	t.Run("Helper help", func(t *testing.T) {
		c, _, _ := startWith(t, tcpInfo(), &helper{}, kernel.Options{})
		r, _ := execute(c, "help me", nil)
		if p := payloads(r); len(p) != 1 || p[0]["data"].(map[string]any)["text/plain"] != "help about help me" {
			t.Errorf("reply %v", r.Content)
		}
		if r, _ := execute(c, "exit", nil); r.Content["status"] != "error" {
			t.Errorf("exit with a Helper that does not take it: %v", r.Content)
		}
	})
}

// TestConnectionLimit opens connections to the shell socket until one is
// refused: a socket takes 32, the client's included.
func TestConnectionLimit(t *testing.T) {
	c, k, _ := start(t, tcpInfo())
	var conns []net.Conn
	for range 31 {
		conns = append(conns, zmtpDial(t, k.Info().ShellPort))
	}
	extra, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", k.Info().ShellPort))
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	// Unanswered for a while (a refusal is silent: how long to wait is a
	// guess that can only let a fault through, never fail a sound kernel).
	extra.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := extra.Read(make([]byte, 64)); err == nil {
		t.Errorf("connection 33 was served (read %d bytes)", n)
	}
	conns[0].Close()
	// Once the kernel has seen that one close, a slot is free again.
	for deadline := time.Now().Add(wait); ; {
		c, err := zmtpTry(k.Info().ShellPort)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no slot after a connection closed: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	id := c.send("shell", "kernel_info_request", map[string]any{})
	if r := c.reply("shell", id); r.typ() != "kernel_info_reply" {
		t.Errorf("reply %s", r.typ())
	}
}

// TestOpenAddressWarned: an address other machines may reach is served with
// a key, and logged as a warning (here the bind then fails: the address is
// not this machine's).
func TestOpenAddressWarned(t *testing.T) {
	var logb syncBuffer
	k, err := kernel.NewKernel(kernel.ConnectionInfo{IP: "203.0.113.1", Key: "k"}, &fakeexec.Executor{}, kernel.Options{Log: &logb})
	if err == nil {
		k.Close()
	}
	if !strings.Contains(logb.String(), "warning: listening on 203.0.113.1, which other machines may reach") {
		t.Errorf("log %q, want a warning", logb.String())
	}
}

// stepper is an Executor whose "steps" cell counts three steps on the
// context's progress, each once the test has seen the last one shown: the
// display shows every step whatever the machine's load, and the cell
// takes the time the kernel takes to show them.
type stepper struct {
	fakeexec.Executor
	seen chan struct{}
}

func (s *stepper) Execute(ctx context.Context, code string, out kernel.Output) (*kernel.Display, error) {
	if code != "steps" {
		return s.Executor.Execute(ctx, code, out)
	}
	p := budget.From(ctx)
	p.Start("steps", 3)
	for range 3 {
		p.Add(1)
		select {
		case <-s.seen:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return nil, nil
}

// TestProgressDisplay: a long cell whose computation reports progress shows
// one display, updated in place, emptied when the cell ends.
func TestProgressDisplay(t *testing.T) {
	ex := &stepper{seen: make(chan struct{}, 1)}
	c, _, _ := startWith(t, tcpInfo(), ex, kernel.Options{})
	id := c.send("shell", "execute_request", map[string]any{"code": "steps", "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true})
	var msgs []*tmsg
	for {
		m := c.next("iopub")
		if m.parent() != id {
			continue
		}
		msgs = append(msgs, m)
		if m.typ() == "display_data" || m.typ() == "update_display_data" {
			select {
			case ex.seen <- struct{}{}: // the cell may take its next step
			default:
			}
		}
		if m.typ() == "status" && m.Content["execution_state"] == "idle" {
			break
		}
	}
	if r := c.reply("shell", id); r.Content["status"] != "ok" {
		t.Fatalf("reply %v", r.Content)
	}
	var shown, updates int
	var display, last string
	for _, m := range msgs {
		switch m.typ() {
		case "display_data", "update_display_data":
			tr, _ := m.Content["transient"].(map[string]any)
			did, _ := tr["display_id"].(string)
			if display == "" {
				display = did
			}
			if did == "" || did != display {
				t.Errorf("%s with display_id %q, want one id for the cell", m.typ(), did)
			}
			data, _ := m.Content["data"].(map[string]any)
			last, _ = data["text/plain"].(string)
			if m.typ() == "display_data" {
				shown++
				if !strings.Contains(last, "/3 (") || !strings.Contains(last, "steps: ") {
					t.Errorf("first progress %q, want steps: done/3", last)
				}
			} else {
				updates++
			}
		}
	}
	if shown != 1 || updates < 2 {
		t.Errorf("%d displays and %d updates, want one display updated and emptied", shown, updates)
	}
	if last != "" {
		t.Errorf("last progress %q, want it emptied at the end", last)
	}
	// A quick cell shows none.
	_, msgs = execute(c, "1+1", nil)
	for _, m := range msgs {
		if m.typ() == "display_data" {
			t.Errorf("quick cell showed %v", m.Content)
		}
	}
}

// TestHistory runs cells and asks for them back as jupyter console and
// IPython's %history do: tail, range and search, with and without output.
func TestHistory(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	cells := []struct {
		code  string
		extra map[string]any
	}{
		{"1+1", nil},
		{"print hi", nil},
		{"2+3", map[string]any{"store_history": false}}, // not kept
		{"fail boom", nil},
		{"1+1", nil},
		{"text 3", map[string]any{"silent": true}}, // not kept
		{"40+2", nil},
	}
	for _, cell := range cells {
		execute(c, cell.code, cell.extra)
	}
	// Kept: 1 "1+1" -> 2, 2 "print hi", 3 "fail boom", 4 "1+1" -> 2, 5 "40+2" -> 42.
	tests := []struct {
		name    string
		request map[string]any
		want    string
	}{
		{"tail", map[string]any{"hist_access_type": "tail", "n": 2}, `[[1,4,"1+1"],[1,5,"40+2"]]`},
		{"tail with output", map[string]any{"hist_access_type": "tail", "n": 3, "output": true},
			`[[1,3,["fail boom",null]],[1,4,["1+1","2"]],[1,5,["40+2","42"]]]`},
		{"tail of more than there is", map[string]any{"hist_access_type": "tail", "n": 100}, `[[1,1,"1+1"],[1,2,"print hi"],[1,3,"fail boom"],[1,4,"1+1"],[1,5,"40+2"]]`},
		{"range", map[string]any{"hist_access_type": "range", "session": 0, "start": 2, "stop": 4}, `[[1,2,"print hi"],[1,3,"fail boom"]]`},
		{"range to the end", map[string]any{"hist_access_type": "range", "session": 1, "start": 4}, `[[1,4,"1+1"],[1,5,"40+2"]]`},
		{"range from the end", map[string]any{"hist_access_type": "range", "start": -2}, `[[1,4,"1+1"],[1,5,"40+2"]]`},
		{"range of another session", map[string]any{"hist_access_type": "range", "session": -1, "start": 1}, `[]`},
		{"search", map[string]any{"hist_access_type": "search", "pattern": "*+*"}, `[[1,1,"1+1"],[1,4,"1+1"],[1,5,"40+2"]]`},
		{"search unique", map[string]any{"hist_access_type": "search", "pattern": "1+?", "unique": true}, `[[1,4,"1+1"]]`},
		{"search the last n", map[string]any{"hist_access_type": "search", "pattern": "*", "n": 2}, `[[1,4,"1+1"],[1,5,"40+2"]]`},
		{"search a set", map[string]any{"hist_access_type": "search", "pattern": "[fp]*"}, `[[1,2,"print hi"],[1,3,"fail boom"]]`},
		{"search is case-sensitive", map[string]any{"hist_access_type": "search", "pattern": "PRINT*"}, `[]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			id := c.send("shell", "history_request", tc.request)
			r := c.reply("shell", id)
			got, _ := json.Marshal(r.Content["history"])
			if r.Content["status"] != "ok" || string(got) != tc.want {
				t.Errorf("history %s (%v), want %s", got, r.Content["status"], tc.want)
			}
			c.iopub(id)
		})
	}
	c.t = t
	for _, bad := range []map[string]any{
		{"hist_access_type": "everything"},
		{"hist_access_type": "tail", "n": "ten"},
		{"hist_access_type": "search", "pattern": "[abc"},
	} {
		id := c.send("shell", "history_request", bad)
		if r := c.reply("shell", id); r.Content["status"] != "error" || r.Content["ename"] != "BadRequest" {
			t.Errorf("%v: %v, want a BadRequest error", bad, r.Content)
		}
		c.iopub(id)
	}
}
