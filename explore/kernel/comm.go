package kernel

import (
	"context"
	"encoding/json"
)

// Comms are the Jupyter protocol's channels between a kernel object and a
// front-end model: ipywidgets' sliders are models at the end of comms of
// target "jupyter.widget". A cell opens them through its Output (see
// Comms); what the front end sends back on them (a slider moved) goes to
// the cell's CommHandler.

// WidgetTarget is the comm target of the widget models of ipywidgets.
const WidgetTarget = "jupyter.widget"

// widgetVersionTarget is the comm that the widgets' front end of
// ipywidgets 6 (jupyter-js-widgets 2, Debian 12's) opens to check the
// kernel's widget version.
const widgetVersionTarget = "jupyter.widget.version"

// WidgetFrontendVersion is the version of jupyter-js-widgets the models a
// kernel opens are written for (ipywidgets 6's, as Debian 12 ships).
const WidgetFrontendVersion = "~2.1.4"

// CommHandler receives what the front end sends on a comm a cell opened.
// It runs as a cell does, one Executor call at a time: ctx is cancelled on
// interrupt, and out shows output with the front end's message as parent
// (out implements Comms too).
type CommHandler func(ctx context.Context, data map[string]any, out Output)

// Comms is what the kernel's Output offers beyond Output: comms to the
// front end. An Output without it (a notebook run without Jupyter) has no
// front end to draw widgets in.
type Comms interface {
	// OpenComm opens a comm to target with data (a model's state) and
	// returns its id; h, when not nil, receives the front end's messages.
	OpenComm(target string, data map[string]any, h CommHandler) string
	// SendComm sends data on an open comm.
	SendComm(id string, data map[string]any)
	// ClearOutput clears the output the outputs of this Output go to, at
	// once or (wait) when the next output comes.
	ClearOutput(wait bool)
	// MsgID is the id of the request this Output answers: the parent of
	// what it shows, which a widget Output model captures.
	MsgID() string
}

var _ Comms = (*output)(nil)

// comm is a comm the kernel knows: opened by a cell (h may be nil) or by
// the front end (the widget version check).
type comm struct {
	target string
	h      CommHandler
}

func (o *output) OpenComm(target string, data map[string]any, h CommHandler) string {
	id := newID()
	o.k.mu.Lock()
	o.k.comms[id] = comm{target: target, h: h}
	o.k.mu.Unlock()
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked() // what the cell printed first comes first
	o.k.publish(o.req, "comm_open", map[string]any{"comm_id": id, "target_name": target, "data": orMap(data), "metadata": map[string]any{}})
	return id
}

func (o *output) SendComm(id string, data map[string]any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	o.k.publish(o.req, "comm_msg", map[string]any{"comm_id": id, "data": orMap(data)})
}

func (o *output) ClearOutput(wait bool) {
	if o.silent {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	o.flushLocked()
	o.k.publish(o.req, "clear_output", map[string]any{"wait": wait})
}

func (o *output) MsgID() string { return o.req.header.MsgID }

// commOpen answers a comm the front end opens: the widgets' version check
// gets the version, and a comm to any other target is closed at once (the
// kernel has no such target, and a front end waits otherwise).
func (k *Kernel) commOpen(m *message) {
	c, err := parseContent(m)
	if err != nil {
		k.debug.Printf("comm_open: %v", err)
		return
	}
	id, err := c.str("comm_id", true)
	if err != nil {
		k.debug.Printf("comm_open: %v", err)
		return
	}
	target, _ := c.str("target_name", false)
	if target == widgetVersionTarget {
		k.mu.Lock()
		k.comms[id] = comm{target: target}
		k.mu.Unlock()
		k.publish(m, "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"version": WidgetFrontendVersion}})
		return
	}
	k.debug.Printf("comm_open: no comm target %q; closing comm %s", target, id)
	k.publish(m, "comm_close", map[string]any{"comm_id": id, "data": map[string]any{}})
}

// commMsg hands a front end's message on a comm to the handler of the cell
// that opened it, run as a cell: interruptible, its outputs with the
// message as parent.
func (k *Kernel) commMsg(m *message) {
	c, err := parseContent(m)
	if err != nil {
		k.debug.Printf("comm_msg: %v", err)
		return
	}
	id, _ := c.str("comm_id", true)
	k.mu.Lock()
	cm, ok := k.comms[id]
	k.mu.Unlock()
	if !ok || cm.h == nil {
		k.debug.Printf("comm_msg: comm %q has no handler", id)
		return
	}
	var data map[string]any
	if raw := c.raw("data"); raw != nil {
		if err := json.Unmarshal(raw, &data); err != nil {
			k.debug.Printf("comm_msg: %v", c.wrongType("data", "an object", raw))
			return
		}
	}
	ctx, cancel := context.WithCancel(k.ctx)
	k.mu.Lock()
	k.cellCancel = cancel
	k.mu.Unlock()
	defer func() {
		k.mu.Lock()
		k.cellCancel = nil
		k.mu.Unlock()
		cancel()
	}()
	out := newOutput(k, m, ctx, executeRequest{})
	k.safely("comm handler", func() { cm.h(ctx, orMap(data), out) })
	out.close(nil, 0)
}

// commClose forgets a comm the front end closed.
func (k *Kernel) commClose(m *message) {
	c, err := parseContent(m)
	if err != nil {
		return
	}
	id, _ := c.str("comm_id", false)
	k.mu.Lock()
	delete(k.comms, id)
	k.mu.Unlock()
}

// commInfo lists the open comms, of one target when the request names it.
func (k *Kernel) commInfo(m *message) map[string]any {
	target := ""
	if c, err := parseContent(m); err == nil {
		target, _ = c.str("target_name", false)
	}
	comms := map[string]any{}
	k.mu.Lock()
	for id, cm := range k.comms {
		if target == "" || cm.target == target {
			comms[id] = map[string]any{"target_name": cm.target}
		}
	}
	k.mu.Unlock()
	return map[string]any{"status": "ok", "comms": comms}
}
