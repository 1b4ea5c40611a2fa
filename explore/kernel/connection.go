package kernel

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// ConnectionInfo is the content of a Jupyter connection file: where the five
// sockets listen and how messages are signed.
type ConnectionInfo struct {
	Transport       string `json:"transport"` // "tcp" or "ipc"
	IP              string `json:"ip"`        // for ipc, the path prefix of the socket files
	SignatureScheme string `json:"signature_scheme"`
	Key             string `json:"key"` // empty: messages are not signed
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnectionFile reads and checks a connection file.
func ReadConnectionFile(name string) (ConnectionInfo, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return ConnectionInfo{}, fmt.Errorf("kernel: connection file: %w", err)
	}
	info, err := ParseConnectionInfo(b)
	if err != nil {
		return ConnectionInfo{}, fmt.Errorf("%w (in %s)", err, name)
	}
	return info, nil
}

// ParseConnectionInfo decodes and checks the JSON of a connection file.
// A missing transport means tcp and a missing signature scheme hmac-sha256,
// as in jupyter_client. Port 0 (tcp only) asks for any free port.
func ParseConnectionInfo(b []byte) (ConnectionInfo, error) {
	var info ConnectionInfo
	if err := json.Unmarshal(b, &info); err != nil {
		return ConnectionInfo{}, fmt.Errorf("kernel: connection file: %w", err)
	}
	return info.check()
}

// check fills in the defaults and validates the fields.
func (info ConnectionInfo) check() (ConnectionInfo, error) {
	if info.Transport == "" {
		info.Transport = "tcp"
	}
	if info.SignatureScheme == "" {
		info.SignatureScheme = "hmac-sha256"
	}
	if info.Transport != "tcp" && info.Transport != "ipc" {
		return ConnectionInfo{}, fmt.Errorf("kernel: connection info: transport %q is not supported (want tcp or ipc)", info.Transport)
	}
	if info.SignatureScheme != "hmac-sha256" {
		return ConnectionInfo{}, fmt.Errorf("kernel: connection info: signature_scheme %q is not supported (want hmac-sha256)", info.SignatureScheme)
	}
	if info.IP == "" {
		return ConnectionInfo{}, fmt.Errorf("kernel: connection info: no ip")
	}
	for _, p := range []struct {
		name string
		port int
	}{{"shell_port", info.ShellPort}, {"control_port", info.ControlPort}, {"stdin_port", info.StdinPort}, {"iopub_port", info.IOPubPort}, {"hb_port", info.HBPort}} {
		if p.port < 0 || p.port > 65535 || (p.port == 0 && info.Transport == "ipc") {
			return ConnectionInfo{}, fmt.Errorf("kernel: connection info: bad %s %d", p.name, p.port)
		}
	}
	if info.Transport == "tcp" && info.Key == "" && !isLoopback(info.IP) {
		return ConnectionInfo{}, fmt.Errorf("kernel: connection info: ip %q can be reached from other machines and the key is empty, so anyone there could run code: write a key in the connection file, or use ip 127.0.0.1", info.IP)
	}
	return info, nil
}

// isLoopback reports whether a tcp address is reachable from this machine only.
func isLoopback(ip string) bool {
	if strings.EqualFold(ip, "localhost") {
		return true
	}
	a := net.ParseIP(strings.Trim(ip, "[]"))
	return a != nil && a.IsLoopback()
}

// endpoint returns the ZeroMQ address of a port: tcp://ip:port, or ipc://ip-port
// (the path jupyter_client uses for ipc).
func (c ConnectionInfo) endpoint(port int) string {
	if c.Transport == "ipc" {
		return "ipc://" + c.IP + "-" + strconv.Itoa(port)
	}
	ip := c.IP
	if ip == "*" {
		ip = "0.0.0.0"
	}
	if len(ip) > 0 && ip[0] != '[' && strings.Contains(ip, ":") {
		ip = "[" + ip + "]" // IPv6 literal
	}
	return "tcp://" + ip + ":" + strconv.Itoa(port)
}
