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

// A row is whole: a survey document form says what its report holds in
// memory (else the limit would never refuse it), a streamed form has no
// document renderer to fall through to, and a printed notebook form
// (figures on paper) renders its cells for print, not for HTML.
func TestFormatRowsWhole(t *testing.T) {
	for _, f := range reportFormats {
		t.Run(f.name, func(t *testing.T) {
			if f.survey != nil && (f.surveyBytes.variant <= 0 || f.surveyBytes.result <= 0) {
				t.Errorf("a survey report with no memory estimate: %+v", f.surveyBytes)
			}
			if f.survey != nil && f.streamed != nil {
				t.Error("both a document and a streamed survey form")
			}
			if f.print && f.html {
				t.Error("cells rendered for print and for HTML at once")
			}
			if (f.print || f.html) && f.nb == nil {
				t.Error("notebook cell settings without a notebook renderer")
			}
		})
	}
}
