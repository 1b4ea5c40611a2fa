package atomicfile_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nimbook/nimbook/explore/atomicfile"
)

func ExampleWrite() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "job.yaml")
	os.WriteFile(in, []byte("title: Nim\n"), 0o644)

	opts := atomicfile.Options{Inputs: []string{in}}
	err := atomicfile.Write(context.Background(), filepath.Join(dir, "report.md"), opts, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, "# Nim")
		return err
	})
	fmt.Println(err)
	err = atomicfile.Write(context.Background(), in, opts, func(w io.Writer) error { return nil })
	fmt.Println(err != nil)
	// Output:
	// <nil>
	// true
}
