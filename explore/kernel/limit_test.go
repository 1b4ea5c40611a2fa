package kernel

import (
	"bytes"
	"encoding/binary"
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
		allow  int    // bytes let through; -1: all
		err    string // "" when the stream is fine
	}{
		{name: "greeting and handshake", stream: cat(zmtpGreeting(), ready), allow: -1},
		{name: "small message", stream: cat(zmtpGreeting(), ready, zmtpFrame(zmtpMore, []byte("<IDS|MSG>")), zmtpFrame(0, []byte("{}"))), allow: -1},
		{name: "long frame at the limit", stream: cat(zmtpGreeting(), ready, zmtpFrame(zmtpLong, make([]byte, max))), allow: -1},
		{name: "empty frames", stream: cat(zmtpGreeting(), ready, zmtpFrame(zmtpMore, nil), zmtpFrame(0, nil)), allow: -1},
		{name: "1 GiB frame", stream: cat(zmtpGreeting(), ready, zmtpHeader(0, 1<<30), make([]byte, 100)),
			allow: zmtpGreetingLen + len(ready) + 8, err: "frame of 1073741824 bytes"},
		{name: "frame one byte too large", stream: cat(zmtpGreeting(), ready, zmtpHeader(0, max+1)),
			allow: zmtpGreetingLen + len(ready) + 8, err: "limit is 1000"},
		{name: "largest size", stream: cat(zmtpGreeting(), zmtpHeader(0, 1<<63|1)), allow: zmtpGreetingLen + 8, err: "limit"},
		{name: "message too large in three frames", stream: cat(zmtpGreeting(), ready,
			zmtpFrame(zmtpMore|zmtpLong, make([]byte, 400)), zmtpFrame(zmtpMore|zmtpLong, make([]byte, 400)), zmtpHeader(0, 400)),
			allow: zmtpGreetingLen + len(ready) + 2*409 + 8, err: "message of 800 bytes"},
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
			g := newFrameGuard(max)
			n, err := g.allow(tc.stream)
			if n != want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("whole: allowed %d, %v; want %d, error about %q", n, err, want, tc.err)
			}
			g = newFrameGuard(max)
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
