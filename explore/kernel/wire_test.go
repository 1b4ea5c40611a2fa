package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSignKnownVector(t *testing.T) {
	// RFC 4231, test case 2: HMAC-SHA256 with key "Jefe". The message is split
	// across the four frames: the signature covers their concatenation.
	s := signer{key: []byte("Jefe")}
	got := s.sign([]byte("what do ya"), []byte(" want "), []byte("for "), []byte("nothing?"))
	const want = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
	if string(got) != want {
		t.Errorf("sign = %s, want %s", got, want)
	}
	if !s.verify([]byte(strings.ToUpper(want)), []byte("what do ya want for nothing?"), nil, nil, nil) {
		t.Errorf("verify rejects an upper-case signature")
	}
	if s.verify([]byte(want[:63]+"0"), []byte("what do ya want for nothing?")) {
		t.Errorf("verify accepts a wrong signature")
	}
	if got := (signer{}).sign([]byte("x")); got != nil {
		t.Errorf("unsigned sign = %q, want empty", got)
	}
}

// frames builds raw message frames signed with key.
func frames(key string, ids []string, hdr, content string, buffers ...string) [][]byte {
	var f [][]byte
	for _, id := range ids {
		f = append(f, []byte(id))
	}
	s := signer{key: []byte(key)}
	parts := [][]byte{[]byte(hdr), []byte("{}"), []byte("{}"), []byte(content)}
	f = append(f, delimiter, s.sign(parts...))
	f = append(f, parts...)
	for _, b := range buffers {
		f = append(f, []byte(b))
	}
	return f
}

const testHeader = `{"msg_id":"1","session":"s","username":"u","date":"","msg_type":"execute_request","version":"5.3"}`

func TestDecode(t *testing.T) {
	s := signer{key: []byte("key")}
	tests := []struct {
		name    string
		frames  [][]byte
		wantErr string
		ids     int
		buffers int
	}{
		{name: "ok", frames: frames("key", []string{"id"}, testHeader, `{"code":"1"}`), ids: 1},
		{name: "two identities and buffers", frames: frames("key", []string{"a", "b"}, testHeader, `{}`, "buf1", "buf2"), ids: 2, buffers: 2},
		{name: "no identity", frames: frames("key", nil, testHeader, `{}`)},
		{name: "bad signature", frames: frames("other", []string{"id"}, testHeader, `{}`), wantErr: "signature"},
		{name: "unsigned to a signing kernel", frames: frames("", []string{"id"}, testHeader, `{}`), wantErr: "signature"},
		{name: "no delimiter", frames: [][]byte{[]byte("id"), []byte("x")}, wantErr: "delimiter"},
		{name: "too short", frames: [][]byte{delimiter, []byte("sig"), []byte("{}")}, wantErr: "frames"},
		{name: "bad header", frames: frames("key", nil, `{"msg_id":`, `{}`), wantErr: "header"},
		{name: "no msg_type", frames: frames("key", nil, `{"msg_id":"1"}`, `{}`), wantErr: "msg_type"},
		{name: "content not JSON", frames: frames("key", nil, testHeader, `{`), wantErr: "content"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := s.decode(tc.frames)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("decode error %v, want one about %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(m.identities) != tc.ids || len(m.buffers) != tc.buffers || m.header.MsgType != "execute_request" {
				t.Errorf("decoded %d ids, %d buffers, type %q", len(m.identities), len(m.buffers), m.header.MsgType)
			}
		})
	}
	if _, err := s.decode(frames("x", nil, testHeader, "{}")); !errors.Is(err, errBadSignature) {
		t.Errorf("bad signature error %v is not errBadSignature", err)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	for _, key := range []string{"", "secret"} {
		s := signer{key: []byte(key)}
		parent := json.RawMessage(testHeader)
		m := &message{
			identities: [][]byte{[]byte("peer")},
			header:     newHeader("session", "execute_reply"),
			parent:     parent,
			content:    json.RawMessage(`{"status":"ok"}`),
			buffers:    [][]byte{{0, 1, 2}},
		}
		f, err := s.encode(m)
		if err != nil {
			t.Fatal(err)
		}
		if len(f) != 1+6+1 || !bytes.Equal(f[1], delimiter) || string(f[5]) != "{}" {
			t.Fatalf("frames %q", f)
		}
		got, err := s.decode(f)
		if err != nil {
			t.Fatalf("key %q: %v", key, err)
		}
		if got.header != m.header || string(got.parent) != testHeader || string(got.content) != `{"status":"ok"}` ||
			!bytes.Equal(got.identities[0], []byte("peer")) || !bytes.Equal(got.buffers[0], []byte{0, 1, 2}) {
			t.Errorf("key %q: round trip %+v", key, got)
		}
	}
}

func TestNewID(t *testing.T) {
	a, b := newID(), newID()
	if a == b || len(a) != 36 || a[14] != '4' || strings.Count(a, "-") != 4 {
		t.Errorf("newID = %s, %s", a, b)
	}
}

func FuzzDecode(f *testing.F) {
	join := func(fr [][]byte) []byte { return bytes.Join(fr, []byte{0}) }
	f.Add(join(frames("key", []string{"id"}, testHeader, `{"code":"1"}`)))
	f.Add(join(frames("key", nil, testHeader, `{}`, "buf")))
	f.Add([]byte("<IDS|MSG>"))
	f.Add([]byte{})
	s := signer{key: []byte("key")}
	unsigned := signer{}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr := bytes.Split(b, []byte{0})
		for _, sg := range []signer{s, unsigned} {
			m, err := sg.decode(fr)
			if err != nil {
				continue
			}
			if m.header.MsgType == "" || !json.Valid(m.content) {
				t.Fatalf("decode accepted %q", fr)
			}
			// What decodes re-encodes and decodes again.
			m.header.MsgType = "x"
			out, err := sg.encode(m)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sg.decode(out); err != nil {
				t.Fatalf("re-decode: %v", err)
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	s := signer{key: []byte("a0436f6c-1916-498b-8eb9-e81ab9368e84")}
	f := frames(string(s.key), []string{"id"}, testHeader, `{"code":"nim_sum(1, 2)","silent":false}`)
	for b.Loop() {
		if _, err := s.decode(f); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSentAtPrecision(t *testing.T) {
	for _, tc := range []struct {
		date string
		tick time.Duration
	}{
		{"2026-11-24T11:37:32Z", time.Second},
		{"2026-11-24T11:37:32.669Z", time.Millisecond},
		{"2026-11-24T11:37:32.669123Z", time.Microsecond},
		{"2026-11-24T11:37:32.669123456Z", time.Nanosecond},
		{"2026-11-24T12:37:32.669123+01:00", time.Microsecond},
	} {
		t.Run(tc.date, func(t *testing.T) {
			m := &message{header: header{Date: tc.date}}
			sent, tick, err := sentAt(m)
			if err != nil || tick != tc.tick {
				t.Fatalf("sentAt = %v, %v, %v; want tick %v", sent, tick, err, tc.tick)
			}
			if want := time.Date(2026, 11, 24, 11, 37, 32, 0, time.UTC); sent.Truncate(time.Second).UTC() != want {
				t.Errorf("sent %v, want %v", sent, want)
			}
		})
	}
	if _, _, err := sentAt(&message{}); err == nil {
		t.Error("an empty date parsed")
	}
}
