package nbformat

// Display is a MIME bundle: the same value in several formats, keyed by MIME
// type ("text/plain", "text/html", "image/svg+xml", "image/png" as base64,
// "application/json" as a JSON value). Text values are strings. It is what
// a cell displays (kernel.Display is this type) and what renderers of
// results return, so that they need neither the kernel nor a session.
type Display struct {
	Data     map[string]any `json:"data"`
	Metadata map[string]any `json:"metadata"`
}
