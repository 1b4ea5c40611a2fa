package notebook

import (
	"context"
	"fmt"
	"math"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/kernel"
)

// interact(f, **controls) draws a control per keyword argument in a
// Jupyter front end and shows f(**values) under them, again at each change:
// the widgets of ipywidgets through the comm protocol (kernel.Comms). The
// models are those of ipywidgets 6 (jupyter-js-widgets 2.1, which Debian 12
// ships with Notebook 6): a VBox of the controls and an Output widget; a
// new result goes into the Output widget by setting its msg_id to the
// request being answered, which makes the front end route that request's
// outputs into it (as ipywidgets' own interact does). Without a front end
// (nimbook run, eval) interact is f called with the initial values.

// control is one widget of an interact.
type control struct {
	name    string
	kind    string // "int" (IntSlider), "bool" (Checkbox), "choice" (Dropdown)
	min     int
	max     int
	step    int
	options []starlark.Value // choice
	labels  []string         // choice: what the dropdown shows
	value   starlark.Value
}

// parseControl reads one keyword argument of interact.
func parseControl(name string, v starlark.Value) (*control, error) {
	switch v := v.(type) {
	case starlark.Bool:
		return &control{name: name, kind: "bool", value: v}, nil
	case starlark.Tuple:
		if len(v) != 2 && len(v) != 3 {
			break
		}
		var n [3]int
		n[2] = 1
		for i, x := range v {
			if err := starlark.AsInt(x, &n[i]); err != nil || x.Type() != "int" {
				return nil, fmt.Errorf("interact: %s=%s: a range is (min, max) or (min, max, step) of ints", name, v)
			}
		}
		lo, hi, step := n[0], n[1], n[2]
		if lo > hi || step <= 0 {
			return nil, fmt.Errorf("interact: %s=%s: a range needs min ≤ max and a step > 0", name, v)
		}
		// The middle, on a step, as ipywidgets starts a slider.
		mid := lo + (hi-lo)/2/step*step
		return &control{name: name, kind: "int", min: lo, max: hi, step: step, value: starlark.MakeInt(mid)}, nil
	case *starlark.List:
		if v.Len() == 0 {
			return nil, fmt.Errorf("interact: %s=[]: a list of choices needs one at least", name)
		}
		c := &control{name: name, kind: "choice"}
		seen := map[string]bool{}
		for i := range v.Len() {
			x := v.Index(i)
			label := x.String()
			if s, ok := x.(starlark.String); ok {
				label = string(s)
			}
			if seen[label] {
				return nil, fmt.Errorf("interact: %s: the choice %s comes twice", name, label)
			}
			seen[label] = true
			c.options = append(c.options, x)
			c.labels = append(c.labels, label)
		}
		c.value = c.options[0]
		return c, nil
	}
	return nil, fmt.Errorf("interact: %s=%s: give a range (min, max) or (min, max, step) of ints (a slider), True or False (a checkbox), or a list of choices (a menu)", name, v)
}

// widgetState is the state every widget model of jupyter-js-widgets 2.1
// starts with.
func widgetState(model, view string) map[string]any {
	return map[string]any{
		"_model_module": "jupyter-js-widgets", "_model_module_version": kernel.WidgetFrontendVersion, "_model_name": model,
		"_view_module": "jupyter-js-widgets", "_view_module_version": kernel.WidgetFrontendVersion, "_view_name": view,
		"msg_throttle": 1,
	}
}

// openData is what a comm_open carries for a model of state st: the
// state itself, as jupyter-js-widgets 2 reads it, and under "state" with
// its "buffer_paths", as ipywidgets 7 and later and nbclient (nbconvert
// --execute) read it.
func openData(st map[string]any) map[string]any {
	d := make(map[string]any, len(st)+2)
	for k, v := range st {
		d[k] = v
	}
	d["state"] = st
	d["buffer_paths"] = []any{}
	return d
}

// state is the control's model state, its layout (and style) being models
// of their own.
func (c *control) state(layout, style string) map[string]any {
	var st map[string]any
	switch c.kind {
	case "int":
		n, _ := starlark.AsInt32(c.value)
		st = widgetState("IntSliderModel", "IntSliderView")
		for k, v := range map[string]any{"min": c.min, "max": c.max, "step": c.step, "value": n, "orientation": "horizontal",
			"readout": true, "readout_format": "d", "_range": false, "style": "IPY_MODEL_" + style,
			// A value when the slider is let go, not at every step of a drag:
			// each value is an analysis.
			"continuous_update": false} {
			st[k] = v
		}
	case "bool":
		st = widgetState("CheckboxModel", "CheckboxView")
		st["value"] = bool(c.value.Truth())
	case "choice":
		st = widgetState("DropdownModel", "DropdownView")
		st["_options_labels"] = c.labels
		st["value"] = c.labels[0]
	}
	st["description"] = c.name
	st["disabled"] = false
	st["_dom_classes"] = []string{}
	st["layout"] = "IPY_MODEL_" + layout
	return st
}

// set takes a value the front end sent; it reports whether it was one.
func (c *control) set(v any) bool {
	switch c.kind {
	case "int":
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) || f < float64(c.min) || f > float64(c.max) {
			return false
		}
		c.value = starlark.MakeInt(int(f))
	case "bool":
		b, ok := v.(bool)
		if !ok {
			return false
		}
		c.value = starlark.Bool(b)
	case "choice":
		s, ok := v.(string)
		if !ok {
			return false
		}
		for i, l := range c.labels {
			if l == s {
				c.value = c.options[i]
				return true
			}
		}
		return false
	}
	return true
}

// interaction is one interact: its function, controls and Output widget.
type interaction struct {
	s        *Session
	f        starlark.Callable
	controls []*control
	output   string // the Output widget's comm
}

func builtinInteract(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("interact: give one function, then its controls by name: interact(lambda r: coins(r=r).values(20), r=(1, 9))")
	}
	f, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, fmt.Errorf("interact: %s is not a function", args[0].Type())
	}
	if len(kwargs) == 0 {
		return nil, fmt.Errorf("interact: no controls: name them after the function, e.g. r=(1, 9)")
	}
	s, _, out := sessionOf(th)
	it := &interaction{s: s, f: f}
	for _, kv := range kwargs {
		c, err := parseControl(string(kv[0].(starlark.String)), kv[1])
		if err != nil {
			return nil, err
		}
		it.controls = append(it.controls, c)
	}
	comms, ok := out.(kernel.Comms)
	if !ok {
		// No front end to draw in: the function at the initial values.
		return starlark.Call(th, f, nil, it.kwargs())
	}
	v, err := starlark.Call(th, f, nil, it.kwargs())
	if err != nil {
		return nil, err
	}
	first, err := s.bundleOrNil(th, v)
	if err != nil {
		return nil, err
	}
	it.open(comms)
	it.show(comms, out, first, nil)
	return starlark.None, nil
}

func (it *interaction) kwargs() []starlark.Tuple {
	kw := make([]starlark.Tuple, len(it.controls))
	for i, c := range it.controls {
		kw[i] = starlark.Tuple{starlark.String(c.name), c.value}
	}
	return kw
}

// open creates the widget models in the front end and displays their box.
func (it *interaction) open(comms kernel.Comms) {
	layout := func() string {
		return comms.OpenComm(kernel.WidgetTarget, openData(widgetState("LayoutModel", "LayoutView")), nil)
	}
	var children []string
	for _, c := range it.controls {
		style := ""
		if c.kind == "int" {
			st := widgetState("SliderStyleModel", "StyleView")
			st["handle_color"] = nil
			style = comms.OpenComm(kernel.WidgetTarget, openData(st), nil)
		}
		id := comms.OpenComm(kernel.WidgetTarget, openData(c.state(layout(), style)), func(ctx context.Context, data map[string]any, out kernel.Output) {
			it.changed(ctx, c, data, out)
		})
		children = append(children, "IPY_MODEL_"+id)
	}
	o := widgetState("OutputModel", "OutputView")
	o["msg_id"] = ""
	o["layout"] = "IPY_MODEL_" + layout()
	o["_dom_classes"] = []string{}
	it.output = comms.OpenComm(kernel.WidgetTarget, openData(o), nil)
	children = append(children, "IPY_MODEL_"+it.output)
	box := widgetState("VBoxModel", "VBoxView")
	box["children"] = children
	box["box_style"] = ""
	box["layout"] = "IPY_MODEL_" + layout()
	box["_dom_classes"] = []string{"widget-interact"}
	id := comms.OpenComm(kernel.WidgetTarget, openData(box), nil)
	// jupyter-js-widgets 2 shows a view on this message; later front ends
	// (and a saved notebook) on the display_data.
	comms.SendComm(id, map[string]any{"method": "display"})
	if out, ok := comms.(kernel.Output); ok {
		out.Display(&kernel.Display{Data: map[string]any{
			"application/vnd.jupyter.widget-view+json": map[string]any{"model_id": id, "version_major": 2, "version_minor": 0},
		}, Metadata: map[string]any{}})
	}
}

// show puts a result (or an error) into the Output widget, replacing what
// it showed: the widget captures the outputs of the request being answered
// while its msg_id names it.
func (it *interaction) show(comms kernel.Comms, out kernel.Output, d *kernel.Display, err error) {
	comms.SendComm(it.output, map[string]any{"method": "update", "state": map[string]any{"msg_id": comms.MsgID()}})
	comms.ClearOutput(true)
	switch {
	case err != nil:
		out.Stream("stderr", err.Error()+"\n")
	case d != nil:
		out.Display(d)
	}
	comms.SendComm(it.output, map[string]any{"method": "update", "state": map[string]any{"msg_id": ""}})
}

// changed handles a front end's message on a control: a new value
// (ipywidgets 6 sends "backbone" with sync_data, 7 "update" with state)
// runs the function again.
func (it *interaction) changed(ctx context.Context, c *control, data map[string]any, out kernel.Output) {
	comms, ok := out.(kernel.Comms)
	if !ok {
		return
	}
	var st map[string]any
	switch data["method"] {
	case "backbone":
		st, _ = data["sync_data"].(map[string]any)
	case "update":
		st, _ = data["state"].(map[string]any)
	}
	v, ok := st["value"]
	if !ok || !c.set(v) {
		return
	}
	d, err := it.run(ctx, out)
	it.show(comms, out, d, err)
}

// run calls the function with the controls' values, as a cell runs: with
// the session's budgets, stopped by an interrupt.
func (it *interaction) run(ctx context.Context, out kernel.Output) (d *kernel.Display, err error) {
	const name = "interact"
	th, steps, stop := it.s.newThread(ctx, name, out)
	defer stop()
	defer func() {
		if r := recover(); r != nil {
			d, err = nil, &kernel.CellError{Name: "InternalError", Value: fmt.Sprintf("nimbook failed in interact (%v); please report it", r)}
		}
	}()
	v, err := starlark.Call(th, it.f, nil, it.kwargs())
	if err == nil {
		d, err = it.s.bundleOrNil(th, v)
	}
	if err != nil {
		return nil, it.s.cellError(name, err, steps.Context(), steps)
	}
	return d, nil
}

// bundleOrNil is bundle, with None showing nothing.
func (s *Session) bundleOrNil(th *starlark.Thread, v starlark.Value) (*kernel.Display, error) {
	if v == starlark.None {
		return nil, nil
	}
	return s.bundle(th, v)
}
