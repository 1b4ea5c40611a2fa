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
// answered on the socket it came from; status starting is published once at
// start. Shell requests run one at a time: kernel_info, execute (stream,
// display_data, execute_result and error output; silent, store_history and
// stop_on_error: after a failing cell, the execute requests already waiting
// are answered "aborted" without running, as ipykernel does; so are those of
// the same burst, a Run All still arriving, which the error reply waits up
// to 250 ms for), complete,
// inspect, is_complete, interrupt, shutdown (with restart), comm_info
// (the open comms) and history (the cells run with store_history, and their
// results' text: tail, range and search with glob patterns, in one session
// numbered 1; the oldest are forgotten past 10 000 cells or 32 MiB). Comms
// (comm.go): a cell opens them through its Output (Comms), the widgets of
// ipywidgets for one, and the front end's comm_msg on them runs the cell's
// CommHandler as a cell runs; the front end's widget version check is
// answered, and a comm_open to any other target with comm_close. The
// control socket serves kernel_info, interrupt and shutdown
// only, never waiting for a running cell, so that an interrupt always lands;
// other requests there get an error reply. A request whose content does not
// follow the protocol (code not a string, ...) gets an error reply naming the
// field. Input requests go through the stdin socket when the client allows it.
//
// # Limits
//
// zmq4 reads a frame whole into memory as soon as its header announces a
// size, before any signature check. The kernel therefore listens through its
// own zmq4 transport, whose connections follow the ZMTP framing as zmq4 reads
// and hold back every frame header until it is whole. A request larger than
// Options.MaxMessage (8 MiB by default) is still answered, on the same
// connection: the frame that takes it past the limit and the rest of the
// message are skipped as they arrive, their signature computed on the way,
// and zmq4 receives the frames before it with a note of the kernel's own
// (under a secret token) in place of the rest. A signed request so noted
// gets an error reply, MessageTooLarge, that names its size and the limit
// (a cell also shows it as its output, and the cells queued behind it are
// aborted as after any failing cell); an unsigned one is dropped. A frame
// too large before the request's header (which a reply needs) closes the
// connection at its header, before zmq4 sees it; so does any frame larger
// than 64 KiB on the heartbeat and iopub sockets, which receive only pings
// and subscriptions. A socket takes at most 32
// connections, and a connection that does not complete its ZMTP handshake
// within 10 seconds is closed. Unsigned messages are dropped as they arrive,
// even while a cell runs; signed ones wait in a queue of at most 1000
// messages and 64 MiB. Stream output is gathered and sent every 50 ms or 64 KiB, and a
// cell shows at most Options.MaxOutput bytes of output (8 MiB by default),
// then a note that the rest was cut. A tcp address that other machines can
// reach is refused when the key is empty, and logged as a warning otherwise.
//
// # Executor
//
// An Executor keeps the state of one session. Execute receives a context that
// is cancelled on interrupt; the cell must then stop within a second and the
// session stays usable. Errors become an error message and an error reply;
// *CellError chooses their name and traceback. As in IPython, "exit" and
// "quit" end the session (an ask_exit payload, then the kernel exits) and
// "name?" shows help in the front end's pager; an Executor that implements
// Helper decides which cells those are, else the kernel recognises them and
// asks Inspect for the help. Offsets given to and returned
// by Complete and Inspect are byte offsets (the wire uses code points). A
// panic inside the Executor becomes an error, not a crash.
//
// # Process
//
// Serve (and Main, the `kernel` command) runs a kernel for a connection file.
// The kernel logs its errors and warnings to Options.Log (the command's
// standard error) and what it does (listening, shutdown, requests refused)
// to Options.Debug, which the command sets to standard error only with
// --debug or NIMBOOK_KERNEL_DEBUG=1: nbconvert and consoles show nothing
// of a kernel that works.
// It exits on shutdown_request, and when the process that started it dies
// (JPY_PARENT_PID, or a change of parent process), because some clients never
// send a shutdown. SIGINT interrupts the running cell instead of killing the
// process. Install writes the kernelspec kernels/nimbook/kernel.json.
package kernel
