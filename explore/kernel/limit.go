package kernel

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// zmq4 reads a whole frame into memory as soon as its header announces a
// size, before the kernel can check a signature: a peer announcing 1 GiB
// makes it allocate 1 GiB. zmq4 has no size limit, so the kernel listens
// through its own transport (zmq4.RegisterTransport, the library's extension
// point): a listener whose connections parse the ZMTP framing while zmq4
// reads and rewrite what goes past the limit before zmq4 sees it.
//
// A request too large is still a request: its client waits for the reply,
// and the requests it sends next must not be lost with the connection. So
// when a frame after the message's header would take it past the limit,
// the guard withholds that frame and skips it and the rest of the message
// as they arrive, computing their signature on the way, and ends the
// message zmq4 receives with a note of its own (a frame that starts with
// the kernel's secret token) saying how large it was and whether its
// signature verified. The kernel answers such a message with an error
// that names the limit. A frame too large before the header (identities,
// delimiter, signature or header) cannot be answered: the connection is
// closed at that frame's header, before zmq4 has seen the byte that
// completes it.

const (
	// DefaultMaxMessage is the largest message (the sum of its frames) a
	// kernel accepts unless Options.MaxMessage says otherwise.
	DefaultMaxMessage = 8 << 20
	// maxSmallMessage is the limit of the heartbeat and iopub sockets, which
	// receive only pings and subscriptions.
	maxSmallMessage = 64 << 10
	// maxConns bounds the connections of one socket: each may hold a message
	// being read.
	maxConns = 32
	// handshakeTimeout bounds the ZMTP greeting and handshake of a connection.
	handshakeTimeout = 10 * time.Second
)

// zmtpGreetingLen is the size of the ZMTP 3 greeting that opens a stream.
const zmtpGreetingLen = 64

const (
	zmtpMore    = 0x01
	zmtpLong    = 0x02
	zmtpCommand = 0x04
)

// maxHead is how much of a frame's beginning the guard keeps: enough for the
// delimiter and a signature.
const maxHead = 128

// frameGuard follows the ZMTP 3 byte stream a peer sends (greeting, then
// frames: flags, a 1- or 8-byte size, the body) and rewrites it as filter
// says. It holds no more than a frame header and the beginning of a frame.
type frameGuard struct {
	max  int64  // largest frame and largest message (sum of frames)
	note []byte // the beginning of the guard's notes; nil: too large is fatal
	key  []byte // the signing key; empty: messages are not signed

	greeting int     // greeting bytes still to pass
	hdr      [9]byte // the header of the next frame, withheld until whole
	hdrN     int
	flags    byte  // flags of the current frame
	body     int64 // body bytes of the current frame still to come
	size     int64 // body size of the current frame
	pass     bool  // the current frame is handed on, not skipped
	commands int   // command frames seen in full (the handshake)
	err      error // sticky

	// The current message (its data frames).
	msg      int64     // bytes of its frames so far (saturating)
	frame    int       // index of the current frame
	delim    int       // index of the <IDS|MSG> frame; -1 until seen
	head     []byte    // the beginning of the current frame
	sig      []byte    // the signature frame (its beginning)
	mac      hash.Hash // HMAC of the signed frames so far; nil without key
	skipping bool      // the message went past the limit: its frames from there on are skipped
}

func newFrameGuard(max int64, note, key []byte) *frameGuard {
	g := &frameGuard{max: max, note: note, key: key, greeting: zmtpGreetingLen, delim: -1}
	if len(key) > 0 {
		g.mac = hmac.New(sha256.New, key)
	}
	return g
}

// allow reports how many bytes of p would pass unchanged: all of them, or
// those before the error; for tests of the limits alone.
func (g *frameGuard) allow(p []byte) (int, error) {
	out, err := g.filter(nil, p)
	return len(out), err
}

// filter scans the next chunk of the stream and appends to dst what zmq4
// may read of it: the frames within the limits as they are; nothing of a
// message's frames from the one that goes past the limit, then, once the
// message ends, the note that stands for them. A frame too large that
// cannot be answered, or bytes that are not ZMTP, make an error: what was
// appended before it may pass; the stream is bad from there on and every
// later call returns the same error.
func (g *frameGuard) filter(dst, p []byte) ([]byte, error) {
	if g.err != nil {
		return dst, g.err
	}
	i := 0
	for i < len(p) {
		switch {
		case g.greeting > 0:
			n := min(g.greeting, len(p)-i)
			// The greeting's first byte is 0xFF in ZMTP 3; anything else is
			// not a peer of ours.
			if g.greeting == zmtpGreetingLen && p[i] != 0xFF {
				g.err = fmt.Errorf("not a ZMTP 3 greeting")
				return dst, g.err
			}
			dst = append(dst, p[i:i+n]...)
			g.greeting -= n
			i += n
		case g.body > 0:
			n := int(min(g.body, int64(len(p)-i)))
			chunk := p[i : i+n]
			g.see(chunk)
			if g.pass {
				dst = append(dst, chunk...)
			}
			g.body -= int64(n)
			i += n
			if g.body == 0 {
				dst = g.endFrame(dst)
			}
		default: // a frame header
			c := p[i]
			if g.hdrN == 0 && c&^(zmtpMore|zmtpLong|zmtpCommand) != 0 {
				g.err = fmt.Errorf("bad frame flags %#x", c)
				return dst, g.err
			}
			g.hdr[g.hdrN] = c
			g.hdrN++
			i++
			need := 2
			if g.hdr[0]&zmtpLong != 0 {
				need = 9
			}
			if g.hdrN < need {
				continue
			}
			var err error
			if dst, err = g.startFrame(dst); err != nil {
				g.err = err
				return dst, err
			}
		}
	}
	return dst, nil
}

// startFrame decides the fate of the frame whose header is complete.
func (g *frameGuard) startFrame(dst []byte) ([]byte, error) {
	hdr := g.hdr[:g.hdrN]
	g.hdrN = 0
	g.flags = hdr[0]
	var size uint64
	if g.flags&zmtpLong != 0 {
		size = binary.BigEndian.Uint64(hdr[1:])
	} else {
		size = uint64(hdr[1])
	}
	over := size > uint64(g.max) || uint64(g.msg)+size > uint64(g.max)
	command := g.flags&zmtpCommand != 0
	switch {
	case g.skipping && !command:
		g.pass = false
	case over && (command || g.note == nil || g.delim < 0 || g.frame <= g.delim+2):
		// Before the header there is nothing to answer.
		return dst, fmt.Errorf("frame of %d bytes in a message of %d bytes so far: the limit is %d bytes", size, g.msg, g.max)
	case over:
		g.skipping, g.pass = true, false
	default:
		g.pass = true
		dst = append(dst, hdr...)
	}
	g.size = int64(min(size, math.MaxInt64))
	g.body = g.size
	if !command {
		g.msg = int64(min(uint64(g.msg)+uint64(g.size), math.MaxInt64))
	}
	g.head = g.head[:0]
	if g.body == 0 {
		dst = g.endFrame(dst)
	}
	return dst, nil
}

// see looks at body bytes of the current frame as they pass or are skipped.
func (g *frameGuard) see(chunk []byte) {
	if g.flags&zmtpCommand != 0 {
		return
	}
	if (g.delim < 0 || g.frame == g.delim+1) && len(g.head) < maxHead {
		g.head = append(g.head, chunk[:min(len(chunk), maxHead-len(g.head))]...)
	}
	if g.mac != nil && g.delim >= 0 && g.frame >= g.delim+2 && g.frame <= g.delim+5 {
		g.mac.Write(chunk)
	}
}

// endFrame ends the current frame, and the message with its last frame.
func (g *frameGuard) endFrame(dst []byte) []byte {
	if g.flags&zmtpCommand != 0 {
		g.commands++
		return dst
	}
	switch {
	case g.delim < 0 && g.size == int64(len(delimiter)) && bytes.Equal(g.head, delimiter):
		g.delim = g.frame
	case g.delim >= 0 && g.frame == g.delim+1:
		g.sig = append(g.sig[:0], g.head...)
	}
	g.frame++
	if g.flags&zmtpMore != 0 {
		return dst
	}
	if g.skipping {
		dst = append(dst, g.noteFrame()...)
	}
	g.msg, g.frame, g.delim, g.skipping = 0, 0, -1, false
	g.sig = g.sig[:0]
	if g.mac != nil {
		g.mac.Reset()
	}
	return dst
}

// noteFrame is the last frame of a message that went past the limit: the
// note, its signature's verdict, its size and the limit.
func (g *frameGuard) noteFrame() []byte {
	verdict := "bad"
	if len(g.key) == 0 {
		verdict = "ok"
	} else if g.frame > g.delim+5 { // the four signed frames are all there
		sum := g.mac.Sum(nil)
		want := make([]byte, hex.EncodedLen(len(sum)))
		hex.Encode(want, sum)
		if hmac.Equal(bytes.ToLower(g.sig), want) {
			verdict = "ok"
		}
	}
	body := fmt.Appendf(append([]byte(nil), g.note...), "%s %d %d", verdict, g.msg, g.max)
	return append([]byte{0, byte(len(body))}, body...)
}

// newNote returns the beginning of the notes of one kernel: a fixed text
// and a secret token that no peer knows, so that no peer can forge a note.
func newNote() []byte {
	return []byte("\x00nimbook: message too large " + newID() + " ")
}

// tooLarge is what a note says of a message that went past the limit.
type tooLarge struct {
	size, limit int64
}

// readNote parses the note that ends frames, if any: ok is false when the
// last frame is no note of this kernel; verified tells whether the
// message's signature verified.
func readNote(note []byte, frames [][]byte) (tl *tooLarge, verified, ok bool) {
	if len(note) == 0 || len(frames) == 0 || !bytes.HasPrefix(frames[len(frames)-1], note) {
		return nil, false, false
	}
	var verdict string
	tl = &tooLarge{}
	if _, err := fmt.Sscanf(string(frames[len(frames)-1][len(note):]), "%s %d %d", &verdict, &tl.size, &tl.limit); err != nil {
		return nil, false, false
	}
	return tl, verdict == "ok", true
}

// limitTransport is a zmq4 transport (tcp or ipc) whose listeners guard the
// frames they receive.
type limitTransport struct {
	base transport.Transport
	max  int64
	note []byte // nil: a message too large closes the connection
	key  []byte
	log  func(format string, args ...any) // errors
	dbg  func(format string, args ...any) // peers turned away
}

var transportSeq atomic.Int64

// registerTransport registers a guarded variant of network ("tcp" or "ipc")
// under a fresh name, and returns the name. Names are never reused: zmq4
// cannot unregister a transport, and one per kernel is a few bytes. With
// a note, messages too large are skipped and end with the note (key
// checks their signature); without, they close the connection.
func registerTransport(network string, max int64, note, key []byte, logf, debugf func(string, ...any)) (string, error) {
	base := transport.New("tcp")
	if network == "ipc" {
		base = transport.New("unix")
	}
	name := fmt.Sprintf("nimbook%d-%s", transportSeq.Add(1), network)
	if err := zmq4.RegisterTransport(name, limitTransport{base: base, max: max, note: note, key: key, log: logf, dbg: debugf}); err != nil {
		return "", err
	}
	return name, nil
}

// withTransport replaces the scheme of a zmq4 endpoint ("tcp://...").
func withTransport(endpoint, name string) string {
	_, rest, _ := strings.Cut(endpoint, "://")
	return name + "://" + rest
}

func (t limitTransport) Dial(ctx context.Context, d transport.Dialer, addr string) (net.Conn, error) {
	return t.base.Dial(ctx, d, addr)
}

func (t limitTransport) Addr(ep string) (string, error) { return t.base.Addr(ep) }

func (t limitTransport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	l, err := t.base.Listen(ctx, addr)
	if err != nil {
		return nil, err
	}
	return &limitListener{Listener: l, t: t, slots: make(chan struct{}, maxConns)}, nil
}

// limitListener bounds the number of live connections and guards each.
type limitListener struct {
	net.Listener
	t     limitTransport
	slots chan struct{}
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
		default:
			l.t.log("refused a connection from %s: %d connections are open already", c.RemoteAddr(), maxConns)
			c.Close()
			continue
		}
		lc := &limitConn{Conn: c, guard: newFrameGuard(l.t.max, l.t.note, l.t.key), release: func() { <-l.slots }, log: l.t.dbg}
		// zmq4 neither times out a handshake nor closes a connection whose
		// handshake failed: the kernel does both, or a silent or foreign
		// peer would hold a slot (and the accept loop) for ever.
		lc.timer = time.AfterFunc(handshakeTimeout, func() {
			if !lc.established.Load() {
				l.t.dbg("closed a connection from %s: no ZMTP handshake within %v", c.RemoteAddr(), handshakeTimeout)
				lc.Close()
			}
		})
		return lc, nil
	}
}

// limitConn passes on what the peer sends as its guard rewrites it, and
// ends the connection at the first frame that cannot be answered.
type limitConn struct {
	net.Conn
	guard       *frameGuard // used by Read only (zmq4 reads from one goroutine)
	buf         []byte      // what was read from the peer
	out         []byte      // what the guard let through, not yet read
	pos         int         // what of out was read
	err         error       // the error to return once out is read
	release     func()
	log         func(string, ...any)
	timer       *time.Timer
	established atomic.Bool
	closeOnce   sync.Once
}

// connBuffer is how much a connection reads from the peer at once.
const connBuffer = 32 << 10

func (c *limitConn) Read(p []byte) (int, error) {
	g := c.guard
	if !c.established.Load() && g.commands > 0 && g.hdrN == 0 && g.body == 0 && g.greeting == 0 {
		// zmq4 reads again after the handshake only once it has accepted
		// the connection.
		c.established.Store(true)
		c.timer.Stop()
	}
	for c.pos == len(c.out) {
		if c.err != nil {
			return 0, c.err
		}
		if c.buf == nil {
			c.buf = make([]byte, connBuffer)
		}
		n, err := c.Conn.Read(c.buf)
		out, gerr := g.filter(c.out[:0], c.buf[:n])
		c.out, c.pos = out, 0
		switch {
		case gerr != nil:
			c.log("closed a connection from %s: %v", c.RemoteAddr(), gerr)
			c.Close()
			c.err = gerr
		case err != nil:
			c.err = err
		}
	}
	n := copy(p, c.out[c.pos:])
	c.pos += n
	return n, nil
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.closeOnce.Do(func() {
		c.timer.Stop()
		c.release()
	})
	return err
}
