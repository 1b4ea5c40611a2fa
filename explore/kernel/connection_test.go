package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sampleConnection = `{
  "shell_port": 50001, "iopub_port": 50002, "stdin_port": 50003, "control_port": 50004, "hb_port": 50005,
  "ip": "127.0.0.1", "key": "a0436f6c-1916-498b-8eb9-e81ab9368e84",
  "transport": "tcp", "signature_scheme": "hmac-sha256", "kernel_name": "nimbook"
}`

func TestParseConnectionInfo(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		wantErr string
		shell   string // endpoint of the shell port
	}{
		{name: "jupyter_client file", json: sampleConnection, shell: "tcp://127.0.0.1:50001"},
		{name: "defaults", json: `{"ip":"127.0.0.1","shell_port":1,"iopub_port":2,"stdin_port":3,"control_port":4,"hb_port":5}`, shell: "tcp://127.0.0.1:1"},
		{name: "ipc", json: `{"transport":"ipc","ip":"/tmp/kernel-1","shell_port":1,"iopub_port":2,"stdin_port":3,"control_port":4,"hb_port":5}`, shell: "ipc:///tmp/kernel-1-1"},
		{name: "any address", json: `{"ip":"*","key":"k","shell_port":9}`, shell: "tcp://0.0.0.0:9"},
		{name: "other machine with key", json: `{"ip":"192.0.2.7","key":"k","shell_port":9}`, shell: "tcp://192.0.2.7:9"},
		{name: "localhost without key", json: `{"ip":"localhost","shell_port":9}`, shell: "tcp://localhost:9"},
		{name: "any address without key", json: `{"ip":"*","shell_port":9}`, wantErr: "key is empty"},
		{name: "other machine without key", json: `{"ip":"192.0.2.7","shell_port":9}`, wantErr: "write a key"},
		{name: "ipc without key", json: `{"transport":"ipc","ip":"/tmp/k","shell_port":1,"iopub_port":2,"stdin_port":3,"control_port":4,"hb_port":5}`, shell: "ipc:///tmp/k-1"},
		{name: "ipv6", json: `{"ip":"::1","shell_port":9}`, shell: "tcp://[::1]:9"},
		{name: "extra keys ignored", json: `{"ip":"127.0.0.1","jupyter_session":"x","shell_port":1}`, shell: "tcp://127.0.0.1:1"},
		{name: "not JSON", json: `{"ip":`, wantErr: "connection file"},
		{name: "bad transport", json: `{"transport":"udp","ip":"x"}`, wantErr: "transport"},
		{name: "bad scheme", json: `{"signature_scheme":"hmac-md5","ip":"x"}`, wantErr: "signature_scheme"},
		{name: "no ip", json: `{"shell_port":1}`, wantErr: "no ip"},
		{name: "port out of range", json: `{"ip":"x","hb_port":70000}`, wantErr: "hb_port"},
		{name: "ipc port 0", json: `{"transport":"ipc","ip":"/tmp/k","shell_port":1}`, wantErr: "control_port"},
		{name: "wrong type", json: `{"ip":"x","shell_port":"1"}`, wantErr: "connection file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info, err := ParseConnectionInfo([]byte(tc.json))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.HasPrefix(err.Error(), "kernel: ") {
					t.Fatalf("error %v, want one about %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := info.endpoint(info.ShellPort); got != tc.shell {
				t.Errorf("shell endpoint %s, want %s", got, tc.shell)
			}
		})
	}
}

func TestReadConnectionFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "kernel-1.json")
	if err := os.WriteFile(name, []byte(sampleConnection), 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := ReadConnectionFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if info.Key != "a0436f6c-1916-498b-8eb9-e81ab9368e84" || info.HBPort != 50005 || info.KernelName != "nimbook" {
		t.Errorf("info %+v", info)
	}
	if _, err := ReadConnectionFile(name + ".missing"); err == nil {
		t.Error("no error for a missing file")
	}
	if err := os.WriteFile(name, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadConnectionFile(name); err == nil || !strings.Contains(err.Error(), name) {
		t.Errorf("error %v does not name the file", err)
	}
}

func FuzzParseConnectionInfo(f *testing.F) {
	f.Add([]byte(sampleConnection))
	f.Add([]byte(`{"transport":"ipc","ip":"/tmp/k","shell_port":1,"iopub_port":2,"stdin_port":3,"control_port":4,"hb_port":5}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		info, err := ParseConnectionInfo(b)
		if err != nil {
			return
		}
		if info.IP == "" || (info.Transport != "tcp" && info.Transport != "ipc") || info.SignatureScheme != "hmac-sha256" {
			t.Fatalf("accepted %+v", info)
		}
		for _, p := range []int{info.ShellPort, info.ControlPort, info.StdinPort, info.IOPubPort, info.HBPort} {
			if !strings.Contains(info.endpoint(p), "://") {
				t.Fatalf("endpoint %q", info.endpoint(p))
			}
		}
	})
}

func TestOffsets(t *testing.T) {
	tests := []struct {
		s            string
		runes, bytes int
	}{
		{"abc", 2, 2},
		{"é pr", 2, 3},
		{"é pr", 4, 5},
		{"⊕⊗", 1, 3},
		{"⊕⊗", 9, 6}, // past the end: clamped
		{"", 0, 0},
		{"x", -1, 0},
	}
	for _, tc := range tests {
		if got := byteOffset(tc.s, tc.runes); got != tc.bytes {
			t.Errorf("byteOffset(%q, %d) = %d, want %d", tc.s, tc.runes, got, tc.bytes)
		}
		if tc.runes >= 0 && tc.runes <= len([]rune(tc.s)) {
			if got := runeOffset(tc.s, tc.bytes); got != tc.runes {
				t.Errorf("runeOffset(%q, %d) = %d, want %d", tc.s, tc.bytes, got, tc.runes)
			}
		}
	}
}
