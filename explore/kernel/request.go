package kernel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
)

// content is the content of a request, field by field, so that each field's
// JSON type is checked and a mistake is named in words a user can act on.
type content struct {
	msgType string
	fields  map[string]json.RawMessage
}

// badRequest is a request whose content does not follow the protocol: it is
// answered with an error reply, never run.
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }

func parseContent(m *message) (content, error) {
	c := content{msgType: m.header.MsgType}
	if err := json.Unmarshal(m.content, &c.fields); err != nil || c.fields == nil {
		return c, &badRequest{fmt.Sprintf("%s: the content must be a JSON object, not %s", c.msgType, jsonKind(m.content))}
	}
	return c, nil
}

// raw returns the field, or nil when it is absent or null (the protocol's
// clients send null for "not given").
func (c content) raw(name string) json.RawMessage {
	v := c.fields[name]
	if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return nil
	}
	return v
}

func (c content) wrongType(name, want string, v json.RawMessage) error {
	return &badRequest{fmt.Sprintf("%s: %q must be %s, not %s", c.msgType, name, want, jsonKind(v))}
}

// str returns a string field; a required one must be present.
func (c content) str(name string, required bool) (string, error) {
	v := c.raw(name)
	if v == nil {
		if required {
			return "", &badRequest{fmt.Sprintf("%s: %q is missing (a string)", c.msgType, name)}
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", c.wrongType(name, "a string", v)
	}
	return s, nil
}

// boolean returns a boolean field, def when absent.
func (c content) boolean(name string, def bool) (bool, error) {
	v := c.raw(name)
	if v == nil {
		return def, nil
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		return false, c.wrongType(name, "true or false", v)
	}
	return b, nil
}

// integer returns a non-negative integer field, def when absent.
func (c content) integer(name string, def int) (int, error) {
	v := c.raw(name)
	if v == nil {
		return def, nil
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil || f != math.Trunc(f) || f < 0 || f > math.MaxInt32 {
		return 0, c.wrongType(name, "a whole number from 0", v)
	}
	return int(f), nil
}

// jsonKind names the JSON type of v for messages.
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}

// executeRequest is the content of an execute_request.
type executeRequest struct {
	code         string
	silent       bool
	storeHistory bool
	allowStdin   bool
	stopOnError  bool
}

func parseExecute(m *message) (r executeRequest, err error) {
	c, err := parseContent(m)
	if err != nil {
		return r, err
	}
	if r.code, err = c.str("code", true); err != nil {
		return r, err
	}
	if r.silent, err = c.boolean("silent", false); err != nil {
		return r, err
	}
	if r.storeHistory, err = c.boolean("store_history", !r.silent); err != nil {
		return r, err
	}
	if r.allowStdin, err = c.boolean("allow_stdin", false); err != nil {
		return r, err
	}
	if r.stopOnError, err = c.boolean("stop_on_error", true); err != nil {
		return r, err
	}
	if r.silent {
		r.storeHistory = false
	}
	return r, nil
}

// codeRequest is the content of complete, inspect and is_complete requests.
type codeRequest struct {
	code   string
	cursor int // code points; the end of code when not given
}

func parseCode(m *message, withCursor bool) (r codeRequest, err error) {
	c, err := parseContent(m)
	if err != nil {
		return r, err
	}
	if r.code, err = c.str("code", true); err != nil {
		return r, err
	}
	if withCursor {
		r.cursor, err = c.integer("cursor_pos", len([]rune(r.code)))
	}
	return r, err
}
