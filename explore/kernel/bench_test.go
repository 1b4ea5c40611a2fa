package kernel_test

import "testing"

// BenchmarkExecuteRoundTrip measures one trivial cell through an in-process
// kernel over loopback tcp: execute_request to execute_reply and status idle.
func BenchmarkExecuteRoundTrip(b *testing.B) {
	c, _, _ := start(b, tcpInfo())
	for b.Loop() {
		id := c.send("shell", "execute_request", map[string]any{"code": "1+1"})
		c.reply("shell", id)
		c.iopub(id)
	}
}
