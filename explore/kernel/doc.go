// Package kernel is nimbook's Jupyter kernel: it speaks the Jupyter messaging
// protocol (version 5.3) over ZeroMQ and hands the cells it receives to an
// Executor, which evaluates them. The package knows nothing of the cell
// language; the command wires in the notebook session.
//
// # Sockets and messages
//
// A kernel binds the five sockets of a connection file (transport tcp or ipc):
// shell, control and stdin (ROUTER), iopub (PUB) and heartbeat (REP, echo).
// Messages are signed with HMAC-SHA256 over the header, parent header,
// metadata and content frames; a message whose signature does not verify is
// logged and dropped, never answered. An empty key turns signing off.
//
// Every request is wrapped in status busy and status idle on iopub, and is
// answered on the socket it came from. Shell requests run one at a time;
// control requests (interrupt_request, shutdown_request, ...) are served
// alongside, so an interrupt reaches a running cell. Supported requests:
// kernel_info, execute (stream, display_data, execute_result and error
// output; silent and store_history), complete, inspect, is_complete,
// interrupt, shutdown (with restart), comm_info and history (both empty).
// Input requests go through the stdin socket when the client allows it.
//
// # Executor
//
// An Executor keeps the state of one session. Execute receives a context that
// is cancelled on interrupt; the cell must then stop within a second and the
// session stays usable. Errors become an error message and an error reply;
// *CellError chooses their name and traceback. Offsets given to and returned
// by Complete and Inspect are byte offsets (the wire uses code points). A
// panic inside the Executor becomes an error, not a crash.
//
// # Process
//
// Serve (and Main, the `kernel` command) runs a kernel for a connection file.
// It exits on shutdown_request, and when the process that started it dies
// (JPY_PARENT_PID, or a change of parent process), because some clients never
// send a shutdown. SIGINT interrupts the running cell instead of killing the
// process. Install writes the kernelspec kernels/nimbook/kernel.json.
package kernel
