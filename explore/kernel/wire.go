package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// protocolVersion is the Jupyter messaging protocol version the kernel speaks.
const protocolVersion = "5.3"

// delimiter separates the routing identities from the signed part of a message.
var delimiter = []byte("<IDS|MSG>")

// header is a message header. Requests' headers are kept as raw JSON too, so that
// replies echo them byte for byte as their parent header.
type header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// message is one Jupyter message as it travels on a socket.
type message struct {
	identities [][]byte
	header     header
	rawHeader  json.RawMessage // header as received (for parent headers)
	parent     json.RawMessage
	metadata   json.RawMessage
	content    json.RawMessage
	buffers    [][]byte
	seq        uint64    // order of arrival on the shell socket, from 1
	arrived    time.Time // when it reached the inbox (the kernel's clock)
	// tooLarge, when not nil, says that the message went past the size
	// limit: its content (and what followed) was skipped unread.
	tooLarge *tooLarge
}

// signer computes and checks HMAC signatures. A nil key disables signing (the
// protocol's "no authentication"): signatures are then empty and not checked.
type signer struct {
	key  []byte
	note []byte // the beginning of the notes of the kernel's transport (limit.go)
}

// sign returns the hex HMAC-SHA256 of the four JSON frames, or "" when signing is off.
func (s signer) sign(frames ...[]byte) []byte {
	if len(s.key) == 0 {
		return nil
	}
	mac := hmac.New(sha256.New, s.key)
	for _, f := range frames {
		mac.Write(f)
	}
	sum := mac.Sum(nil)
	out := make([]byte, hex.EncodedLen(len(sum)))
	hex.Encode(out, sum)
	return out
}

// verify reports whether sig is the signature of the frames, in constant time.
func (s signer) verify(sig []byte, frames ...[]byte) bool {
	if len(s.key) == 0 {
		return true
	}
	return hmac.Equal(bytes.ToLower(sig), s.sign(frames...))
}

var errBadSignature = errors.New("kernel: bad message signature")

// decode splits raw frames into a message and checks its signature.
// Errors are for logging only: a message that fails here is dropped unanswered.
func (s signer) decode(frames [][]byte) (*message, error) {
	tl, verified, noted := readNote(s.note, frames)
	if noted {
		if !verified {
			return nil, fmt.Errorf("kernel: a message of %d bytes, over the limit: %w", tl.size, errBadSignature)
		}
		return s.decodeLarge(frames[:len(frames)-1], tl)
	}
	i := 0
	for i < len(frames) && !bytes.Equal(frames[i], delimiter) {
		i++
	}
	if i == len(frames) {
		return nil, errors.New("kernel: message without <IDS|MSG> delimiter")
	}
	rest := frames[i+1:]
	if len(rest) < 5 {
		return nil, fmt.Errorf("kernel: message has %d frames after the delimiter, want at least 5", len(rest))
	}
	if !s.verify(rest[0], rest[1], rest[2], rest[3], rest[4]) {
		return nil, errBadSignature
	}
	m := &message{
		identities: frames[:i],
		rawHeader:  json.RawMessage(rest[1]),
		parent:     json.RawMessage(rest[2]),
		metadata:   json.RawMessage(rest[3]),
		content:    json.RawMessage(rest[4]),
		buffers:    rest[5:],
	}
	if err := json.Unmarshal(rest[1], &m.header); err != nil {
		return nil, fmt.Errorf("kernel: bad header: %w", err)
	}
	if m.header.MsgType == "" {
		return nil, errors.New("kernel: header without msg_type")
	}
	if !json.Valid(rest[4]) {
		return nil, errors.New("kernel: content is not JSON")
	}
	return m, nil
}

// decodeLarge decodes the frames that the transport let through of a
// message too large (its signature was checked there): what comes before
// the skipped frames, the header at least.
func (s signer) decodeLarge(frames [][]byte, tl *tooLarge) (*message, error) {
	i := 0
	for i < len(frames) && !bytes.Equal(frames[i], delimiter) {
		i++
	}
	rest := frames[min(i+1, len(frames)):]
	if len(rest) < 2 {
		return nil, fmt.Errorf("kernel: a message of %d bytes, over the limit, without a header", tl.size)
	}
	m := &message{identities: frames[:i], rawHeader: json.RawMessage(rest[1]), tooLarge: tl}
	if len(rest) > 2 {
		m.parent = json.RawMessage(rest[2])
	}
	if len(rest) > 3 {
		m.metadata = json.RawMessage(rest[3])
	}
	if err := json.Unmarshal(rest[1], &m.header); err != nil {
		return nil, fmt.Errorf("kernel: a message of %d bytes, over the limit, with a bad header: %w", tl.size, err)
	}
	if m.header.MsgType == "" {
		return nil, errors.New("kernel: header without msg_type")
	}
	return m, nil
}

// encode returns the frames of m, signed: identities, delimiter, signature,
// header, parent header, metadata, content, buffers.
func (s signer) encode(m *message) ([][]byte, error) {
	hdr, err := json.Marshal(m.header)
	if err != nil {
		return nil, fmt.Errorf("kernel: header: %w", err)
	}
	parent, metadata, content := orEmpty(m.parent), orEmpty(m.metadata), orEmpty(m.content)
	frames := make([][]byte, 0, len(m.identities)+6+len(m.buffers))
	frames = append(frames, m.identities...)
	frames = append(frames, delimiter, s.sign(hdr, parent, metadata, content), hdr, parent, metadata, content)
	frames = append(frames, m.buffers...)
	return frames, nil
}

func orEmpty(b json.RawMessage) []byte {
	if len(b) == 0 {
		return []byte("{}")
	}
	return b
}

// newHeader returns a fresh header of the given type for the kernel's session.
func newHeader(session, msgType string) header {
	return header{
		MsgID:    newID(),
		Session:  session,
		Username: "kernel",
		Date:     time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"),
		MsgType:  msgType,
		Version:  protocolVersion,
	}
}

// newID returns a random UUID-4 string.
func newID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("kernel: crypto/rand failed: " + err.Error()) // never happens on supported systems
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
