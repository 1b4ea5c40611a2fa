package testmain

import (
	"flag"
	"testing"
	"time"
)

func TestStretch(t *testing.T) {
	tests := []struct {
		name    string
		timeout string
		count   string
		want    time.Duration
	}{
		{name: "go test's default", timeout: "10m0s", count: "1", want: 30 * time.Minute},
		{name: "default with -count=3", timeout: "10m0s", count: "3", want: 90 * time.Minute},
		{name: "timeout given", timeout: "2m0s", count: "3", want: 2 * time.Minute},
		{name: "no timeout", timeout: "0s", count: "1", want: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			timeout := fs.Duration("test.timeout", 0, "")
			fs.Uint("test.count", 1, "")
			if err := fs.Parse([]string{"-test.timeout=" + tc.timeout, "-test.count=" + tc.count}); err != nil {
				t.Fatal(err)
			}
			stretch(fs)
			if *timeout != tc.want {
				t.Errorf("timeout %v, want %v", *timeout, tc.want)
			}
		})
	}
}
