package kernel

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// zmtpGreeting is a ZMTP 3.0 greeting with the NULL mechanism.
func zmtpGreeting() []byte {
	g := make([]byte, zmtpGreetingLen)
	g[0], g[9], g[10] = 0xFF, 0x7F, 3
	copy(g[12:], "NULL")
	return g
}

// zmtpFrame encodes one frame header and body (short or long form).
func zmtpFrame(flags byte, body []byte) []byte {
	if len(body) < 256 && flags&zmtpLong == 0 {
		return append([]byte{flags, byte(len(body))}, body...)
	}
	h := make([]byte, 9)
	h[0] = flags | zmtpLong
	binary.BigEndian.PutUint64(h[1:], uint64(len(body)))
	return append(h, body...)
}

// zmtpHeader is the header of a long frame announcing size bytes.
func zmtpHeader(flags byte, size uint64) []byte {
	h := make([]byte, 9)
	h[0] = flags | zmtpLong
	binary.BigEndian.PutUint64(h[1:], size)
	return h
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func TestFrameGuard(t *testing.T) {
	const max = 1000
	ready := zmtpFrame(zmtpCommand, []byte("\x05READY"))
	tests := []struct {
		name   string
		stream []byte
		allow  int    // bytes let through (a frame header passes whole or not at all); -1: all
		err    string // "" when the stream is fine
	}{
		{name: "greeting and handshake", stream: cat(zmtpGreeting(), ready), allow: -1},
		{name: "small message", stream: cat(zmtpGreeting(), ready, zmtpFrame(zmtpMore, []byte("<IDS|MSG>")), zmtpFrame(0, []byte("{}"))), allow: -1},
		{name: "long frame at the limit", stream: cat(zmtpGreeting(), ready, zmtpFrame(zmtpLong, make([]byte, max))), allow: -1},
		{name: "empty frames", stream: cat(zmtpGreeting(), ready, zmtpFrame(zmtpMore, nil), zmtpFrame(0, nil)), allow: -1},
		{name: "1 GiB frame", stream: cat(zmtpGreeting(), ready, zmtpHeader(0, 1<<30), make([]byte, 100)),
			allow: zmtpGreetingLen + len(ready), err: "frame of 1073741824 bytes"},
		{name: "frame one byte too large", stream: cat(zmtpGreeting(), ready, zmtpHeader(0, max+1)),
			allow: zmtpGreetingLen + len(ready), err: "limit is 1000"},
		{name: "largest size", stream: cat(zmtpGreeting(), zmtpHeader(0, 1<<63|1)), allow: zmtpGreetingLen, err: "limit"},
		{name: "message too large in three frames", stream: cat(zmtpGreeting(), ready,
			zmtpFrame(zmtpMore|zmtpLong, make([]byte, 400)), zmtpFrame(zmtpMore|zmtpLong, make([]byte, 400)), zmtpHeader(0, 400)),
			allow: zmtpGreetingLen + len(ready) + 2*409, err: "message of 800 bytes"},
		{name: "frames of separate messages add up to nothing", stream: cat(zmtpGreeting(), ready,
			zmtpFrame(zmtpLong, make([]byte, 800)), zmtpFrame(zmtpLong, make([]byte, 800))), allow: -1},
		{name: "bad flags", stream: cat(zmtpGreeting(), []byte{0x80, 0}), allow: zmtpGreetingLen, err: "bad frame flags"},
		{name: "not ZMTP", stream: []byte("GET / HTTP/1.1\r\n"), allow: 0, err: "not a ZMTP 3 greeting"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.allow
			if want < 0 {
				want = len(tc.stream)
			}
			// Whole, and one byte at a time: the same bytes pass.
			g := newFrameGuard(max, nil, nil)
			n, err := g.allow(tc.stream)
			if n != want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("whole: allowed %d, %v; want %d, error about %q", n, err, want, tc.err)
			}
			g = newFrameGuard(max, nil, nil)
			passed := 0
			for i := range tc.stream {
				k, err := g.allow(tc.stream[i : i+1])
				passed += k
				if err != nil {
					break
				}
			}
			if passed != want {
				t.Errorf("byte by byte: allowed %d, want %d", passed, want)
			}
			if tc.err != "" {
				if k, err := g.allow([]byte{0}); k != 0 || err == nil {
					t.Errorf("after an error: allowed %d, %v; want 0 and the error", k, err)
				}
			}
		})
	}
}

// signedMessage is a message as a client sends it, signed with key, whose
// content has about size bytes.
func signedMessage(key string, size int) []byte {
	s := signer{key: []byte(key)}
	m := &message{header: newHeader("s", "execute_request"), content: json.RawMessage(`{"code": "` + strings.Repeat("x", size) + `"}`)}
	m.parent = json.RawMessage(`{}`)
	frames, err := s.encode(m)
	if err != nil {
		panic(err)
	}
	var out []byte
	for i, f := range frames {
		flags := byte(zmtpMore)
		if i == len(frames)-1 {
			flags = 0
		}
		out = append(out, zmtpFrame(flags, f)...)
	}
	return out
}

// TestFrameGuardAnswers: a message that goes past the limit after its
// header reaches zmq4 as its first frames and a note of its size and
// signature, in place of the rest; the connection goes on.
func TestFrameGuardAnswers(t *testing.T) {
	const max = 1000
	note := []byte("NOTE ")
	ready := zmtpFrame(zmtpCommand, []byte("\x05READY"))
	small := signedMessage("key", 10)
	msgs := map[string][]byte{}
	large := func(key string) []byte {
		if msgs[key] == nil {
			msgs[key] = signedMessage(key, 5000)
		}
		return msgs[key]
	}
	// The frames of a large message up to its content, as they pass.
	head := func(key string) []byte {
		m := large(key)
		// Five frames: delimiter, signature, header, parent, metadata.
		i := 0
		for range 5 {
			if m[i]&zmtpLong != 0 {
				i += 9 + int(binary.BigEndian.Uint64(m[i+1:i+9]))
			} else {
				i += 2 + int(m[i+1])
			}
		}
		return m[:i]
	}
	noteFrame := func(text string) []byte { return zmtpFrame(0, []byte("NOTE "+text)) }
	size := func(key string) int { return frameBytes(large(key)) }
	tests := []struct {
		name, key   string
		stream, out []byte
	}{
		{name: "small messages pass", key: "key", stream: cat(small, small), out: cat(small, small)},
		{name: "signed, too large", key: "key", stream: cat(large("key"), small),
			out: cat(head("key"), noteFrame(fmt.Sprintf("ok %d %d", size("key"), max)), small)},
		{name: "badly signed", key: "key", stream: large("other"),
			out: cat(head("other"), noteFrame(fmt.Sprintf("bad %d %d", size("other"), max)))},
		{name: "no key", key: "", stream: large(""),
			out: cat(head(""), noteFrame(fmt.Sprintf("ok %d %d", size(""), max)))},
		{name: "a buffer too large", key: "key", stream: cat(withMore(small), zmtpFrame(zmtpMore|zmtpLong, make([]byte, 5000)), zmtpFrame(0, []byte("buffer"))),
			out: cat(withMore(small), noteFrame(fmt.Sprintf("ok %d %d", frameBytes(small)+5006, max)))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stream := cat(zmtpGreeting(), ready, tc.stream)
			g := newFrameGuard(max, note, []byte(tc.key))
			out, err := g.filter(nil, stream)
			if err != nil {
				t.Fatal(err)
			}
			g = newFrameGuard(max, note, []byte(tc.key))
			var bytewise []byte
			for i := range stream {
				if bytewise, err = g.filter(bytewise, stream[i:i+1]); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(out, bytewise) {
				t.Errorf("whole and byte by byte differ")
			}
			if want := cat(zmtpGreeting(), ready, tc.out); !bytes.Equal(out, want) {
				t.Errorf("got  %q\nwant %q", out[zmtpGreetingLen:], want[zmtpGreetingLen:])
			}
		})
	}
}

// TestReadNote: the kernel reads its own notes only.
func TestReadNote(t *testing.T) {
	note := []byte("NOTE ")
	tests := []struct {
		name     string
		last     string
		ok, good bool
		size     int64
	}{
		{"verified", "NOTE ok 9000 1000", true, true, 9000},
		{"bad signature", "NOTE bad 9000 1000", true, false, 9000},
		{"not a note", `{"code": "1"}`, false, false, 0},
		{"another token", "NOTX ok 9000 1000", false, false, 0},
		{"garbled", "NOTE ok", false, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tl, good, ok := readNote(note, [][]byte{[]byte("h"), []byte(tc.last)})
			if ok != tc.ok || good != tc.good || (ok && (tl.size != tc.size || tl.limit != 1000)) {
				t.Errorf("readNote = %+v, %v, %v", tl, good, ok)
			}
		})
	}
	if _, _, ok := readNote(nil, [][]byte{[]byte("NOTE ok 1 1")}); ok {
		t.Error("a note read without a token")
	}
}

// frameBytes is the sum of the bodies of the frames of a stream.
func frameBytes(stream []byte) int {
	total := 0
	for i := 0; i < len(stream); {
		n, h := int(stream[i+1]), 2
		if stream[i]&zmtpLong != 0 {
			n, h = int(binary.BigEndian.Uint64(stream[i+1:i+9])), 9
		}
		total += n
		i += h + n
	}
	return total
}

// withMore is a message whose last (short) frame says more frames follow.
func withMore(msg []byte) []byte {
	out := bytes.Clone(msg)
	i := 0
	for {
		n := int(out[i+1])
		if i+2+n == len(out) {
			out[i] |= zmtpMore
			return out
		}
		i += 2 + n
	}
}
