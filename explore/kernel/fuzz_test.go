package kernel

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// FuzzFrameGuard checks that the guard lets the same bytes through, and
// writes the same notes, however the stream is cut into reads.
func FuzzFrameGuard(f *testing.F) {
	ready := zmtpFrame(zmtpCommand, []byte("\x05READY"))
	f.Add(cat(zmtpGreeting(), ready, zmtpFrame(zmtpMore, []byte("<IDS|MSG>")), zmtpFrame(0, []byte("{}"))), uint16(7), true)
	f.Add(cat(zmtpGreeting(), ready, zmtpHeader(0, 1<<30)), uint16(1), false)
	f.Add(cat(zmtpGreeting(), ready, zmtpFrame(zmtpMore|zmtpLong, make([]byte, 300)), zmtpHeader(0, 300)), uint16(64), true)
	f.Add(cat(zmtpGreeting(), ready, signedMessage("k", 600), signedMessage("k", 10)), uint16(5), true)
	f.Fuzz(func(t *testing.T, stream []byte, chunk uint16, answer bool) {
		const max = 512
		var note []byte
		if answer {
			note = []byte("note ")
		}
		whole := newFrameGuard(max, note, []byte("k"))
		out, werr := whole.filter(nil, stream)
		cut := newFrameGuard(max, note, []byte("k"))
		step := int(chunk%97) + 1
		var passed []byte
		var cerr error
		for i := 0; i < len(stream) && cerr == nil; i += step {
			passed, cerr = cut.filter(passed, stream[i:min(i+step, len(stream))])
		}
		if !bytes.Equal(out, passed) || (werr == nil) != (cerr == nil) {
			t.Fatalf("whole: %d bytes, %v; in reads of %d: %d bytes, %v", len(out), werr, step, len(passed), cerr)
		}
		// Without notes, the stream passes as it is, but for the header of a
		// frame not yet whole, withheld.
		if !answer && werr == nil && (!bytes.HasPrefix(stream, out) || len(stream)-len(out) > 8) {
			t.Fatalf("changed the stream without an error: %d bytes of %d passed", len(out), len(stream))
		}
	})
}

// fuzzExec is an Executor that never waits: it echoes code.
type fuzzExec struct{}

func (fuzzExec) Execute(ctx context.Context, code string, out Output) (*Display, error) {
	out.Stream("stdout", code)
	out.Display(Text(code))
	if strings.HasPrefix(code, "fail") {
		return nil, &CellError{Name: "ValueError", Value: code}
	}
	return Text(code), nil
}
func (fuzzExec) Complete(code string, cursor int) ([]string, int, int) {
	return []string{code[:cursor]}, 0, cursor
}
func (fuzzExec) Inspect(code string, cursor int) (string, bool) { return code, cursor > 0 }
func (fuzzExec) IsComplete(code string) (string, string)        { return "complete", "" }
func (fuzzExec) Info() LanguageInfo                             { return LanguageInfo{Name: "fuzz"} }
func (fuzzExec) IsExit(code string) bool                        { return false } // the kernel serves every input
func (fuzzExec) Help(code string) (string, bool)                { return "", false }

// handleRig is one kernel serving the shell and control sockets (not Run:
// a shutdown request must not end it) and a client connected to both.
type handleRig struct {
	k              *Kernel
	shell, control zmq4.Socket
	replies        chan zmq4.Msg
	controlReplies chan zmq4.Msg
}

var (
	rigOnce sync.Once
	rig     *handleRig
	rigErr  error
)

func handleKernel(t testing.TB) *handleRig {
	rigOnce.Do(func() {
		dir, err := os.MkdirTemp("", "nimbook-fuzz")
		if err != nil {
			rigErr = err
			return
		}
		info := ConnectionInfo{Transport: "ipc", IP: filepath.Join(dir, "k"), Key: "key",
			ShellPort: 1, ControlPort: 2, StdinPort: 3, IOPubPort: 4, HBPort: 5}
		k, err := NewKernel(info, fuzzExec{}, Options{MaxOutput: 4096})
		if err != nil {
			rigErr = err
			return
		}
		go k.readShell()
		go k.serveShell()
		go k.serveControl()
		r := &handleRig{k: k, replies: make(chan zmq4.Msg, 16), controlReplies: make(chan zmq4.Msg, 16)}
		ctx := context.Background()
		r.shell, r.control = zmq4.NewDealer(ctx), zmq4.NewDealer(ctx)
		for _, d := range []struct {
			s    zmq4.Socket
			port int
			ch   chan zmq4.Msg
		}{{r.shell, 1, r.replies}, {r.control, 2, r.controlReplies}} {
			if rigErr = d.s.Dial("ipc://" + info.IP + "-" + string(rune('0'+d.port))); rigErr != nil {
				return
			}
			go func() {
				for {
					m, err := d.s.Recv()
					if err != nil {
						return
					}
					d.ch <- m
				}
			}()
		}
		rig = r
	})
	if rigErr != nil {
		t.Fatal(rigErr)
	}
	return rig
}

// FuzzHandle sends signed requests of any type and content to a live kernel:
// it must not panic, and must answer every request it serves exactly once.
func FuzzHandle(f *testing.F) {
	for _, seed := range []struct{ typ, content string }{
		{"execute_request", `{"code":"1+1","silent":false}`},
		{"execute_request", `{"code":"fail x","stop_on_error":true}`},
		{"execute_request", `{"code":42}`},
		{"execute_request", `{"code":"exit"}`},
		{"execute_request", `{"code":"x?"}`},
		{"complete_request", `{"code":"pré","cursor_pos":3}`},
		{"complete_request", `{"code":"a","cursor_pos":99}`},
		{"inspect_request", `{"code":"x","cursor_pos":1,"detail_level":0}`},
		{"is_complete_request", `{"code":"x"}`},
		{"kernel_info_request", `{}`},
		{"comm_open", `{"comm_id":"c","target_name":"t","data":{}}`},
		{"comm_open", `{"comm_id":"v","target_name":"jupyter.widget.version","data":{}}`},
		{"comm_msg", `{"comm_id":"v","data":{"method":"backbone","sync_data":{"value":1}}}`},
		{"comm_msg", `{"comm_id":"v","data":[1]}`},
		{"comm_close", `{"comm_id":7}`},
		{"comm_info_request", `{}`},
		{"history_request", `{"hist_access_type":"tail","n":3}`},
		{"shutdown_request", `{"restart":true}`},
		{"interrupt_request", `{}`},
		{"debug_request", `{}`},
		{"nonsense", `[]`},
	} {
		f.Add(seed.typ, []byte(seed.content), false)
		f.Add(seed.typ, []byte(seed.content), true)
	}
	f.Fuzz(func(t *testing.T, msgType string, content []byte, control bool) {
		r := handleKernel(t)
		if msgType == "" || !json.Valid(content) {
			return // dropped before any handling (FuzzDecode covers it)
		}
		msgType = strings.ToValidUTF8(msgType, "\uFFFD") // as JSON will carry it
		hdr, _ := json.Marshal(header{MsgID: "fuzz", Session: "s", MsgType: msgType, Version: protocolVersion})
		s := signer{key: []byte("key")}
		parts := [][]byte{hdr, []byte("{}"), []byte("{}"), content}
		msg := zmq4.NewMsgFrom(append([][]byte{delimiter, s.sign(parts...)}, parts...)...)
		sock, replies := r.shell, r.replies
		if control {
			sock, replies = r.control, r.controlReplies
		}
		// A kernel_info_request follows: requests on one socket are answered
		// in order, so the fuzzed one's reply, if any, comes first.
		for _, m := range []zmq4.Msg{msg, sentinel()} {
			if err := sock.Send(m); err != nil {
				t.Fatal(err)
			}
		}
		answered := strings.HasSuffix(msgType, "_request") && (control || shellRequests[msgType])
		got := 0
		for {
			var m zmq4.Msg
			select {
			case m = <-replies:
			case <-time.After(60 * time.Second): // a hang guard only
				t.Fatalf("%s %s on control=%v: no reply to the kernel_info_request that followed", msgType, content, control)
			}
			h, parent := replyHeaders(m)
			if parent == "sentinel" {
				break
			}
			got++
			if parent != "fuzz" || h.MsgType != strings.TrimSuffix(msgType, "_request")+"_reply" {
				t.Fatalf("%s: reply %s to %s", msgType, h.MsgType, parent)
			}
		}
		if answered != (got == 1) || got > 1 {
			t.Fatalf("%s %s on control=%v: %d replies", msgType, content, control, got)
		}
	})
}

// shellRequests are the request types the shell socket answers.
var shellRequests = map[string]bool{
	"kernel_info_request": true, "execute_request": true, "complete_request": true, "inspect_request": true,
	"is_complete_request": true, "interrupt_request": true, "shutdown_request": true,
	"comm_info_request": true, "history_request": true,
}

func sentinel() zmq4.Msg {
	hdr, _ := json.Marshal(header{MsgID: "sentinel", Session: "s", MsgType: "kernel_info_request", Version: protocolVersion})
	parts := [][]byte{hdr, []byte("{}"), []byte("{}"), []byte("{}")}
	return zmq4.NewMsgFrom(append([][]byte{delimiter, signer{key: []byte("key")}.sign(parts...)}, parts...)...)
}

// replyHeaders returns the header of a reply and its parent's msg_id.
func replyHeaders(m zmq4.Msg) (header, string) {
	f := m.Frames
	for len(f) > 0 && !bytes.Equal(f[0], delimiter) {
		f = f[1:]
	}
	var h, p header
	if len(f) >= 6 {
		json.Unmarshal(f[2], &h)
		json.Unmarshal(f[3], &p)
	}
	return h, p.MsgID
}
