// Package fakeexec is a toy kernel.Executor for the kernel's tests. Each line
// of a cell is one command:
//
//	print TEXT     write TEXT and a newline to stdout
//	lines N        write N lines "line I" to stdout, one call each
//	big N          write N bytes "x" to stdout in one call
//	text N         N bytes "z" are the cell's result
//	warn TEXT      write TEXT and a newline to stderr
//	html TEXT      display TEXT as text/html (and text/plain)
//	sleep SECONDS  wait, or until interrupted
//	steps SECONDS  ten steps over SECONDS, reported as progress
//	block          wait until interrupted
//	input PROMPT   ask for a line and print it
//	fail TEXT      fail with a ValueError
//	panic          panic
//	A+B            the sum of two integers is the cell's result
//	cells          the number of cells run so far (state kept between cells)
//	slider NAME    open a widget comm; each value the front end sends on it
//	               clears the output and displays NAME=VALUE
package fakeexec

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/kernel"
)

// Executor is the toy executor. The zero value is ready.
type Executor struct {
	cells int
}

var commands = []string{"big", "block", "cells", "fail", "html", "input", "lines", "panic", "print", "sleep", "slider", "steps", "text", "warn"}

// Execute runs the commands of code.
func (e *Executor) Execute(ctx context.Context, code string, out kernel.Output) (*kernel.Display, error) {
	e.cells++
	var result *kernel.Display
	for _, line := range strings.Split(code, "\n") {
		line = strings.TrimSpace(line)
		cmd, arg, _ := strings.Cut(line, " ")
		result = nil
		switch cmd {
		case "":
		case "print":
			out.Stream("stdout", arg+"\n")
		case "lines", "big", "text":
			n, err := strconv.Atoi(arg)
			if err != nil {
				return nil, &kernel.CellError{Name: "SyntaxError", Value: cmd + " needs a count"}
			}
			if cmd == "text" {
				result = kernel.Text(strings.Repeat("z", n))
				break
			}
			if cmd == "big" {
				out.Stream("stdout", strings.Repeat("x", n))
				break
			}
			for i := range n {
				out.Stream("stdout", "line "+strconv.Itoa(i)+"\n")
			}
		case "warn":
			out.Stream("stderr", arg+"\n")
		case "html":
			out.Display(&kernel.Display{Data: map[string]any{"text/html": "<b>" + arg + "</b>", "text/plain": arg}})
		case "sleep", "block":
			d := 24 * time.Hour
			if cmd == "sleep" {
				s, err := strconv.ParseFloat(arg, 64)
				if err != nil {
					return nil, &kernel.CellError{Name: "SyntaxError", Value: "sleep needs seconds"}
				}
				d = time.Duration(s * float64(time.Second))
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(d):
			}
		case "steps":
			// Ten steps over SECONDS, counted on the context's progress.
			s, err := strconv.ParseFloat(arg, 64)
			if err != nil {
				return nil, &kernel.CellError{Name: "SyntaxError", Value: "steps needs seconds"}
			}
			p := budget.From(ctx)
			p.Start("steps", 10)
			for range 10 {
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(time.Duration(s * float64(time.Second) / 10)):
				}
				p.Add(1)
			}
		case "input":
			v, err := out.Input(arg, false)
			if err != nil {
				return nil, err
			}
			out.Stream("stdout", "got "+v+"\n")
		case "fail":
			return nil, &kernel.CellError{Name: "ValueError", Value: arg}
		case "panic":
			panic("fakeexec: asked to panic")
		case "cells":
			result = kernel.Text(strconv.Itoa(e.cells))
		case "slider":
			comms, ok := out.(kernel.Comms)
			if !ok {
				return nil, &kernel.CellError{Name: "ValueError", Value: "no comms"}
			}
			name := arg
			comms.OpenComm(kernel.WidgetTarget, map[string]any{"_model_name": "IntSliderModel", "value": 0}, func(ctx context.Context, data map[string]any, out kernel.Output) {
				st, _ := data["sync_data"].(map[string]any)
				c := out.(kernel.Comms)
				c.ClearOutput(true)
				out.Display(kernel.Text(fmt.Sprintf("%s=%v (%s)", name, st["value"], c.MsgID())))
			})
		default:
			a, b, ok := strings.Cut(line, "+")
			x, err1 := strconv.Atoi(strings.TrimSpace(a))
			y, err2 := strconv.Atoi(strings.TrimSpace(b))
			if !ok || err1 != nil || err2 != nil {
				return nil, fmt.Errorf("unknown command %q", line)
			}
			result = kernel.Text(strconv.Itoa(x + y))
		}
	}
	return result, nil
}

// Complete completes command names at the start of the line.
func (e *Executor) Complete(code string, cursor int) ([]string, int, int) {
	start := strings.LastIndexAny(code[:cursor], " \n") + 1
	prefix := code[start:cursor]
	var m []string
	for _, c := range commands {
		if strings.HasPrefix(c, prefix) {
			m = append(m, c)
		}
	}
	return m, start, cursor
}

// Inspect documents the command under the cursor.
func (e *Executor) Inspect(code string, cursor int) (string, bool) {
	start := strings.LastIndexAny(code[:cursor], " \n") + 1
	end := strings.IndexAny(code[cursor:], " \n")
	if end < 0 {
		end = len(code)
	} else {
		end += cursor
	}
	w := code[start:end]
	for _, c := range commands {
		if c == w {
			return c + ": a fakeexec command", true
		}
	}
	return "", false
}

// IsComplete says a cell ending in a backslash continues.
func (e *Executor) IsComplete(code string) (string, string) {
	if strings.HasSuffix(code, "\\") {
		return "incomplete", "  "
	}
	return "complete", ""
}

// Info describes the toy language.
func (e *Executor) Info() kernel.LanguageInfo {
	return kernel.LanguageInfo{Name: "fake", Version: "1", MIMEType: "text/plain", FileExtension: ".txt"}
}
