package main

import (
	"strings"
	"testing"
)

// Every format is one row with its renderers: each input a format lists
// has its renderer, and a combination the table does not have is an
// error naming the input, never another format's output.
func TestFormatRows(t *testing.T) {
	for _, f := range reportFormats {
		t.Run(f.name, func(t *testing.T) {
			for _, in := range []struct {
				what string
				has  func(reportFormat) bool
			}{{"job", forJobs}, {"notebook", forNotebooks}, {"survey", func(f reportFormat) bool { return f.survey != nil }}} {
				_, err := formatFor(f.name, in.what, in.has)
				if in.has(f) != (err == nil) {
					t.Errorf("%s: %v", in.what, err)
				}
				if err != nil && !strings.Contains(err.Error(), in.what) {
					t.Errorf("the error does not name the input: %v", err)
				}
			}
		})
	}
	for _, tc := range []struct {
		name string
		has  func(reportFormat) bool
	}{{"csv", forJobs}, {"json", forNotebooks}, {"text", forNotebooks}, {"ipynb", forSurveys}, {"docx", forJobs}} {
		if _, err := formatFor(tc.name, "x", tc.has); err == nil {
			t.Errorf("format %s: no error", tc.name)
		}
	}
	if _, err := formatFor("ipynb", "x", func(f reportFormat) bool { return f.survey != nil }); err == nil {
		t.Error("a survey has no ipynb form")
	}
}
