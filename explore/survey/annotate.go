package survey

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/nimbook/nimbook/explore/registry"
)

// An Annotation is what another package knows about a survey's variants
// beside their results, e.g. how a result compares with a published
// table (package census). It goes under "annotations", by Key, in the
// JSON report, and into the CSV report's columns as Key.path. Packages
// register their annotations at init; the survey layer never names them.
type Annotation struct {
	Key string
	// Applies says whether the annotation concerns a survey of family.
	Applies func(family string) bool
	// Annotate returns the annotation of a done variant, nil for none.
	Annotate func(v *VariantResult) (any, error)
}

var annotations registry.Registry[Annotation]

// RegisterAnnotation adds an annotation; it panics on a duplicate key,
// as database/sql.Register does.
func RegisterAnnotation(a Annotation) {
	if a.Key == "" || a.Applies == nil || a.Annotate == nil {
		panic("survey: RegisterAnnotation: key, Applies and Annotate are needed")
	}
	if !annotations.Add(a.Key, a) {
		panic("survey: RegisterAnnotation: duplicate key " + a.Key)
	}
}

// Annotate returns the annotations of a done variant of a survey of
// family, as a JSON object by key (nil when there is none).
func Annotate(family string, v *VariantResult) (json.RawMessage, error) {
	if v.Status != StatusDone {
		return nil, nil
	}
	var b bytes.Buffer
	n := 0
	for _, a := range annotations.Sorted(nil) { // by key
		if !a.Applies(family) {
			continue
		}
		x, err := a.Annotate(v)
		if err != nil {
			return nil, fmt.Errorf("survey: variant %d: %s: %w", v.Index, a.Key, err)
		}
		if x == nil {
			continue
		}
		j, err := json.Marshal(x)
		if err != nil {
			return nil, fmt.Errorf("survey: variant %d: %s: %w", v.Index, a.Key, err)
		}
		if n == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		n++
		k, _ := json.Marshal(a.Key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(j)
	}
	if n == 0 {
		return nil, nil
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
