package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"github.com/nimbook/nimbook/explore/atomicfile"
)

// KernelName is the kernelspec directory name and the name notebooks refer to.
const KernelName = "nimbook"

// InstallOptions say where to install the kernelspec and what it starts.
type InstallOptions struct {
	// Prefix, when set, installs into Prefix/share/jupyter/kernels/nimbook.
	// Otherwise the user's data directory is used: $JUPYTER_DATA_DIR, or
	// ~/.local/share/jupyter.
	Prefix string
	// Binary is the nimbook executable the kernelspec starts. Empty means the
	// running program, which must not be a `go run`/`go test` temporary build.
	Binary string
}

// Spec is the content of kernel.json.
type Spec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env,omitempty"`
	Metadata      map[string]any    `json:"metadata,omitempty"`
}

// NewSpec returns the kernelspec that starts binary.
func NewSpec(binary string) Spec {
	return Spec{
		Argv:          []string{binary, "kernel", "--connection-file", "{connection_file}"},
		DisplayName:   "nimbook",
		Language:      "starlark",
		InterruptMode: "message",
	}
}

// Install writes kernels/nimbook/kernel.json (and a 64×64 logo) and returns
// the kernelspec directory. Files are written to a temporary name and renamed
// into place.
func Install(opts InstallOptions) (string, error) {
	bin, err := binaryPath(opts.Binary)
	if err != nil {
		return "", err
	}
	var base string
	switch {
	case opts.Prefix != "":
		base = filepath.Join(opts.Prefix, "share", "jupyter")
	case os.Getenv("JUPYTER_DATA_DIR") != "":
		base = os.Getenv("JUPYTER_DATA_DIR")
	default:
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("kernel: install: no home directory (use --prefix DIR): %w", err)
		}
		base = filepath.Join(home, ".local", "share", "jupyter")
	}
	dir, err := filepath.Abs(filepath.Join(base, "kernels", KernelName))
	if err != nil {
		return "", fmt.Errorf("kernel: install: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("kernel: install: %w", err)
	}
	spec, err := json.MarshalIndent(NewSpec(bin), "", "  ")
	if err != nil {
		return "", fmt.Errorf("kernel: install: %w", err)
	}
	if err := writeAtomic(filepath.Join(dir, "kernel.json"), append(spec, '\n')); err != nil {
		return "", err
	}
	if err := writeAtomic(filepath.Join(dir, "logo-64x64.png"), Logo(64)); err != nil {
		return "", err
	}
	return dir, nil
}

// binaryPath returns the absolute path of the executable the spec starts.
func binaryPath(explicit string) (string, error) {
	if explicit != "" {
		p, err := filepath.Abs(explicit)
		if err != nil {
			return "", fmt.Errorf("kernel: install: %w", err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			return "", fmt.Errorf("kernel: install: binary: %w", err)
		}
		if fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("kernel: install: binary %s is not an executable file", p)
		}
		return p, nil
	}
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("kernel: install: cannot find this program's path (use --binary PATH): %w", err)
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	if isGoBuildTemp(p) {
		return "", fmt.Errorf("kernel: install: %s is a temporary `go run`/`go test` build that will be deleted; "+
			"build the command first (go build -o nimbook ./cmd/nimbook, or go install ./cmd/nimbook) and run `nimbook kernel install` from that binary", p)
	}
	return p, nil
}

// isGoBuildTemp reports whether p lies in a go command's temporary work
// directory (named go-build…, under os.TempDir() or $GOTMPDIR).
func isGoBuildTemp(p string) bool {
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if strings.HasPrefix(part, "go-build") {
			return true
		}
	}
	return false
}

// writeAtomic writes data to name through a temporary file in the same
// directory, so a reader never sees half a file.
func writeAtomic(name string, data []byte) error {
	if err := atomicfile.WriteFile(name, data, 0o644); err != nil {
		return fmt.Errorf("kernel: install: %w", err)
	}
	return nil
}

// Logo returns a size×size PNG: the nim-addition table a⊕b, shaded. It is
// deterministic.
func Logo(size int) []byte {
	if size <= 0 || size > 1024 {
		panic("kernel: Logo size out of range") // programmer error
	}
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	cell := (size + 15) / 16
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			v := uint8((x / cell) ^ (y / cell)) // 0..15
			if v == 0 {
				img.Set(x, y, color.NRGBA{R: 0xc0, G: 0x39, B: 0x2b, A: 0xff}) // P-positions of two-heap Nim
				continue
			}
			g := 0xff - v*12
			img.Set(x, y, color.NRGBA{R: g / 3, G: g / 2, B: g, A: 0xff})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(errors.New("kernel: png: " + err.Error())) // cannot fail on a bytes.Buffer
	}
	return buf.Bytes()
}
