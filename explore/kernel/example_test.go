package kernel_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/nimbook/nimbook/explore/kernel"
)

func ExampleNewSpec() {
	b, _ := json.MarshalIndent(kernel.NewSpec("/usr/local/bin/nimbook"), "", "  ")
	fmt.Println(string(b))
	// Output:
	// {
	//   "argv": [
	//     "/usr/local/bin/nimbook",
	//     "kernel",
	//     "--connection-file",
	//     "{connection_file}"
	//   ],
	//   "display_name": "nimbook",
	//   "language": "starlark",
	//   "interrupt_mode": "message"
	// }
}

func ExampleParseConnectionInfo() {
	info, err := kernel.ParseConnectionInfo([]byte(`{"ip": "127.0.0.1", "key": "k",
		"shell_port": 1, "control_port": 2, "stdin_port": 3, "iopub_port": 4, "hb_port": 5}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(info.Transport, info.SignatureScheme, info.ShellPort)
	_, err = kernel.ParseConnectionInfo([]byte(`{"ip": "127.0.0.1", "transport": "udp"}`))
	fmt.Println(err)
	// Output:
	// tcp hmac-sha256 1
	// kernel: connection info: transport "udp" is not supported (want tcp or ipc)
}

func ExampleInstall() {
	prefix, _ := os.MkdirTemp("", "prefix")
	defer os.RemoveAll(prefix)
	bin, _ := os.Executable() // stands for an installed nimbook binary
	dir, err := kernel.Install(kernel.InstallOptions{Prefix: prefix, Binary: bin})
	if err != nil {
		fmt.Println(err)
		return
	}
	rel := dir[len(prefix):]
	fmt.Println(rel)
	// Output:
	// /share/jupyter/kernels/nimbook
}
