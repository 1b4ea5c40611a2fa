package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/nimbook/nimbook/explore/job"
)

// JSON writes r in the machine-readable form of SPEC.md: the Report's own
// encoding, indented by two spaces, with a trailing newline. Struct fields
// keep their declared order and maps are not used, so the bytes depend
// only on the results.
func JSON(w io.Writer, r *job.Report) error {
	if r == nil {
		return fmt.Errorf("reports: nil report")
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	// Keep ⊕, <, > and & readable: nothing here is embedded in HTML.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}
