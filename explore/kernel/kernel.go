package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
)

// Options tune a Kernel. The zero value is valid.
type Options struct {
	Log     io.Writer // protocol problems and lifecycle events; nil discards them
	Version string    // implementation_version in kernel_info; default "0"
	Banner  string    // shown by consoles; default names the language
}

// Kernel is one running Jupyter kernel: five sockets and an Executor.
type Kernel struct {
	info    ConnectionInfo
	exec    Executor
	opts    Options
	log     *log.Logger
	sig     signer
	session string

	ctx    context.Context // lives until Run returns; cancels the sockets
	cancel context.CancelFunc

	shell, control, stdin, iopub *socket
	hb                           zmq4.Socket

	execMu sync.Mutex // one Executor call at a time

	mu         sync.Mutex
	count      int                // execution_count
	cellCancel context.CancelFunc // cancels the running cell, nil between cells
	stopped    chan struct{}      // closed by shutdown_request
	stopOnce   sync.Once

	closeOnce sync.Once
	closeErr  error

	joined  bool // first iopub publish done (slow-joiner wait)
	inputCh chan *message
}

// socket serialises sends on one zmq4 socket.
type socket struct {
	mu sync.Mutex
	zmq4.Socket
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
	ctx, cancel := context.WithCancel(context.Background())
	k := &Kernel{
		info:    info,
		exec:    exec,
		opts:    opts,
		log:     log.New(opts.Log, "kernel: ", log.LstdFlags|log.Lmicroseconds),
		sig:     signer{key: []byte(info.Key)},
		session: newID(),
		ctx:     ctx,
		cancel:  cancel,
		stopped: make(chan struct{}),
		inputCh: make(chan *message, 4),
	}
	o := zmq4.WithTimeout(sendTimeout)
	k.shell = &socket{Socket: zmq4.NewRouter(ctx, o)}
	k.control = &socket{Socket: zmq4.NewRouter(ctx, o)}
	k.stdin = &socket{Socket: zmq4.NewRouter(ctx, o)}
	k.iopub = &socket{Socket: zmq4.NewPub(ctx, o)}
	k.hb = zmq4.NewRep(ctx, o)
	binds := []struct {
		name string
		s    zmq4.Socket
		port *int
	}{
		{"shell", k.shell, &k.info.ShellPort},
		{"control", k.control, &k.info.ControlPort},
		{"stdin", k.stdin, &k.info.StdinPort},
		{"iopub", k.iopub, &k.info.IOPubPort},
		{"heartbeat", k.hb, &k.info.HBPort},
	}
	for _, b := range binds {
		if err := b.s.Listen(k.info.endpoint(*b.port)); err != nil {
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
	k.log.Printf("listening: transport %s, ip %s, shell %d, control %d, stdin %d, iopub %d, hb %d",
		k.info.Transport, k.info.IP, k.info.ShellPort, k.info.ControlPort, k.info.StdinPort, k.info.IOPubPort, k.info.HBPort)
	var wg sync.WaitGroup
	loops := []func(){k.heartbeat, func() { k.serve(k.shell) }, func() { k.serve(k.control) }, k.serveStdin}
	for _, f := range loops {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	var err error
	select {
	case <-ctx.Done():
		err = ctx.Err()
		k.log.Printf("stopping: %v", err)
	case <-k.stopped:
		k.log.Printf("shutdown requested")
	}
	k.Interrupt()
	// The PUB socket queues messages and has no flush: give the last status
	// messages a moment to leave before the sockets close.
	time.Sleep(50 * time.Millisecond)
	k.cancel()
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
			if k.ctx.Err() == nil {
				k.log.Printf("heartbeat: %v", err)
			}
			return
		}
		if err := k.hb.Send(msg); err != nil && k.ctx.Err() == nil {
			k.log.Printf("heartbeat: %v", err)
		}
	}
}

// receive reads the next message that verifies on s; it returns nil when the
// kernel stops.
func (k *Kernel) receive(s *socket, name string) *message {
	for {
		raw, err := s.Recv()
		if err != nil {
			if k.ctx.Err() == nil {
				k.log.Printf("%s: receive: %v", name, err)
			}
			if k.ctx.Err() != nil {
				return nil
			}
			time.Sleep(10 * time.Millisecond) // do not spin on a persistent error
			continue
		}
		m, err := k.sig.decode(raw.Frames)
		if err != nil {
			k.log.Printf("%s: dropped message: %v", name, err) // never answered
			continue
		}
		return m
	}
}

// serve handles the requests of the shell or control socket, one at a time.
func (k *Kernel) serve(s *socket) {
	name := "shell"
	if s == k.control {
		name = "control"
	}
	for {
		m := k.receive(s, name)
		if m == nil {
			return
		}
		k.handle(s, m)
	}
}

// serveStdin passes input replies to the cell waiting for them.
func (k *Kernel) serveStdin() {
	for {
		m := k.receive(k.stdin, "stdin")
		if m == nil {
			return
		}
		if m.header.MsgType != "input_reply" {
			k.log.Printf("stdin: ignored %s", m.header.MsgType)
			continue
		}
		select {
		case k.inputCh <- m:
		default:
			k.log.Printf("stdin: input_reply nobody asked for")
		}
	}
}

// reply sends a reply to request m on the socket it came from.
func (k *Kernel) reply(s *socket, m *message, msgType string, content any) {
	k.sendTo(s, m.identities, m, msgType, content)
}

func (k *Kernel) sendTo(s *socket, ids [][]byte, parent *message, msgType string, content any) *message {
	out := &message{identities: ids, header: newHeader(k.session, msgType), parent: parent.rawHeader}
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

// publish sends a message on iopub, with request m as parent.
func (k *Kernel) publish(m *message, msgType string, content any) {
	k.iopub.mu.Lock()
	if !k.joined {
		// A PUB socket drops messages sent before a subscriber has connected
		// and subscribed; clients wait for the first status message.
		k.joined = true
		if t, ok := k.iopub.Socket.(zmq4.Topics); ok {
			deadline := time.Now().Add(slowJoinerWait)
			for len(t.Topics()) == 0 && time.Now().Before(deadline) && k.ctx.Err() == nil {
				time.Sleep(5 * time.Millisecond)
			}
		}
	}
	k.iopub.mu.Unlock()
	topic := []byte("kernel." + k.session + "." + msgType)
	k.sendTo(k.iopub, [][]byte{topic}, m, msgType, content)
}

func (k *Kernel) status(m *message, state string) {
	k.publish(m, "status", map[string]string{"execution_state": state})
}

func (k *Kernel) stop() {
	k.stopOnce.Do(func() { close(k.stopped) })
}

// handle answers one request, between status busy and status idle.
func (k *Kernel) handle(s *socket, m *message) {
	k.status(m, "busy")
	defer k.status(m, "idle")
	switch t := m.header.MsgType; t {
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
		var c struct {
			Restart bool `json:"restart"`
		}
		_ = json.Unmarshal(m.content, &c)
		k.Interrupt()
		k.reply(s, m, "shutdown_reply", map[string]any{"status": "ok", "restart": c.Restart})
		k.stop()
	case "comm_info_request":
		k.reply(s, m, "comm_info_reply", map[string]any{"status": "ok", "comms": map[string]any{}})
	case "history_request":
		k.reply(s, m, "history_reply", map[string]any{"status": "ok", "history": []any{}})
	case "comm_open", "comm_msg", "comm_close":
		// No comm targets: widgets are not supported. Nothing to answer.
	default:
		k.log.Printf("unsupported message type %q", t)
	}
}

func (k *Kernel) kernelInfo() map[string]any {
	li := k.exec.Info()
	version := k.opts.Version
	if version == "" {
		version = "0"
	}
	banner := k.opts.Banner
	if banner == "" {
		banner = "nimbook kernel, " + li.Name + " " + li.Version
	}
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       protocolVersion,
		"implementation":         "nimbook",
		"implementation_version": version,
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

func (k *Kernel) execute(s *socket, m *message) {
	var c struct {
		Code         string `json:"code"`
		Silent       bool   `json:"silent"`
		StoreHistory *bool  `json:"store_history"`
		AllowStdin   bool   `json:"allow_stdin"`
	}
	if err := json.Unmarshal(m.content, &c); err != nil {
		k.log.Printf("execute_request: %v", err)
	}
	store := !c.Silent && (c.StoreHistory == nil || *c.StoreHistory)
	cellCtx, cancel := context.WithCancel(k.ctx)
	k.mu.Lock()
	if store {
		k.count++
	}
	n := k.count
	k.cellCancel = cancel
	k.mu.Unlock()
	defer func() {
		k.mu.Lock()
		k.cellCancel = nil
		k.mu.Unlock()
		cancel()
	}()

	if !c.Silent {
		k.publish(m, "execute_input", map[string]any{"code": c.Code, "execution_count": n})
	}
	out := &output{k: k, req: m, ctx: cellCtx, silent: c.Silent, allowStdin: c.AllowStdin}
	d, err := k.run(cellCtx, c.Code, out)
	if err != nil {
		ce := errorContent(err)
		if cellCtx.Err() != nil && k.ctx.Err() == nil {
			ce = &CellError{Name: "KeyboardInterrupt", Value: "cell interrupted"}
		}
		if !c.Silent {
			k.publish(m, "error", map[string]any{"ename": ce.Name, "evalue": ce.Value, "traceback": ce.lines()})
		}
		k.reply(s, m, "execute_reply", map[string]any{
			"status": "error", "execution_count": n,
			"ename": ce.Name, "evalue": ce.Value, "traceback": ce.lines(),
		})
		return
	}
	if d != nil && len(d.Data) > 0 && !c.Silent {
		k.publish(m, "execute_result", map[string]any{"execution_count": n, "data": d.Data, "metadata": orMap(d.Metadata)})
	}
	k.reply(s, m, "execute_reply", map[string]any{
		"status": "ok", "execution_count": n, "user_expressions": map[string]any{}, "payload": []any{},
	})
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

func (k *Kernel) complete(s *socket, m *message) {
	var c struct {
		Code   string `json:"code"`
		Cursor int    `json:"cursor_pos"`
	}
	_ = json.Unmarshal(m.content, &c)
	var matches []string
	var start, end int
	cur := byteOffset(c.Code, c.Cursor)
	if !k.safely("Complete", func() { matches, start, end = k.exec.Complete(c.Code, cur) }) {
		matches, start, end = nil, cur, cur
	}
	if matches == nil {
		matches = []string{}
	}
	k.reply(s, m, "complete_reply", map[string]any{
		"status": "ok", "matches": matches,
		"cursor_start": runeOffset(c.Code, start), "cursor_end": runeOffset(c.Code, end),
		"metadata": map[string]any{},
	})
}

func (k *Kernel) inspect(s *socket, m *message) {
	var c struct {
		Code   string `json:"code"`
		Cursor int    `json:"cursor_pos"`
	}
	_ = json.Unmarshal(m.content, &c)
	var text string
	var found bool
	if !k.safely("Inspect", func() { text, found = k.exec.Inspect(c.Code, byteOffset(c.Code, c.Cursor)) }) {
		found = false
	}
	data := map[string]any{}
	if found {
		data["text/plain"] = text
	}
	k.reply(s, m, "inspect_reply", map[string]any{"status": "ok", "found": found, "data": data, "metadata": map[string]any{}})
}

func (k *Kernel) isComplete(s *socket, m *message) {
	var c struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(m.content, &c)
	var status, indent string
	if !k.safely("IsComplete", func() { status, indent = k.exec.IsComplete(c.Code) }) {
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

// output is the Output of one cell.
type output struct {
	k          *Kernel
	req        *message
	ctx        context.Context
	silent     bool
	allowStdin bool
}

func (o *output) Stream(name, text string) {
	if o.silent || text == "" {
		return
	}
	o.k.publish(o.req, "stream", map[string]string{"name": streamName(name), "text": text})
}

func (o *output) Display(d *Display) {
	if o.silent || d == nil || len(d.Data) == 0 {
		return
	}
	o.k.publish(o.req, "display_data", map[string]any{"data": d.Data, "metadata": orMap(d.Metadata), "transient": map[string]any{}})
}

// errNoStdin is returned by Input when the frontend does not take input.
var errNoStdin = errors.New("kernel: input is not available: the frontend does not accept input (allow_stdin is false)")

func (o *output) Input(prompt string, password bool) (string, error) {
	if !o.allowStdin {
		return "", errNoStdin
	}
	// Forget replies to earlier, abandoned requests.
	for len(o.k.inputCh) > 0 {
		<-o.k.inputCh
	}
	req := o.k.sendTo(o.k.stdin, o.req.identities, o.req, "input_request", map[string]any{"prompt": prompt, "password": password})
	if req == nil {
		return "", errors.New("kernel: input: could not send the request")
	}
	for {
		select {
		case <-o.ctx.Done():
			return "", fmt.Errorf("kernel: input: %w", o.ctx.Err())
		case m := <-o.k.inputCh:
			var p header
			if json.Unmarshal(m.parent, &p) == nil && p.MsgID != "" && p.MsgID != req.header.MsgID {
				continue // a reply to another request
			}
			var c struct {
				Value string `json:"value"`
			}
			if err := json.Unmarshal(m.content, &c); err != nil {
				return "", fmt.Errorf("kernel: input: %w", err)
			}
			return c.Value, nil
		}
	}
}
