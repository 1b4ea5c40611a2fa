package kernel

import (
	"context"
	"encoding/binary"
	"fmt"
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
// reads and end the connection at the header of a frame or message that is
// too large, before zmq4 has seen the byte that completes that header.

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

// frameGuard follows the ZMTP 3 byte stream a peer sends (greeting, then
// frames: flags, a 1- or 8-byte size, the body) and finds where it breaks the
// size limits. It does not buffer: allow tells how much of each chunk may pass.
type frameGuard struct {
	max int64 // largest frame and largest message (sum of frames)

	greeting int     // greeting bytes still to pass
	state    int     // guardFlags, guardSize or guardBody
	flags    byte    // flags of the current frame
	size     [8]byte // size bytes of the current header
	sizeN    int     // size bytes seen
	body     int64   // body bytes still to pass
	msg      int64   // bytes of the current message so far
	commands int     // command frames seen in full (the handshake)
	err      error   // sticky
}

const (
	guardFlags = iota
	guardSize
	guardBody
)

const (
	zmtpMore    = 0x01
	zmtpLong    = 0x02
	zmtpCommand = 0x04
)

func newFrameGuard(max int64) *frameGuard {
	return &frameGuard{max: max, greeting: zmtpGreetingLen}
}

// allow scans the next chunk of the stream and returns how many of its bytes
// may be handed on: all of them, or those before the byte that completes a
// header announcing too large a frame (then err says why; the stream is bad
// from there on and every later call returns 0 and the same error).
func (g *frameGuard) allow(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
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
				return i, g.err
			}
			g.greeting -= n
			i += n
		case g.state == guardFlags:
			g.flags = p[i]
			if g.flags&^(zmtpMore|zmtpLong|zmtpCommand) != 0 {
				g.err = fmt.Errorf("bad frame flags %#x", g.flags)
				return i, g.err
			}
			g.sizeN = 0
			g.state = guardSize
			i++
		case g.state == guardSize:
			g.size[g.sizeN] = p[i]
			g.sizeN++
			need := 1
			if g.flags&zmtpLong != 0 {
				need = 8
			}
			if g.sizeN < need {
				i++
				continue
			}
			var size uint64
			if need == 1 {
				size = uint64(g.size[0])
			} else {
				size = binary.BigEndian.Uint64(g.size[:])
			}
			if size > uint64(g.max) || uint64(g.msg)+size > uint64(g.max) {
				g.err = fmt.Errorf("frame of %d bytes in a message of %d bytes so far: the limit is %d bytes", size, g.msg, g.max)
				return i, g.err // withhold the byte that completes the header
			}
			i++
			g.body = int64(size)
			g.msg += g.body
			g.state = guardBody
			if g.body == 0 {
				g.endFrame()
			}
		default: // guardBody
			n := int(min(g.body, int64(len(p)-i)))
			g.body -= int64(n)
			i += n
			if g.body == 0 {
				g.endFrame()
			}
		}
	}
	return i, nil
}

func (g *frameGuard) endFrame() {
	g.state = guardFlags
	if g.flags&zmtpCommand != 0 {
		g.commands++
	}
	if g.flags&zmtpMore == 0 {
		g.msg = 0
	}
}

// limitTransport is a zmq4 transport (tcp or ipc) whose listeners guard the
// frames they receive.
type limitTransport struct {
	base transport.Transport
	max  int64
	log  func(format string, args ...any)
}

var transportSeq atomic.Int64

// registerTransport registers a guarded variant of network ("tcp" or "ipc")
// under a fresh name, and returns the name. Names are never reused: zmq4
// cannot unregister a transport, and one per kernel is a few bytes.
func registerTransport(network string, max int64, logf func(string, ...any)) (string, error) {
	base := transport.New("tcp")
	if network == "ipc" {
		base = transport.New("unix")
	}
	name := fmt.Sprintf("nimbook%d-%s", transportSeq.Add(1), network)
	if err := zmq4.RegisterTransport(name, limitTransport{base: base, max: max, log: logf}); err != nil {
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
		lc := &limitConn{Conn: c, guard: newFrameGuard(l.t.max), release: func() { <-l.slots }, log: l.t.log}
		// zmq4 neither times out a handshake nor closes a connection whose
		// handshake failed: the kernel does both, or a silent or foreign
		// peer would hold a slot (and the accept loop) for ever.
		lc.timer = time.AfterFunc(handshakeTimeout, func() {
			if !lc.established.Load() {
				l.t.log("closed a connection from %s: no ZMTP handshake within %v", c.RemoteAddr(), handshakeTimeout)
				lc.Close()
			}
		})
		return lc, nil
	}
}

// limitConn passes on what the peer sends as long as its frames stay within
// the limit, and ends the connection at the first one that does not.
type limitConn struct {
	net.Conn
	guard       *frameGuard // used by Read only (zmq4 reads from one goroutine)
	release     func()
	log         func(string, ...any)
	timer       *time.Timer
	established atomic.Bool
	closeOnce   sync.Once
}

func (c *limitConn) Read(p []byte) (int, error) {
	if !c.established.Load() && c.guard.commands > 0 && c.guard.state == guardFlags && c.guard.greeting == 0 {
		// zmq4 reads again after the handshake only once it has accepted
		// the connection.
		c.established.Store(true)
		c.timer.Stop()
	}
	if err := c.guard.err; err != nil {
		return 0, err
	}
	n, err := c.Conn.Read(p)
	ok, gerr := c.guard.allow(p[:n])
	if gerr != nil {
		c.log("closed a connection from %s: %v", c.RemoteAddr(), gerr)
		c.Close()
		if ok == 0 {
			return 0, gerr
		}
		return ok, nil // the error comes with the next read
	}
	return n, err
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.closeOnce.Do(func() {
		c.timer.Stop()
		c.release()
	})
	return err
}
