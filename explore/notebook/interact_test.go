package notebook

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/kernel"
)

// commsOut is an Output with comms, as the kernel's: it records what a cell
// sends to the front end and keeps the comm handlers.
type commsOut struct {
	id       string // MsgID
	opened   []map[string]any
	handlers map[string]kernel.CommHandler
	order    []string // the comms with a handler, in order
	sent     []string // comm_msg data, printed
	cleared  int
	shown    []string // text/plain of displays
	streams  []string
}

func newCommsOut(id string) *commsOut {
	return &commsOut{id: id, handlers: map[string]kernel.CommHandler{}}
}

func (o *commsOut) Stream(_, text string) { o.streams = append(o.streams, text) }
func (o *commsOut) Display(d *kernel.Display) {
	s, _ := d.Data["text/plain"].(string)
	if v, ok := d.Data["application/vnd.jupyter.widget-view+json"]; ok {
		s = fmt.Sprint("view ", v.(map[string]any)["model_id"])
	}
	o.shown = append(o.shown, s)
}
func (o *commsOut) Input(string, bool) (string, error) { return "", nil }
func (o *commsOut) OpenComm(target string, data map[string]any, h kernel.CommHandler) string {
	id := fmt.Sprintf("c%d", len(o.opened))
	o.opened = append(o.opened, data)
	if h != nil {
		o.handlers[id] = h
		o.order = append(o.order, id)
	}
	return id
}
func (o *commsOut) SendComm(id string, data map[string]any) {
	o.sent = append(o.sent, fmt.Sprint(id, " ", data))
}
func (o *commsOut) ClearOutput(bool) { o.cleared++ }
func (o *commsOut) MsgID() string    { return o.id }

// model finds the opened model of a name.
func (o *commsOut) model(name string) (string, map[string]any) {
	for i, st := range o.opened {
		if st["_model_name"] == name {
			return fmt.Sprintf("c%d", i), st
		}
	}
	return "", nil
}

func TestInteract(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	out := newCommsOut("exec-1")
	d, err := s.Execute(ctx, `interact(lambda r, odd, rule: "%s %d %s" % (rule, r, odd), r=(1, 9), odd=True, rule=["at-most", "exactly"])`, out)
	if err != nil || d != nil {
		t.Fatalf("interact: %v, result %v; want no result (the widgets show it)", err, d)
	}
	// Every model's state twice: as jupyter-js-widgets 2 reads it, and
	// under "state" as nbclient and ipywidgets 7 read it.
	for i, st := range out.opened {
		inner, ok := st["state"].(map[string]any)
		if !ok || inner["_model_name"] != st["_model_name"] || st["buffer_paths"] == nil {
			t.Errorf("comm %d: data %v has no state and buffer_paths", i, st)
		}
	}
	sid, slider := out.model("IntSliderModel")
	if slider == nil || slider["min"] != 1 || slider["max"] != 9 || slider["value"] != 5 || slider["description"] != "r" {
		t.Fatalf("slider %v", slider)
	}
	if _, cb := out.model("CheckboxModel"); cb == nil || cb["value"] != true {
		t.Errorf("checkbox %v", cb)
	}
	did, dd := out.model("DropdownModel")
	if dd == nil || fmt.Sprint(dd["_options_labels"]) != "[at-most exactly]" || dd["value"] != "at-most" {
		t.Errorf("dropdown %v", dd)
	}
	bid, box := out.model("VBoxModel")
	oid, _ := out.model("OutputModel")
	if box == nil || !strings.Contains(fmt.Sprint(box["children"]), "IPY_MODEL_"+oid) {
		t.Fatalf("box %v, output %s", box, oid)
	}
	// Displayed (the comm's display message and a view), and the first
	// result in the Output widget, captured under the cell's request.
	want := []string{"view " + bid, `"at-most 5 True"`}
	if fmt.Sprint(out.shown) != fmt.Sprint(want) {
		t.Errorf("shown %q, want %q", out.shown, want)
	}
	if !strings.Contains(strings.Join(out.sent, "\n"), bid+" map[method:display]") ||
		!strings.Contains(strings.Join(out.sent, "\n"), oid+" map[method:update state:map[msg_id:exec-1]]") {
		t.Errorf("sent %q", out.sent)
	}

	tests := []struct {
		name  string
		comm  string
		data  map[string]any
		shown string // "" : nothing runs
	}{
		{"slider, ipywidgets 6", sid, map[string]any{"method": "backbone", "sync_data": map[string]any{"value": 7.0}}, `"at-most 7 True"`},
		{"menu, ipywidgets 7", did, map[string]any{"method": "update", "state": map[string]any{"value": "exactly"}}, `"exactly 7 True"`},
		{"out of range", sid, map[string]any{"method": "backbone", "sync_data": map[string]any{"value": 12.0}}, ""},
		{"not an int", sid, map[string]any{"method": "backbone", "sync_data": map[string]any{"value": 2.5}}, ""},
		{"unknown choice", did, map[string]any{"method": "backbone", "sync_data": map[string]any{"value": "ruler"}}, ""},
		{"no value", sid, map[string]any{"method": "request_state"}, ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up := newCommsOut(fmt.Sprintf("msg-%d", i))
			out.handlers[tt.comm](ctx, tt.data, up)
			if tt.shown == "" {
				if len(up.shown)+up.cleared+len(up.sent) > 0 {
					t.Errorf("ran: shown %q, sent %q", up.shown, up.sent)
				}
				return
			}
			if fmt.Sprint(up.shown) != fmt.Sprint([]string{tt.shown}) || up.cleared != 1 {
				t.Errorf("shown %q (cleared %d), want %q", up.shown, up.cleared, tt.shown)
			}
			// The Output widget captures this request's outputs, then no more.
			sent := strings.Join(up.sent, "\n")
			if !strings.Contains(sent, fmt.Sprintf("msg_id:msg-%d]", i)) || !strings.HasSuffix(sent, "msg_id:]]") {
				t.Errorf("sent %q", up.sent)
			}
		})
	}

	// An error in the function shows in the Output widget, and the
	// session goes on.
	if _, err := s.Execute(ctx, `interact(lambda n: 10 // n, n=(0, 2))`, out); err != nil {
		t.Fatal(err)
	}
	up := newCommsOut("msg-err")
	out.handlers[out.order[len(out.order)-1]](ctx, map[string]any{"method": "backbone", "sync_data": map[string]any{"value": 0.0}}, up)
	if len(up.streams) != 1 || !strings.Contains(up.streams[0], "division by zero") {
		t.Errorf("error shown as %q", up.streams)
	}
}

// Without a front end (nimbook run, eval), interact is the function at
// the initial values.
func TestInteractWithoutFrontEnd(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := s.Execute(context.Background(), `interact(lambda r, x, c: (r, x, c), r=(1, 9, 2), x=False, c=[3, 4])`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Data["text/plain"]; got != "(5, False, 3)" {
		t.Errorf("result %v, want (5, False, 3)", got)
	}
}

func TestInteractErrors(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ code, want string }{
		{`interact(lambda r: r)`, "no controls"},
		{`interact(3, r=(1, 2))`, "not a function"},
		{`interact(lambda r: r, r=(1, 2, 3, 4))`, "a range (min, max)"},
		{`interact(lambda r: r, r=(1, "a"))`, "of ints"},
		{`interact(lambda r: r, r=(5, 1))`, "min ≤ max"},
		{`interact(lambda r: r, r=(1, 5, 0))`, "step > 0"},
		{`interact(lambda r: r, r=[])`, "one at least"},
		{`interact(lambda r: r, r=["a", "a"])`, "comes twice"},
		{`interact(lambda r: r, r="x")`, "a list of choices"},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			_, err := s.Execute(context.Background(), tt.code, newCommsOut("x"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}
