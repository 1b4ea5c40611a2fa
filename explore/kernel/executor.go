package kernel

import (
	"context"
	"strings"

	"github.com/nimbook/nimbook/explore/nbformat"
)

// Executor runs the cells of one kernel session. Implementations keep state
// between cells. The kernel calls one method at a time, never concurrently,
// except Info. Offsets (cursor, start, end) are byte offsets into code; the
// kernel converts them from and to the protocol's Unicode code points.
type Executor interface {
	// Execute runs one cell. ctx is cancelled when the user interrupts the cell
	// (or the kernel shuts down): Execute must then return promptly, within a
	// second, and the session must stay usable. The returned Display, when not
	// nil, is the cell's result (execute_result). An error is shown to the user:
	// return a *CellError to choose its name and traceback lines.
	Execute(ctx context.Context, code string, out Output) (*Display, error)
	// Complete returns the completions of the text code[start:end] around cursor.
	Complete(code string, cursor int) (matches []string, start, end int)
	// Inspect returns help about the name at cursor (plain text).
	Inspect(code string, cursor int) (text string, found bool)
	// IsComplete tells a console whether code can run as typed: "complete",
	// "incomplete" (then indent is the indentation of the next line) or "invalid".
	IsComplete(code string) (status, indent string)
	// Info describes the cell language for kernel_info.
	Info() LanguageInfo
}

// Output is where a running cell writes. Its methods may be called from any
// goroutine while Execute runs; calls after Execute has returned are ignored.
// Stream text is gathered into few messages, and a cell's output stops, with
// a note, at Options.MaxOutput: a cell may print freely.
type Output interface {
	// Stream appends text to the cell's "stdout" or "stderr" (any other name
	// means stdout).
	Stream(name, text string)
	// Display shows a rich value (display_data) without ending the cell.
	Display(d *Display)
	// Input asks the user for a line of text. It fails when the frontend does
	// not accept input, and when the cell is interrupted.
	Input(prompt string, password bool) (string, error)
}

// Display is a MIME bundle: the same value in several formats, keyed by MIME
// type ("text/plain", "text/html", "image/svg+xml", "image/png" as base64,
// "application/json" as a JSON value). Text values are strings. It is
// nbformat's, so that renderers need not import the kernel.
type Display = nbformat.Display

// Text returns a Display holding only text/plain.
func Text(s string) *Display {
	return &Display{Data: map[string]any{"text/plain": s}}
}

// LanguageInfo describes the cell language (kernel_info_reply's language_info).
type LanguageInfo struct {
	Name              string `json:"name"`
	Version           string `json:"version"`
	MIMEType          string `json:"mimetype"`
	FileExtension     string `json:"file_extension"`
	PygmentsLexer     string `json:"pygments_lexer,omitempty"`
	CodeMirrorMode    string `json:"codemirror_mode,omitempty"`
	NbconvertExporter string `json:"nbconvert_exporter,omitempty"`
}

// CellError is an error shown to the user as ename, evalue and traceback.
// Executors return it to control what the frontend shows; any other error
// becomes a CellError named "Error" whose value is the error's text.
type CellError struct {
	Name      string   // e.g. "ValueError"
	Value     string   // the message
	Traceback []string // lines shown to the user; default "Name: Value"
}

func (e *CellError) Error() string {
	if e.Value == "" {
		return e.Name
	}
	return e.Name + ": " + e.Value
}

// lines returns the traceback to send: the given one, or one line.
func (e *CellError) lines() []string {
	if len(e.Traceback) > 0 {
		return e.Traceback
	}
	return []string{e.Error()}
}

// byteOffset converts a code-point offset into a byte offset in s, clamped to s.
func byteOffset(s string, runes int) int {
	if runes <= 0 {
		return 0
	}
	n := 0
	for i := range s {
		if n == runes {
			return i
		}
		n++
	}
	return len(s)
}

// runeOffset converts a byte offset in s into a code-point offset, clamped to s.
func runeOffset(s string, bytes int) int {
	if bytes <= 0 {
		return 0
	}
	if bytes > len(s) {
		bytes = len(s)
	}
	return len([]rune(s[:bytes]))
}

// streamName maps a stream name onto the two nbformat allows.
func streamName(name string) string {
	if strings.EqualFold(name, "stderr") {
		return "stderr"
	}
	return "stdout"
}
