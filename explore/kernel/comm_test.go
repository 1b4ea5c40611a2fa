package kernel_test

import (
	"fmt"
	"testing"
)

// TestComms walks the widget comm protocol as Notebook 6 with ipywidgets 6
// drives it: a cell opens a widget comm (comm_open on iopub, listed by
// comm_info), the front end's value on it (comm_msg on shell, "backbone")
// runs the cell's handler as a cell runs, its outputs with that message as
// parent; the front end's version check is answered; a comm the front end
// closes is forgotten, and a message on an unknown comm does nothing.
func TestComms(t *testing.T) {
	c, _, _ := start(t, tcpInfo())
	r, io := execute(c, "slider r", nil)
	if r.Content["status"] != "ok" || types(io) != "busy,execute_input,comm_open,idle" {
		t.Fatalf("slider cell: %v, iopub %s", r.Content, types(io))
	}
	open := io[2].Content
	id, _ := open["comm_id"].(string)
	if open["target_name"] != "jupyter.widget" || id == "" || open["data"].(map[string]any)["_model_name"] != "IntSliderModel" {
		t.Fatalf("comm_open %v", open)
	}

	commInfo := func(target string) map[string]any {
		t.Helper()
		q := map[string]any{}
		if target != "" {
			q["target_name"] = target
		}
		m := c.send("shell", "comm_info_request", q)
		rep := c.reply("shell", m)
		c.iopub(m)
		comms, _ := rep.Content["comms"].(map[string]any)
		return comms
	}
	tests := []struct {
		target string
		listed bool
	}{{"", true}, {"jupyter.widget", true}, {"other", false}}
	for _, tt := range tests {
		t.Run("comm_info/"+tt.target, func(t *testing.T) {
			got, ok := commInfo(tt.target)[id].(map[string]any)
			if ok != tt.listed || ok && got["target_name"] != "jupyter.widget" {
				t.Errorf("comm_info(%q) lists %s: %v, want %v", tt.target, id, got, tt.listed)
			}
		})
	}

	// The slider moved to 7.
	m := c.send("shell", "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "backbone", "sync_data": map[string]any{"value": 7}}})
	io = c.iopub(m)
	if got := types(io); got != "busy,clear_output,display_data,idle" {
		t.Fatalf("comm_msg: iopub %s, want busy,clear_output,display_data,idle", got)
	}
	if io[1].Content["wait"] != true {
		t.Errorf("clear_output %v, want wait", io[1].Content)
	}
	want := fmt.Sprintf("r=7 (%s)", m) // the handler's Output answers the comm_msg
	if got := io[2].Content["data"].(map[string]any)["text/plain"]; got != want {
		t.Errorf("display %q, want %q", got, want)
	}

	// The widgets' version check (jupyter-js-widgets 2) is answered and
	// stays open.
	m = c.send("shell", "comm_open", map[string]any{"comm_id": "v-1", "target_name": "jupyter.widget.version", "data": map[string]any{}})
	io = c.iopub(m)
	if types(io) != "busy,comm_msg,idle" || io[1].Content["comm_id"] != "v-1" || io[1].Content["data"].(map[string]any)["version"] != "~2.1.4" {
		t.Errorf("version check: iopub %s %v", types(io), io)
	}

	// Closed by the front end: forgotten; its messages do nothing.
	m = c.send("shell", "comm_close", map[string]any{"comm_id": id, "data": map[string]any{}})
	c.iopub(m)
	if _, ok := commInfo("")[id]; ok {
		t.Errorf("comm %s still listed after comm_close", id)
	}
	m = c.send("shell", "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "backbone", "sync_data": map[string]any{"value": 3}}})
	if got := types(c.iopub(m)); got != "busy,idle" {
		t.Errorf("comm_msg on a closed comm: iopub %s, want busy,idle", got)
	}
}
