package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/nimbook/nimbook/explore/budget"
)

// Options tune a Kernel. The zero value is valid.
type Options struct {
	// Log receives the kernel's errors and warnings (a panic in the
	// Executor, a reply that could not be sent, a message whose signature
	// does not verify); nil discards them.
	Log io.Writer
	// Debug receives the kernel's lifecycle events and the requests it
	// refused (listening, shutdown, a request too large or malformed);
	// nil discards them. The kernel command writes them to standard error
	// with --debug or NIMBOOK_KERNEL_DEBUG=1 only.
	Debug   io.Writer
	Version string // implementation_version in kernel_info; default: the build's version
	Banner  string // shown by consoles; default names the language
	// MaxMessage is the largest request (all its frames) the kernel reads, in
	// bytes; a larger one is skipped as it arrives, never held in memory,
	// and answered with an error that names the limit. Default
	// DefaultMaxMessage.
	MaxMessage int64
	// MaxOutput is the most output a cell shows, in bytes of stream text and
	// display data; the rest is dropped with a note. Default DefaultMaxOutput.
	MaxOutput int64
}

// Kernel is one running Jupyter kernel: five sockets and an Executor.
type Kernel struct {
	info    ConnectionInfo
	exec    Executor
	opts    Options
	log     *log.Logger // errors and warnings
	debug   *log.Logger // lifecycle and refused requests
	sig     signer
	session string

	ctx    context.Context // lives until Run returns; cancels the sockets
	cancel context.CancelFunc

	shell, control, stdin, iopub *socket
	hb                           zmq4.Socket
	inbox                        *inbox // shell requests received, not yet handled
	hist                         history
	clock                        clock // of the abort after a failing cell (tests set another)

	execMu sync.Mutex // one Executor call at a time

	mu         sync.Mutex
	count      int                // execution_count
	cellCancel context.CancelFunc // cancels the running cell, nil between cells
	abortUpTo  uint64             // execute requests received up to this one are aborted
	failedAt   time.Time          // when the last cell with stop_on_error failed
	seenAfter  time.Time          // the earliest the client could see that failure, on its own clock (zero: unknown)
	exiting    bool               // a cell asked to end the session
	comms      map[string]comm    // open comms by id
	stopped    chan struct{}      // closed by shutdown_request
	stopOnce   sync.Once

	closeOnce sync.Once
	closeErr  error

	joinOnce sync.Once // first iopub publish: wait for a subscriber, say "starting"
	inputCh  chan *message
}

// socket serialises sends on one zmq4 socket.
type socket struct {
	mu sync.Mutex
	zmq4.Socket
	name string
}

func (s *socket) send(frames [][]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Send(zmq4.NewMsgFrom(frames...))
}

// sendTimeout bounds a send to a peer that went away.
const sendTimeout = 10 * time.Second

// NewKernel binds the five sockets described by info. Port 0 (tcp) binds any
// free port; Info reports the ports bound. Run serves the kernel; Close
// releases the sockets of a kernel that is not run.
//
// A tcp address other than loopback with an empty key is refused: anyone who
// reaches the address could run code. With a key it is served with a warning
// in the log (messages are signed, not encrypted).
func NewKernel(info ConnectionInfo, exec Executor, opts Options) (*Kernel, error) {
	if exec == nil {
		return nil, errors.New("kernel: nil Executor")
	}
	info, err := info.check()
	if err != nil {
		return nil, err
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.Debug == nil {
		opts.Debug = io.Discard
	}
	if opts.MaxMessage <= 0 {
		opts.MaxMessage = DefaultMaxMessage
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	if opts.Version == "" {
		opts.Version = buildVersion()
	}
	ctx, cancel := context.WithCancel(context.Background())
	k := &Kernel{
		info:    info,
		exec:    exec,
		opts:    opts,
		log:     log.New(opts.Log, "kernel: ", log.LstdFlags|log.Lmicroseconds),
		debug:   log.New(opts.Debug, "kernel: ", log.LstdFlags|log.Lmicroseconds),
		sig:     signer{key: []byte(info.Key), note: newNote()},
		session: newID(),
		ctx:     ctx,
		cancel:  cancel,
		stopped: make(chan struct{}),
		inputCh: make(chan *message, 4),
		comms:   map[string]comm{},
		clock:   systemClock{},
	}
	k.inbox = newInbox(k.clock)
	if info.Transport == "tcp" && !isLoopback(info.IP) {
		k.log.Printf("warning: listening on %s, which other machines may reach; messages are signed with the key but not encrypted", info.IP)
	}
	// Heartbeat pings and iopub subscriptions are a few bytes: they get a
	// small limit of their own.
	scheme, err := registerTransport(info.Transport, opts.MaxMessage, k.sig.note, k.sig.key, k.log.Printf, k.debug.Printf)
	var small string
	if err == nil {
		small, err = registerTransport(info.Transport, maxSmallMessage, nil, nil, k.log.Printf, k.debug.Printf)
	}
	if err != nil {
		cancel()
		return nil, fmt.Errorf("kernel: %w", err)
	}
	o := zmq4.WithTimeout(sendTimeout)
	k.shell = &socket{Socket: zmq4.NewRouter(ctx, o), name: "shell"}
	k.control = &socket{Socket: zmq4.NewRouter(ctx, o), name: "control"}
	k.stdin = &socket{Socket: zmq4.NewRouter(ctx, o), name: "stdin"}
	k.iopub = &socket{Socket: zmq4.NewPub(ctx, o), name: "iopub"}
	k.hb = zmq4.NewRep(ctx, o)
	binds := []struct {
		name   string
		s      zmq4.Socket
		port   *int
		scheme string
	}{
		{"shell", k.shell, &k.info.ShellPort, scheme},
		{"control", k.control, &k.info.ControlPort, scheme},
		{"stdin", k.stdin, &k.info.StdinPort, scheme},
		{"iopub", k.iopub, &k.info.IOPubPort, small},
		{"heartbeat", k.hb, &k.info.HBPort, small},
	}
	for _, b := range binds {
		if err := b.s.Listen(withTransport(k.info.endpoint(*b.port), b.scheme)); err != nil {
			k.Close()
			return nil, fmt.Errorf("kernel: %s socket: %w", b.name, err)
		}
		if *b.port == 0 {
			if a, ok := b.s.Addr().(*net.TCPAddr); ok {
				*b.port = a.Port
			}
		}
	}
	return k, nil
}

// Info returns the connection information with the ports actually bound.
func (k *Kernel) Info() ConnectionInfo { return k.info }

// Close releases the sockets. Run calls it on return; later calls do nothing.
func (k *Kernel) Close() error {
	k.closeOnce.Do(func() {
		k.cancel()
		k.inbox.close()
		for _, s := range []zmq4.Socket{k.shell, k.control, k.stdin, k.iopub, k.hb} {
			if err := s.Close(); err != nil && k.closeErr == nil {
				k.closeErr = err
			}
		}
	})
	return k.closeErr
}

// Interrupt cancels the running cell, if any.
func (k *Kernel) Interrupt() {
	k.mu.Lock()
	if k.cellCancel != nil {
		k.cellCancel()
	}
	k.mu.Unlock()
}

// Run serves requests until a shutdown_request (it then returns nil) or until
// ctx is cancelled (it returns ctx.Err()). The sockets are closed on return.
func (k *Kernel) Run(ctx context.Context) error {
	defer k.Close()
	k.debug.Printf("listening: transport %s, ip %s, shell %d, control %d, stdin %d, iopub %d, hb %d",
		k.info.Transport, k.info.IP, k.info.ShellPort, k.info.ControlPort, k.info.StdinPort, k.info.IOPubPort, k.info.HBPort)
	var wg sync.WaitGroup
	loops := []func(){k.heartbeat, k.readShell, k.serveShell, k.serveControl, k.serveStdin,
		func() { k.joinOnce.Do(k.join) }}
	for _, f := range loops {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	var err error
	select {
	case <-ctx.Done():
		err = ctx.Err()
		k.debug.Printf("stopping: %v", err)
	case <-k.stopped:
		k.debug.Printf("shutdown requested")
	}
	k.Interrupt()
	// The PUB socket queues messages and has no flush: give the last status
	// messages a moment to leave before the sockets close.
	time.Sleep(50 * time.Millisecond)
	k.cancel()
	k.inbox.close()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		// A cell that ignores its context keeps the shell loop busy; do not
		// wait for it, the process is exiting.
		k.log.Printf("a cell did not stop; exiting anyway")
	}
	return err
}

// heartbeat echoes every ping.
func (k *Kernel) heartbeat() {
	for {
		msg, err := k.hb.Recv()
		if err != nil {
			if k.ctx.Err() != nil {
				return
			}
			k.log.Printf("heartbeat: %v", err)
			time.Sleep(10 * time.Millisecond) // a bad peer must not end the heartbeat
			continue
		}
		if err := k.hb.Send(msg); err != nil && k.ctx.Err() == nil {
			k.log.Printf("heartbeat: %v", err)
		}
	}
}

// receive reads the next message that verifies on s; it returns nil when the
// kernel stops.
func (k *Kernel) receive(s *socket) *message {
	for {
		raw, err := s.Recv()
		if err != nil {
			if k.ctx.Err() != nil {
				return nil
			}
			k.log.Printf("%s: receive: %v", s.name, err)
			time.Sleep(10 * time.Millisecond) // do not spin on a persistent error
			continue
		}
		m, err := k.sig.decode(raw.Frames)
		if err != nil {
			k.log.Printf("%s: dropped message: %v", s.name, err) // never answered
			continue
		}
		return m
	}
}

// readShell moves shell requests into the inbox as soon as they arrive, so
// that the kernel knows which requests were waiting when a cell failed.
func (k *Kernel) readShell() {
	for {
		m := k.receive(k.shell)
		if m == nil || !k.inbox.push(m) {
			return
		}
	}
}

// serveShell handles the shell requests one at a time.
func (k *Kernel) serveShell() {
	for {
		m := k.inbox.pop()
		if m == nil {
			return
		}
		if k.aborted(m) {
			k.abort(m)
			continue
		}
		k.handle(k.shell, m)
		k.mu.Lock()
		exiting := k.exiting
		k.mu.Unlock()
		if exiting {
			k.stop()
			return
		}
	}
}

// serveControl handles the control requests as they come: none of them waits
// for the Executor, so an interrupt always reaches a running cell.
func (k *Kernel) serveControl() {
	for {
		m := k.receive(k.control)
		if m == nil {
			return
		}
		k.handle(k.control, m)
	}
}

// serveStdin passes input replies to the cell waiting for them.
func (k *Kernel) serveStdin() {
	for {
		m := k.receive(k.stdin)
		if m == nil {
			return
		}
		if m.header.MsgType != "input_reply" {
			k.debug.Printf("stdin: ignored %s", m.header.MsgType)
			continue
		}
		select {
		case k.inputCh <- m:
		default:
			k.debug.Printf("stdin: input_reply nobody asked for")
		}
	}
}

// reply sends a reply to request m on the socket it came from.
func (k *Kernel) reply(s *socket, m *message, msgType string, content any) {
	k.sendTo(s, m.identities, m, msgType, content)
}

// sendTo sends a message with parent as parent header (none when nil).
func (k *Kernel) sendTo(s *socket, ids [][]byte, parent *message, msgType string, content any) *message {
	out := &message{identities: ids, header: newHeader(k.session, msgType)}
	if parent != nil {
		out.parent = parent.rawHeader
	}
	var err error
	if out.content, err = json.Marshal(content); err != nil {
		k.log.Printf("%s: %v", msgType, err)
		return nil
	}
	frames, err := k.sig.encode(out)
	if err == nil {
		err = s.send(frames)
	}
	if err != nil && k.ctx.Err() == nil {
		k.log.Printf("send %s: %v", msgType, err)
	}
	return out
}

// slowJoinerWait bounds the wait for a first subscriber before the first publish.
const slowJoinerWait = 500 * time.Millisecond

// join waits a moment for a first subscriber (a PUB socket drops messages
// sent before a subscriber has connected and subscribed, and clients wait for
// the first status message), then publishes status "starting", once.
func (k *Kernel) join() {
	if t, ok := k.iopub.Socket.(zmq4.Topics); ok {
		deadline := time.Now().Add(slowJoinerWait)
		for len(t.Topics()) == 0 && time.Now().Before(deadline) && k.ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
	}
	k.sendPublish(nil, "status", map[string]string{"execution_state": "starting"})
}

// publish sends a message on iopub, with request m as parent.
func (k *Kernel) publish(m *message, msgType string, content any) {
	k.joinOnce.Do(k.join)
	k.sendPublish(m, msgType, content)
}

func (k *Kernel) sendPublish(m *message, msgType string, content any) {
	topic := []byte("kernel." + k.session + "." + msgType)
	k.sendTo(k.iopub, [][]byte{topic}, m, msgType, content)
}

func (k *Kernel) status(m *message, state string) {
	k.publish(m, "status", map[string]string{"execution_state": state})
}

func (k *Kernel) stop() {
	k.stopOnce.Do(func() { close(k.stopped) })
}

// controlRequests are the requests served on the control socket. The others
// would wait for the Executor and block the socket that interrupts it.
var controlRequests = map[string]bool{
	"kernel_info_request": true, "interrupt_request": true, "shutdown_request": true,
}

// handle answers one request, between status busy and status idle.
func (k *Kernel) handle(s *socket, m *message) {
	k.status(m, "busy")
	defer k.status(m, "idle")
	t := m.header.MsgType
	if m.tooLarge != nil {
		k.refuseLarge(s, m)
		return
	}
	if s == k.control && !controlRequests[t] {
		k.debug.Printf("control: refused %s (served on the shell socket only)", t)
		if strings.HasSuffix(t, "_request") {
			k.errorReply(s, m, strings.TrimSuffix(t, "_request")+"_reply",
				&CellError{Name: "BadRequest", Value: t + " is served on the shell socket, not on control"}, nil)
		}
		return
	}
	switch t {
	case "kernel_info_request":
		k.reply(s, m, "kernel_info_reply", k.kernelInfo())
	case "execute_request":
		k.execute(s, m)
	case "complete_request":
		k.complete(s, m)
	case "inspect_request":
		k.inspect(s, m)
	case "is_complete_request":
		k.isComplete(s, m)
	case "interrupt_request":
		k.Interrupt()
		k.reply(s, m, "interrupt_reply", map[string]string{"status": "ok"})
	case "shutdown_request":
		restart := false
		if c, err := parseContent(m); err == nil {
			restart, _ = c.boolean("restart", false)
		}
		k.Interrupt()
		k.reply(s, m, "shutdown_reply", map[string]any{"status": "ok", "restart": restart})
		k.stop()
	case "comm_info_request":
		k.reply(s, m, "comm_info_reply", k.commInfo(m))
	case "history_request":
		k.historyReply(s, m)
	case "comm_open":
		k.commOpen(m)
	case "comm_msg":
		k.commMsg(m)
	case "comm_close":
		k.commClose(m)
	default:
		k.debug.Printf("unsupported message type %q", t)
	}
}

// tooLargeError is the error of a request that went past the size limit.
func tooLargeError(m *message) *CellError {
	tl := m.tooLarge
	what := "this " + m.header.MsgType
	if m.header.MsgType == "execute_request" {
		what = "this cell"
	}
	return &CellError{Name: "MessageTooLarge", Value: fmt.Sprintf(
		"%s is %s (%d bytes), more than the kernel's limit of %s per message: it was not read; make it smaller (large data belongs in a file the cell reads)",
		what, budget.FormatSize(tl.size), tl.size, budget.FormatSize(tl.limit))}
}

// refuseLarge answers a request that went past the size limit with an
// error that says so; a cell shows it as its output too, and stops a Run
// All as a failing cell does. Other messages have nobody waiting: they
// are dropped.
func (k *Kernel) refuseLarge(s *socket, m *message) {
	t := m.header.MsgType
	k.debug.Printf("%s: refused %s of %d bytes (the limit is %d)", s.name, t, m.tooLarge.size, m.tooLarge.limit)
	if !strings.HasSuffix(t, "_request") {
		return
	}
	ce := tooLargeError(m)
	var extra map[string]any
	if t == "execute_request" && s == k.shell {
		// The cell fails as one that raises: its error shows as its output,
		// and the cells queued behind it are aborted (stop_on_error is in
		// the content, unread: the protocol's default holds).
		k.publish(m, "error", map[string]any{"ename": ce.Name, "evalue": ce.Value, "traceback": ce.lines()})
		k.mu.Lock()
		extra = map[string]any{"execution_count": k.count}
		k.mu.Unlock()
		k.abortQueued(m)
	}
	k.errorReply(s, m, strings.TrimSuffix(t, "_request")+"_reply", ce, extra)
}

// errorReply answers a request that failed, with extra fields in the reply.
func (k *Kernel) errorReply(s *socket, m *message, replyType string, ce *CellError, extra map[string]any) {
	content := map[string]any{"status": "error", "ename": shorten(ce.Name), "evalue": shorten(ce.Value), "traceback": shortLines(ce.lines())}
	for key, v := range extra {
		content[key] = v
	}
	k.reply(s, m, replyType, content)
}

func shortLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = shorten(l)
	}
	return out
}

// abort answers an execute request that was waiting when a cell failed,
// without running it (ipykernel's stop_on_error).
func (k *Kernel) abort(m *message) {
	k.status(m, "busy")
	k.reply(k.shell, m, "execute_reply", map[string]any{"status": "aborted"})
	k.status(m, "idle")
}

// After a cell fails with stop_on_error, the kernel takes the requests that
// arrive until none has come for abortQuiet (abortSettleMax at most) as
// queued behind it, before it replies: the gap between two of Run All's
// requests is a millisecond or two in the Notebook, the time its page takes
// to start a cell. Later, until abortGrace, a request is aborted still if its
// date says it was sent before the client could have seen the error.
const (
	abortQuiet     = 20 * time.Millisecond
	abortSettleMax = 250 * time.Millisecond
	abortGrace     = 2 * time.Second
)

// aborted reports whether m is an execute request that waited while a cell
// failed. A front end's Run All sends every cell at once, but the requests
// may reach the kernel after a quick cell has already failed (ipykernel's
// slower cells hide this): those whose header says they were sent before
// the client could have seen the failure, arriving within abortGrace of it,
// were queued behind it too. A request sent after the client saw the error
// runs.
func (k *Kernel) aborted(m *message) bool {
	if m.header.MsgType != "execute_request" {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if m.seq <= k.abortUpTo {
		return true
	}
	if k.seenAfter.IsZero() || k.clock.Now().Sub(k.failedAt) > abortGrace {
		return false
	}
	sent, _, err := sentAt(m)
	return err == nil && sent.Before(k.seenAfter)
}

// seenAfter returns, on the client's own clock, a time before which the
// client cannot have seen that the request failing failed, replied at
// repliedAt: the request's date, plus the time the kernel held it, plus one
// tick of the date's precision (a browser's dates are whole milliseconds).
// Only the client's clock is compared with the client's dates: a browser's
// clock and the kernel's can differ by as much as a quick cell takes.
func seenAfter(failing *message, repliedAt time.Time) time.Time {
	sent, tick, err := sentAt(failing)
	if err != nil || failing.arrived.IsZero() {
		return time.Time{}
	}
	return sent.Add(repliedAt.Sub(failing.arrived) + tick)
}

// sentAt parses a request's header date and says how precise it is.
func sentAt(m *message) (sent time.Time, tick time.Duration, err error) {
	sent, err = time.Parse(time.RFC3339Nano, m.header.Date)
	if err != nil {
		return sent, 0, err
	}
	tick = time.Second
	if i := strings.LastIndexByte(m.header.Date, '.'); i >= 0 {
		for _, c := range m.header.Date[i+1:] {
			if c < '0' || c > '9' {
				break
			}
			tick /= 10
		}
	}
	return sent, max(tick, time.Nanosecond), nil
}

func (k *Kernel) kernelInfo() map[string]any {
	li := k.exec.Info()
	banner := k.opts.Banner
	if banner == "" {
		banner = "nimbook kernel " + k.opts.Version + ", " + li.Name + " " + li.Version
	}
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       protocolVersion,
		"implementation":         "nimbook",
		"implementation_version": k.opts.Version,
		"language_info":          li,
		"banner":                 banner,
		"help_links":             []any{},
		"debugger":               false,
	}
}

// errorContent is the ename/evalue/traceback triple of a failed cell.
func errorContent(err error) *CellError {
	var ce *CellError
	if errors.As(err, &ce) {
		return ce
	}
	return &CellError{Name: "Error", Value: err.Error()}
}

// badRequestError is the error shown for a request that does not follow the protocol.
func badRequestError(err error) *CellError {
	return &CellError{Name: "BadRequest", Value: err.Error()}
}

func (k *Kernel) execute(s *socket, m *message) {
	req, err := parseExecute(m)
	if err != nil {
		k.debug.Printf("execute_request: %v", err)
		ce := badRequestError(err)
		k.publish(m, "error", map[string]any{"ename": ce.Name, "evalue": ce.Value, "traceback": ce.lines()})
		k.mu.Lock()
		n := k.count
		k.mu.Unlock()
		k.errorReply(s, m, "execute_reply", ce, map[string]any{"execution_count": n})
		return
	}
	cellCtx, cancel := context.WithCancel(k.ctx)
	k.mu.Lock()
	if req.storeHistory {
		k.count++
	}
	n := k.count
	k.cellCancel = cancel
	k.mu.Unlock()
	if req.storeHistory {
		k.hist.add(n, req.code)
	}
	defer func() {
		k.mu.Lock()
		k.cellCancel = nil
		k.mu.Unlock()
		cancel()
	}()

	if !req.silent {
		k.publish(m, "execute_input", map[string]any{"code": req.code, "execution_count": n})
	}
	out := newOutput(k, m, cellCtx, req)
	payload := []any{}
	var d *Display
	switch kind, arg := k.special(req.code); kind {
	case "exit":
		// As IPython's exit: the reply asks the front end to close, and the
		// kernel ends.
		payload = append(payload, map[string]any{"source": "ask_exit", "keepkernel": false})
		k.mu.Lock()
		k.exiting = true
		k.mu.Unlock()
	case "help":
		// As IPython's name?: the help goes to the front end's pager.
		payload = append(payload, map[string]any{"source": "page", "data": map[string]any{"text/plain": shorten(arg)}, "start": 0})
	case "nohelp":
		out.Stream("stdout", arg)
	default:
		pctx, stopProgress := k.watchProgress(cellCtx, m, n, req.silent)
		d, err = k.run(pctx, req.code, out)
		stopProgress()
	}
	if err != nil {
		out.close(nil, n)
		ce := errorContent(err)
		if cellCtx.Err() != nil && k.ctx.Err() == nil {
			ce = &CellError{Name: "KeyboardInterrupt", Value: "cell interrupted"}
		}
		if !req.silent {
			k.publish(m, "error", map[string]any{"ename": shorten(ce.Name), "evalue": shorten(ce.Value), "traceback": shortLines(ce.lines())})
		}
		if !req.silent && req.stopOnError {
			k.abortQueued(m)
		}
		k.errorReply(s, m, "execute_reply", ce, map[string]any{"execution_count": n})
		return
	}
	out.close(d, n)
	if req.storeHistory {
		k.hist.setOutput(n, d)
	}
	k.reply(s, m, "execute_reply", map[string]any{
		"status": "ok", "execution_count": n, "user_expressions": map[string]any{}, "payload": payload,
	})
}

// abortQueued makes the execute requests waiting behind m, which failed,
// be answered "aborted" (Run All stops at the failing cell). A front end
// sends Run All's requests in one burst, but a quick cell can fail before
// the rest of it arrives: the caller's reply waits for the burst to end,
// so that nothing the client sent before it saw the error runs.
func (k *Kernel) abortQueued(m *message) {
	received := k.inbox.settle(abortQuiet, abortSettleMax)
	k.mu.Lock()
	k.abortUpTo = received
	k.failedAt = k.clock.Now()
	k.seenAfter = seenAfter(m, k.failedAt)
	k.mu.Unlock()
}

// run calls Execute, turning a panic into an error: a bug in a cell's
// implementation must not kill the session.
func (k *Kernel) run(ctx context.Context, code string, out Output) (d *Display, err error) {
	k.execMu.Lock()
	defer k.execMu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			k.log.Printf("panic in Execute: %v", r)
			d, err = nil, &CellError{Name: "InternalError", Value: fmt.Sprint(r)}
		}
	}()
	return k.exec.Execute(ctx, code, out)
}

func orMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// safely runs f under the executor lock, recovering from a panic.
func (k *Kernel) safely(what string, f func()) (ok bool) {
	k.execMu.Lock()
	defer k.execMu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			k.log.Printf("panic in %s: %v", what, r)
			ok = false
		}
	}()
	f()
	return true
}

// badReply answers a request whose content is malformed.
func (k *Kernel) badReply(s *socket, m *message, replyType string, err error) {
	k.debug.Printf("%v", err)
	k.errorReply(s, m, replyType, badRequestError(err), nil)
}

func (k *Kernel) complete(s *socket, m *message) {
	c, err := parseCode(m, true)
	if err != nil {
		k.badReply(s, m, "complete_reply", err)
		return
	}
	var matches []string
	var start, end int
	cur := byteOffset(c.code, c.cursor)
	if !k.safely("Complete", func() { matches, start, end = k.exec.Complete(c.code, cur) }) {
		matches, start, end = nil, cur, cur
	}
	if matches == nil {
		matches = []string{}
	}
	k.reply(s, m, "complete_reply", map[string]any{
		"status": "ok", "matches": matches,
		"cursor_start": runeOffset(c.code, start), "cursor_end": runeOffset(c.code, end),
		"metadata": map[string]any{},
	})
}

func (k *Kernel) inspect(s *socket, m *message) {
	c, err := parseCode(m, true)
	if err != nil {
		k.badReply(s, m, "inspect_reply", err)
		return
	}
	var text string
	var found bool
	if !k.safely("Inspect", func() { text, found = k.exec.Inspect(c.code, byteOffset(c.code, c.cursor)) }) {
		found = false
	}
	data := map[string]any{}
	if found {
		data["text/plain"] = shorten(text)
	}
	k.reply(s, m, "inspect_reply", map[string]any{"status": "ok", "found": found, "data": data, "metadata": map[string]any{}})
}

func (k *Kernel) isComplete(s *socket, m *message) {
	c, err := parseCode(m, false)
	if err != nil {
		k.badReply(s, m, "is_complete_reply", err)
		return
	}
	var status, indent string
	if !k.safely("IsComplete", func() { status, indent = k.exec.IsComplete(c.code) }) {
		status = "unknown"
	}
	content := map[string]any{"status": status}
	switch status {
	case "complete", "invalid":
	case "incomplete":
		content["indent"] = indent
	default:
		content["status"] = "unknown"
	}
	k.reply(s, m, "is_complete_reply", content)
}
