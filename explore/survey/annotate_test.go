package survey

import (
	"encoding/json"
	"sync"
	"testing"
)

// testAnnotation is registered once per process: registrations are for
// its life, and go test -count=3 runs TestAnnotate three times in one.
var testAnnotation sync.Once

func TestAnnotate(t *testing.T) {
	testAnnotation.Do(func() {
		RegisterAnnotation(Annotation{
			Key:     "zz-test",
			Applies: func(family string) bool { return family == "annotate-test" },
			Annotate: func(v *VariantResult) (any, error) {
				if v.Index == 1 {
					return nil, nil
				}
				return map[string]int{"index": v.Index}, nil
			},
		})
	})
	for _, c := range []struct {
		name, family string
		v            VariantResult
		want         string
	}{
		{"done", "annotate-test", VariantResult{Index: 2, Status: StatusDone}, `{"zz-test":{"index":2}}`},
		{"nothing to say", "annotate-test", VariantResult{Index: 1, Status: StatusDone}, ``},
		{"pending", "annotate-test", VariantResult{Index: 2, Status: StatusPending}, ``},
		{"another family", "nim", VariantResult{Index: 2, Status: StatusDone}, ``},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Annotate(c.family, &c.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
			if len(got) > 0 && !json.Valid(got) {
				t.Errorf("not JSON: %s", got)
			}
		})
	}
	t.Run("duplicate", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Error("no panic")
			}
		}()
		RegisterAnnotation(Annotation{Key: "zz-test", Applies: func(string) bool { return false }, Annotate: func(*VariantResult) (any, error) { return nil, nil }})
	})
}
